// SPDX-License-Identifier: BSL-1.0
#pragma once
// Members an entity marks by name for a way of storing them (Entity<T>::compressed,
// Entity<T>::stored_in_blob_store): the names as declared, the fields they mark, and the first
// thing wrong with the list, which each marking reports under its own rules.

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <utility>

#include "../../key/entity.hpp"
#include "../../key/index.hpp"
#include "../../key/key.hpp"
#include "../../reflect/reflect.hpp"

namespace pksk::detail {

// An entity's list of member names (an std::array of string literals) as string_views.
template <class Names>
consteval auto marked_names(const Names& names) {
  std::array<std::string_view, std::tuple_size_v<Names>> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::string_view(names[i]);
  return out;
}

// Which fields of T the names mark, by index.
template <class T, std::size_t N>
consteval std::array<bool, field_count_v<T>> marked_fields(
    const std::array<std::string_view, N>& names) {
  std::array<bool, field_count_v<T>> out{};
  for (const std::string_view name : names) {
    for (std::size_t i = 0; i < field_count_v<T>; ++i) {
      if (field_names_v<T>[i] == name) out[i] = true;
    }
  }
  return out;
}

// The first thing wrong with a list of marked members, if any.
struct MarkedProblem {
  enum class Kind { none, no_member, twice, type, key } kind = Kind::none;
  std::size_t name = 0;   // no_member, twice: the entry of the list
  std::size_t field = 0;  // type, key: the member
};

// `storable[i]`: whether field i's type can be stored the marked way. A marked member must be
// a member, named once, of a storable type, and in no key template (the entity's or an
// index's), since a key is stored as it is.
template <class T, std::size_t N>
consteval MarkedProblem marked_problem(const std::array<std::string_view, N>& names,
                                       const std::array<bool, field_count_v<T>>& storable) {
  using Kind = MarkedProblem::Kind;
  for (std::size_t n = 0; n < N; ++n) {
    if (field_index<T>(names[n]) == field_count_v<T>) return {Kind::no_member, n};
    for (std::size_t m = 0; m < n; ++m) {
      if (names[m] == names[n]) return {Kind::twice, n};
    }
  }
  const std::array<bool, field_count_v<T>> marked = marked_fields<T>(names);
  for (std::size_t i = 0; i < field_count_v<T>; ++i) {
    if (!marked[i]) continue;
    if (!storable[i]) return {Kind::type, 0, i};
    if constexpr (EntityType<T>) {
      if (is_key_member<T>(i)) return {Kind::key, 0, i};
      bool in_index = false;
      [&]<std::size_t... X>(std::index_sequence<X...>) {
        ((in_index = in_index || is_index_member<T, X>(i)), ...);
      }(std::make_index_sequence<index_count_v<T>>{});
      if (in_index) return {Kind::key, 0, i};
    }
  }
  return {};
}

}  // namespace pksk::detail
