// SPDX-License-Identifier: BSL-1.0
#pragma once
// Secondary indexes of an entity: each names an index of the table and the templates of the
// item's keys in it, checked and compiled like the primary key's.
//
//   template <> struct pksk::Entity<Order> {
//     ...
//     static constexpr std::array indexes = {
//         pksk::Index{"gsi1", "ORDER#{order_id}", "CUSTOMER#{customer_id}"}};
//   };
//
// An entity that does not name an index is not in it (a sparse index, as DynamoDB's GSIs are:
// an item is in an index when it has the index's key attributes, and pksk writes them only for
// the entities that name the index).

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "detail/template.hpp"
#include "entity.hpp"
#include "key.hpp"

namespace pksk {

// One index an entity is in: the index's name (one of the table's TableOptions::indexes) and
// the templates of its partition and sort keys, in the syntax of Entity<T>::pk and ::sk.
struct Index {
  // The index's name, one of TableOptions::indexes.
  std::string_view name{};
  // The index partition key's template ("ATTENDEE#{attendee}").
  std::string_view pk{};
  // The index sort key's template.
  std::string_view sk{};
};

namespace diagnostics {
// Entity<T>::indexes declared otherwise than as the std::array of pksk::Index the
// documentation shows: a C array (`static constexpr pksk::Index indexes[] = {...}`), whose
// size its uses would not see, a std::vector, a tuple.
template <class Entity>
struct entity_indexes_must_be_a_std_array_of_pksk_Index;
}  // namespace diagnostics

namespace detail {

template <class T>
inline constexpr bool is_index_array_v = false;
template <std::size_t N>
inline constexpr bool is_index_array_v<std::array<Index, N>> = true;

template <class T>
struct EntityIndexes {
  static constexpr std::array<Index, 0> value{};
};

// Indexes of another form are reported once, and the entity is then treated as in no index, so
// that nothing else fails on them.
template <class T>
  requires requires { Entity<T>::indexes; }
struct EntityIndexes<T> {
  static constexpr bool well_formed =
      diagnose_v<is_index_array_v<std::remove_cvref_t<decltype(Entity<T>::indexes)>>,
                 diagnostics::entity_indexes_must_be_a_std_array_of_pksk_Index<T>>;
  static constexpr auto value = [] {
    if constexpr (well_formed) {
      return Entity<T>::indexes;
    } else {
      return std::array<Index, 0>{};
    }
  }();
};

template <EntityType T, std::size_t I>
inline constexpr fixed_string<EntityIndexes<T>::value[I].pk.size()> index_pk_text_v{
    EntityIndexes<T>::value[I].pk};

template <EntityType T, std::size_t I>
inline constexpr fixed_string<EntityIndexes<T>::value[I].sk.size()> index_sk_text_v{
    EntityIndexes<T>::value[I].sk};

template <EntityType T, std::size_t I>
using index_partition_key_template =
    KeyTemplate<T, index_pk_text_v<T, I>, KeyRole::partition, /*Sparse=*/true>;

template <EntityType T, std::size_t I>
using index_sort_key_template =
    KeyTemplate<T, index_sk_text_v<T, I>, KeyRole::sort, /*Sparse=*/true>;

}  // namespace detail

// The indexes T names (an empty array when Entity<T> has no `indexes`).
template <EntityType T>
inline constexpr auto indexes_v = detail::EntityIndexes<T>::value;

// How many indexes entity T is in (Entity<T>::indexes).
template <EntityType T>
inline constexpr std::size_t index_count_v = indexes_v<T>.size();

// The position of the index named `name` in indexes_v<T>, or index_count_v<T>.
// Throws: nothing.
// Exception safety: nothrow.
template <EntityType T>
constexpr std::size_t index_position(std::string_view name) noexcept {
  for (std::size_t i = 0; i < index_count_v<T>; ++i) {
    if (indexes_v<T>[i].name == name) return i;
  }
  return index_count_v<T>;
}

// Assigns T's keys in its I-th index into pk and sk, reusing their capacity. Throws KeyError as
// format_partition_key does.
// Throws: KeyError if a key member's value cannot be part of a key.
// Exception safety: basic: on a KeyError, pk and sk hold unspecified text.
template <EntityType T, std::size_t I>
void format_index_keys(const T& record, std::string& pk, std::string& sk) {
  detail::index_partition_key_template<T, I>::format(record, pk);
  detail::index_sort_key_template<T, I>::format(record, sk);
}

namespace diagnostics {
// partition<"index">(x) or another typed use of an index that Entity names no index of that
// name in its `indexes`.
template <class Entity, detail::fixed_string IndexName>
struct entity_is_not_in_the_index;
}  // namespace diagnostics

// The partition key of `record` in the index IndexName, formatted by the index's template as
// partition(record) formats the table's: partition<"gsi1">(Ticket{.attendee = "ada"}) is
// "ATTENDEE#ada". A compile error names the entity when it is not in that index; KeyError as
// format_partition_key.
// Throws: KeyError if a key member's value cannot be part of a key.
// Exception safety: strong.
template <detail::fixed_string IndexName, EntityType T>
PartitionKey partition(const T& record) {
  constexpr std::size_t position = index_position<T>(IndexName.view());
  PartitionKey key;
  if constexpr (detail::diagnose_v<(position < index_count_v<T>),
                                   diagnostics::entity_is_not_in_the_index<T, IndexName>>) {
    detail::index_partition_key_template<T, position>::format(record, key.value);
  }
  return key;
}

namespace detail {

// Whether member `field` of T appears in the templates of T's I-th index.
template <EntityType T, std::size_t I>
constexpr bool is_index_member(std::size_t field) noexcept {
  for (const auto& s : index_partition_key_template<T, I>::segments) {
    if (s.kind == SegmentKind::field && s.field == field) return true;
  }
  for (const auto& s : index_sort_key_template<T, I>::segments) {
    if (s.kind == SegmentKind::field && s.field == field) return true;
  }
  return false;
}

// The literal text of the I-th index's sort-key template before its first field: the
// begins_with prefix of an index query for T alone (none when the template is bad, as for
// sort_key_prefix_v).
template <EntityType T, std::size_t I>
inline constexpr std::string_view index_sort_key_prefix_v =
    index_sort_key_template<T, I>::diagnosed ? index_sort_key_template<T, I>::prefix
                                             : std::string_view{};

// Calls f(std::integral_constant<std::size_t, I>) for each index of T.
template <EntityType T, class F>
constexpr void for_each_index(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<index_count_v<T>>{});
}

}  // namespace detail

}  // namespace pksk
