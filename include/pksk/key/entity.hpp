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

// An entity that declares `static constexpr std::string_view version = "rev";` (an integer
// member) has it checked and incremented on every write: optimistic locking.
template <class T>
concept VersionedEntity = EntityType<T> && requires {
  { Entity<T>::version } -> std::convertible_to<std::string_view>;
};

namespace diagnostics {
// Entity<T>::version declared as something other than the version member's name ("rev"): a
// member pointer, say, which would otherwise leave the entity silently without locking.
template <class Entity>
struct entity_version_must_be_the_name_of_its_version_member;
}  // namespace diagnostics

namespace detail {

// Reading it reports an Entity<T>::version that is not a name.
template <class T>
inline constexpr bool version_spelled_v = diagnose_v<!requires {
  Entity<T>::version;
} || VersionedEntity<T>, diagnostics::entity_version_must_be_the_name_of_its_version_member<T>>;

template <class T>
struct version_member_not_found {
  static_assert(field_index<T>(Entity<T>::version) < field_count_v<T>,
                "pksk: Entity<T>::version names no member of the entity (see T)");
  static constexpr std::size_t index = field_index<T>(Entity<T>::version);
};

// The index of a versioned entity's version member, in reflect order.
template <VersionedEntity T>
inline constexpr std::size_t version_index_v = version_member_not_found<T>::index;

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

// The discriminator value stored with every item of T.
template <EntityType T>
inline constexpr std::string_view type_name_v = Entity<T>::type;

}  // namespace pksk
