// SPDX-License-Identifier: BSL-1.0
#pragma once
// What Table's writes of an entity with unique members (key/unique.hpp) add to the write: the
// members' values as guard keys, and the condition that the item still holds the values it was
// read with, so that the guards released are the item's own. The write itself is then a
// transaction: the item, the guards of new values claimed, the guards of old values released.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../codec/attribute_value_json.hpp"
#include "../../error.hpp"
#include "../../expr/attr.hpp"
#include "../../expr/expression.hpp"
#include "../../key/stored_names.hpp"
#include "../../key/unique.hpp"
#include "../../reflect/reflect.hpp"
#include "entity_writes.hpp"
#include "messages.hpp"

namespace pksk::detail {

template <class F>
std::optional<AttributeValue> unique_value(const F& value) {
  if constexpr (is_optional_v<F>) {
    if (!value) return std::nullopt;
    return to_attribute_value(*value);
  } else {
    return to_attribute_value(value);
  }
}

// Each unique member's value as stored, or nullopt for an empty optional (which claims nothing).
template <UniqueEntity T>
std::vector<std::optional<AttributeValue>> unique_values(const T& item) {
  constexpr auto& fields = unique_fields_v<T>;
  std::vector<std::optional<AttributeValue>> out(fields.size());
  [&]<std::size_t... U>(std::index_sequence<U...>) {
    ((out[U] = unique_value(get_field<fields[U]>(item))), ...);
  }(std::make_index_sequence<fields.size()>{});
  return out;
}

// The unique members' entries of one of T's per-member name arrays.
template <UniqueEntity T, class Names>
constexpr auto unique_entries(const Names& all) {
  constexpr auto& fields = unique_fields_v<T>;
  std::array<std::string_view, fields.size()> names{};
  for (std::size_t u = 0; u < fields.size(); ++u) names[u] = all[fields[u]];
  return names;
}

// The unique members' stored names, and their names in T (for messages).
template <UniqueEntity T>
inline constexpr auto unique_stored_names_v = unique_entries<T>(stored_names_v<T>);
template <UniqueEntity T>
inline constexpr auto unique_member_names_v = unique_entries<T>(field_names_v<T>);

// The key text of T's unique member `u` holding `value` (its text as stored): what keys its
// guard, after the member's key-text function (Entity<T>::unique_values); nullopt when the value
// claims no guard (an empty key text of a member with claim_empty = false).
template <UniqueEntity T, std::size_t U>
std::optional<std::string> unique_key_text_of(const AttributeValue& value) {
  constexpr std::string_view name = unique_entries<T>(field_names_v<T>)[U];
  constexpr std::size_t entry = unique_value_entry<T>(name);
  if constexpr (entry == unique_values_count<T>()) {
    return value.text;
  } else {
    constexpr auto& options = std::get<entry>(Entity<T>::unique_values);
    std::string text = options.key_text(std::string_view(value.text));
    if (text.empty() && !options.options.claim_empty) return std::nullopt;
    return text;
  }
}
template <UniqueEntity T>
inline constexpr auto unique_key_texts_v = []<std::size_t... U>(std::index_sequence<U...>) {
  return std::array<std::optional<std::string> (*)(const AttributeValue&), sizeof...(U)>{
      &unique_key_text_of<T, U>...};
}(std::make_index_sequence<unique_fields_v<T>.size()>{});

// Whether T's unique member `u` has a key-text function: its guards say so (a sweep, which
// knows no entity, cannot tell whether another text of the member has the same key text).
template <class T, std::size_t Entry>
consteval bool unique_entry_has_key_text() {
  if constexpr (Entry == unique_values_count<T>()) {
    return false;
  } else {
    return unique_value_entry_t<T, Entry>::has_key_text;
  }
}
template <UniqueEntity T>
inline constexpr auto unique_has_key_text_v = []<std::size_t... U>(std::index_sequence<U...>) {
  constexpr auto names = unique_entries<T>(field_names_v<T>);
  return std::array<bool, sizeof...(U)>{
      unique_entry_has_key_text<T, unique_value_entry<T>(names[U])>()...};
}(std::make_index_sequence<unique_fields_v<T>.size()>{});

// A value another item holds: the guard's put found it claimed.
[[noreturn]] inline void throw_unique_taken(std::string_view table, std::string_view operation,
                                            std::string_view type, std::string_view member,
                                            std::string_view value, const Error& cause) {
  throw ConditionFailed(table_context(table, operation, type) + "the unique member " +
                            quoted(member) + " has the value " + quoted(value) +
                            ", which another item holds",
                        cause.native(), std::make_exception_ptr(cause), nullptr);
}

}  // namespace pksk::detail
