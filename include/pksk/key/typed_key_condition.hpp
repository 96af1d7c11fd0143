// SPDX-License-Identifier: BSL-1.0
#pragma once
// What sort_key_of<T, IndexName...> (typed_condition.hpp) returns: a KeyCondition that names the
// entity and the sort key it was formatted for, so that a query can tell a condition meant for
// another entity or another index from one that matches nothing.

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "condition.hpp"
#include "entity.hpp"
#include "index.hpp"
#include "key.hpp"

namespace pksk {

namespace detail {

// The sort-key template of T in the index IndexName; T's table template, after the one error
// naming the entity, when T is not in that index (so that nothing else is reported).
template <EntityType T, fixed_string IndexName>
struct IndexSortKey {
  static constexpr std::size_t position = index_position<T>(IndexName.view());
  static constexpr bool in_index =
      diagnose_v<(position < index_count_v<T>),
                 diagnostics::entity_is_not_in_the_index<T, IndexName>>;
  static constexpr auto pick() {
    if constexpr (in_index) {
      return std::type_identity<index_sort_key_template<T, position>>{};
    } else {
      return std::type_identity<sort_key_template<T>>{};
    }
  }
  using type = typename decltype(pick())::type;
};

// Where sort_key_of<T, IndexName...>'s conditions apply: T's sort key in the table, or in the
// index named.
template <EntityType T, fixed_string... IndexName>
struct SortKeyOf {
  using type = sort_key_template<T>;
  static constexpr std::string_view index{};
};
template <EntityType T, fixed_string IndexName>
struct SortKeyOf<T, IndexName> {
  using type = typename IndexSortKey<T, IndexName>::type;
  static constexpr std::string_view index = IndexName.view();
};

template <EntityType T, fixed_string... IndexName>
inline constexpr KeySpace key_space_v{type_name_v<T>, SortKeyOf<T, IndexName...>::index,
                                      SortKeyOf<T, IndexName...>::type::text};

}  // namespace detail

// What sort_key_of<T, IndexName...> makes: a KeyCondition that names the entity and the key
// space it was formatted for (KeyCondition::built_for), so that a query of another entity, or on
// another index, is refused: at compile time where the query's options are typed (query<R>(pk,
// {.sk = ...})), when the query runs otherwise.
template <EntityType T, detail::fixed_string... IndexName>
class TypedKeyCondition : public KeyCondition {
 public:
  // `condition`, marked as built for T's sort key in the key space IndexName names.
  // Throws: nothing (the condition is moved).
  // Exception safety: nothrow.
  TypedKeyCondition(KeyCondition condition = {})  // NOLINT(google-explicit-constructor)
      : KeyCondition(std::move(condition)) {
    built_for = &detail::key_space_v<T, IndexName...>;
  }
};

}  // namespace pksk
