// SPDX-License-Identifier: BSL-1.0
#pragma once
// The Entity<T> customization point: what makes a struct an item of a table. Users specialize
//
//   template <> struct pksk::Entity<Customer> {
//     static constexpr std::string_view type = "Customer";      // discriminator value
//     static constexpr std::string_view pk = "CUSTOMER#{id}";  // partition-key template
//     static constexpr std::string_view sk = "A";              // sort-key template
//   };
//
// The key templates are checked and compiled by key.hpp.

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../reflect/reflect.hpp"

namespace pksk {

// Left undefined so that a struct without a specialization is not an entity.
template <class T>
struct Entity;

namespace detail {
// Whether Entity<T> declares a sort-key template: an entity without one is keyed by its
// partition key alone, the item of a table whose key schema has no sort key.
template <class T>
concept declares_sort_key = requires {
  { Entity<T>::sk } -> std::convertible_to<std::string_view>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::sk).size()>;
};
}  // namespace detail

// The integral_constant requirements make the members constant expressions, which key
// templates must be to be parsed at compile time. `sk` may be left out (a table without a
// sort key); declared, it must be one too.
template <class T>
concept EntityType = Reflectable<T> && requires {
  { Entity<T>::type } -> std::convertible_to<std::string_view>;
  { Entity<T>::pk } -> std::convertible_to<std::string_view>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::type).size()>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::pk).size()>;
} && (detail::declares_sort_key<T> || !requires { Entity<T>::sk; });

// True for an entity that declares no sort key: its items live in a table whose key schema is
// the partition key alone (TableOptions::sk_attribute = ""), one item per partition key.
template <class T>
inline constexpr bool partition_key_only_v = EntityType<T> && !detail::declares_sort_key<T>;

namespace detail {
// Entity<T>::version given as a name, whichever member it names.
template <class T>
concept declares_version_name = EntityType<T> && requires {
  { Entity<T>::version } -> std::convertible_to<std::string_view>;
};

// Whether Entity<T>::version names an integer member of T (bool is none): what optimistic
// locking checks and increments.
template <class T>
consteval bool version_names_an_integer_member() {
  constexpr std::size_t index = field_index<T>(Entity<T>::version);
  if constexpr (index >= field_count_v<T>) {
    return false;
  } else {
    using Member = field_type_t<T, index>;
    return std::is_integral_v<Member> && !std::is_same_v<Member, bool>;
  }
}
}  // namespace detail

// An entity that declares `static constexpr std::string_view version = "rev";` (an integer
// member) has it checked and incremented on every write: optimistic locking. One whose version
// names no integer member is not versioned: its writes report the mistake (version_spelled_v
// below) and nothing else, rather than failing inside the locking code.
template <class T>
concept VersionedEntity =
    detail::declares_version_name<T> && detail::version_names_an_integer_member<T>();

namespace diagnostics {
// Entity<T>::version declared as something other than the version member's name ("rev"): a
// member pointer, say, which would otherwise leave the entity silently without locking.
template <class Entity>
struct entity_version_must_be_the_name_of_its_version_member;
// Entity<T>::version = "revision" where the entity has no member of that name (a typo).
template <class Entity, detail::fixed_string Version>
struct entity_version_names_no_member_of_the_entity;
// Entity<T>::version naming a member that is not an integer (a std::string, a bool): the
// version is a number, compared and incremented by every write.
template <class Entity, detail::fixed_string Version>
struct entity_version_member_must_be_an_integer;
}  // namespace diagnostics

namespace detail {

template <class T>
inline constexpr fixed_string<std::string_view(Entity<T>::version).size()> version_text_v{
    std::string_view(Entity<T>::version)};

template <class T>
consteval bool version_declaration_ok() {
  if constexpr (!requires { Entity<T>::version; }) {
    return true;
  } else if constexpr (!declares_version_name<T>) {
    return diagnose_v<false, diagnostics::entity_version_must_be_the_name_of_its_version_member<T>>;
  } else if constexpr (field_index<T>(Entity<T>::version) >= field_count_v<T>) {
    return diagnose_v<
        false, diagnostics::entity_version_names_no_member_of_the_entity<T, version_text_v<T>>>;
  } else {
    return diagnose_v<VersionedEntity<T>,
                      diagnostics::entity_version_member_must_be_an_integer<T, version_text_v<T>>>;
  }
}

// Reading it reports an Entity<T>::version that is not the name of an integer member.
template <class T>
inline constexpr bool version_spelled_v = version_declaration_ok<T>();

// The index of a versioned entity's version member, in reflect order.
template <VersionedEntity T>
inline constexpr std::size_t version_index_v = field_index<T>(Entity<T>::version);

template <VersionedEntity T>
using version_type_t = field_type_t<T, version_index_v<T>>;

// Whether field `index` of T is its version member: false for an entity without one.
template <class T>
constexpr bool is_version_member(std::size_t index) noexcept {
  if constexpr (VersionedEntity<T>) {
    return index == version_index_v<T>;
  } else {
    return false;
  }
}

}  // namespace detail

namespace diagnostics {
// table.put(x), get, update, erase, a batch or a transaction's action on an x whose type has no
// pksk::Entity specialization.
template <class T>
struct item_type_is_not_an_entity;
// A pksk::Entity<T> specialization that does not declare Member ("type", "pk") as a constant
// string, or declares "sk" as something else.
template <class Entity, detail::fixed_string Member>
struct entity_specialisation_must_declare_a_constant_string;
// A pksk::Entity<T> specialization for a T whose members pksk cannot see: neither an aggregate
// (a struct with a constructor of its own, say) nor a Boost.Hana-adapted struct.
template <class Entity>
struct entity_is_neither_an_aggregate_nor_a_hana_struct;
}  // namespace diagnostics

namespace detail {

template <class T>
concept specialises_entity = requires { sizeof(Entity<T>); };

template <class T>
concept declares_constant_type = requires {
  { Entity<T>::type } -> std::convertible_to<std::string_view>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::type).size()>;
};
template <class T>
concept declares_constant_pk = requires {
  { Entity<T>::pk } -> std::convertible_to<std::string_view>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::pk).size()>;
};

// The one error saying why T, used as an entity, is none: what its specialization lacks, or that
// it has none. The calls that take an entity have an overload for the other types that reads it
// and does nothing else, so that no overload failure is reported beside it.
template <class T>
consteval bool report_not_an_entity() {
  if constexpr (!specialises_entity<T>) {
    return diagnose_v<false, diagnostics::item_type_is_not_an_entity<T>>;
  } else if constexpr (!declares_constant_type<T>) {
    return diagnose_v<false, diagnostics::entity_specialisation_must_declare_a_constant_string<
                                 T, fixed_string{"type"}>>;
  } else if constexpr (!declares_constant_pk<T>) {
    return diagnose_v<false, diagnostics::entity_specialisation_must_declare_a_constant_string<
                                 T, fixed_string{"pk"}>>;
  } else if constexpr (!Reflectable<T>) {
    return diagnose_v<false, diagnostics::entity_is_neither_an_aggregate_nor_a_hana_struct<T>>;
  } else {
    return diagnose_v<false, diagnostics::entity_specialisation_must_declare_a_constant_string<
                                 T, fixed_string{"sk"}>>;
  }
}

}  // namespace detail

// The discriminator value stored with every item of T.
template <EntityType T>
inline constexpr std::string_view type_name_v = Entity<T>::type;

}  // namespace pksk
