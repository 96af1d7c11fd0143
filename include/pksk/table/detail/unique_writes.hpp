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
using UniqueValues = std::array<std::optional<AttributeValue>, unique_fields_v<T>.size()>;

template <UniqueEntity T>
UniqueValues<T> unique_values(const T& item) {
  constexpr auto& fields = unique_fields_v<T>;
  UniqueValues<T> out;
  [&]<std::size_t... U>(std::index_sequence<U...>) {
    ((out[U] = unique_value(get_field<fields[U]>(item))), ...);
  }(std::make_index_sequence<fields.size()>{});
  return out;
}

// The stored item's unique values, read from its attributes, not decoded: an item that no
// longer decodes (an enumerator removed, a member edited by another tool) can still be replaced
// or erased. `present`: whether there is an item.
template <UniqueEntity T>
struct StoredUnique {
  bool present = false;
  UniqueValues<T> values{};
};

template <UniqueEntity T>
inline constexpr auto unique_stored_names_v = [] {
  constexpr auto& fields = unique_fields_v<T>;
  std::array<std::string_view, fields.size()> names{};
  for (std::size_t u = 0; u < fields.size(); ++u) names[u] = stored_names_v<T>[fields[u]];
  return names;
}();

// That the stored item is as it was read: absent (or expired, which a read takes as absent), or
// with these unique values.
template <UniqueEntity T>
backend::Condition unique_snapshot(const backend::TableSpec& spec, const StoredUnique<T>& old,
                                   std::int64_t now) {
  using Op = backend::Condition::Op;
  if (!old.present) {
    backend::Condition absent{Op::not_exists, {path_operand(top_level(spec.pk_attribute))}, {}};
    if (spec.ttl_attribute.empty()) return absent;
    backend::Condition either{Op::any, {}, {}};
    either.children.push_back(std::move(absent));
    either.children.push_back({Op::le,
                               {path_operand(top_level(spec.ttl_attribute)),
                                value_operand(AttributeValue::from_number(std::to_string(now)))},
                               {}});
    return either;
  }
  backend::Condition all{Op::all, {}, {}};
  for (std::size_t u = 0; u < old.values.size(); ++u) {
    const std::string_view name = unique_stored_names_v<T>[u];
    if (!old.values[u]) {
      all.children.push_back({Op::not_exists, {path_operand(top_level(name))}, {}});
    } else {
      all.children.push_back(
          {Op::eq, {path_operand(top_level(name)), value_operand(*old.values[u])}, {}});
    }
  }
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
