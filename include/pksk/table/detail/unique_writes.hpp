// SPDX-License-Identifier: BSL-1.0
#pragma once
// What Table's writes of an entity with unique members (key/unique.hpp) add to the write: the
// members' values as guard keys, and the condition that the item still holds the values it was
// read with, so that the guards released are the item's own. The write itself is then a
// transaction: the item, the guards of new values claimed, the guards of old values released.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

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
std::optional<std::string> unique_text(const F& value) {
  if constexpr (is_optional_v<F>) {
    if (!value) return std::nullopt;
    return to_attribute_value(*value).text;
  } else {
    return to_attribute_value(value).text;
  }
}

// Each unique member's text, or nullopt for an empty optional (which claims nothing).
template <UniqueEntity T>
auto unique_values(const T& item) {
  constexpr auto& fields = unique_fields_v<T>;
  std::array<std::optional<std::string>, fields.size()> out;
  [&]<std::size_t... U>(std::index_sequence<U...>) {
    ((out[U] = unique_text(get_field<fields[U]>(item))), ...);
  }(std::make_index_sequence<fields.size()>{});
  return out;
}

// That the stored item is as it was read: absent, or with these unique values.
template <UniqueEntity T>
backend::Condition unique_snapshot(const backend::TableSpec& spec, const std::optional<T>& old) {
  using Op = backend::Condition::Op;
  if (!old) return {Op::not_exists, {path_operand(top_level(spec.pk_attribute))}, {}};
  backend::Condition all{Op::all, {}, {}};
  constexpr auto& fields = unique_fields_v<T>;
  [&]<std::size_t... U>(std::index_sequence<U...>) {
    const auto one = [&](std::string_view name, const auto& field) {
      using F = std::remove_cvref_t<decltype(field)>;
      bool present = true;
      if constexpr (is_optional_v<F>) present = field.has_value();
      if (!present) {
        all.children.push_back({Op::not_exists, {path_operand(top_level(name))}, {}});
      } else if constexpr (is_optional_v<F>) {
        all.children.push_back(
            {Op::eq,
             {path_operand(top_level(name)), value_operand(to_attribute_value(*field))},
             {}});
      } else {
        all.children.push_back(
            {Op::eq,
             {path_operand(top_level(name)), value_operand(to_attribute_value(field))},
             {}});
      }
    };
    (one(stored_names_v<T>[fields[U]], get_field<fields[U]>(*old)), ...);
  }(std::make_index_sequence<fields.size()>{});
  return all;
}

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
