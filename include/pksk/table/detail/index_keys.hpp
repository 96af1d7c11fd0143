// SPDX-License-Identifier: BSL-1.0
#pragma once
// An item's secondary-index keys as the store holds them: ordinary top-level string attributes
// of the item, appended to its encoded body by put, and set by an update that changes a member
// they are formatted from.

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "../../codec/attribute_value_json.hpp"
#include "../../codec/body_format.hpp"
#include "../../detail/iso8601.hpp"
#include "../../detail/json_writer.hpp"
#include "../../key/field_types.hpp"
#include "../../reflect/enum_name.hpp"
#include "../../reflect/reflect.hpp"

namespace pksk::detail {

// Adds `"name": value` (a string) as the last member of an encoded body ("{...}").
inline void append_string_attribute(BodyFormat format, std::string& body, std::string_view name,
                                    std::string_view value) {
  body.pop_back();  // the closing brace
  if (body.size() > 1) body += ',';
  append_json_string(body, name);
  body += ':';
  if (format == BodyFormat::attribute_value) body += "{\"S\":";
  append_json_string(body, value);
  if (format == BodyFormat::attribute_value) body += '}';
  body += '}';
}

// Assigns the value of a `set` action to the key member it sets: the inverse of
// to_attribute_value for the types a key may be formatted from (strings, integers, enums).
// False when the value is not of the member's type.
template <class F>
bool assign_key_member(F& member, const AttributeValue& value) {
  if constexpr (KeyFieldValue<F>::optional) {
    // A sparse index's member: null (set to an empty optional) leaves the item out of it.
    if (value.kind == AttributeValue::Kind::null) {
      member.reset();
      return true;
    }
    return assign_key_member(member.emplace(), value);
  } else if constexpr (KeyTime<F>) {
    return value.kind == AttributeValue::Kind::string && parse_iso8601(value.text, member);
  } else if constexpr (std::is_enum_v<F>) {
    if (value.kind != AttributeValue::Kind::string) return false;
    const std::optional<F> e = enum_from_name<F>(value.text);
    if (e) member = *e;
    return e.has_value();
  } else if constexpr (std::is_integral_v<F>) {
    if (value.kind != AttributeValue::Kind::number) return false;
    const char* end = value.text.data() + value.text.size();
    const auto [at, ec] = std::from_chars(value.text.data(), end, member);
    return ec == std::errc{} && at == end;
  } else if constexpr (std::is_assignable_v<F&, const std::string&>) {
    if (value.kind != AttributeValue::Kind::string) return false;
    member = value.text;
    return true;
  } else {
    return false;
  }
}

}  // namespace pksk::detail
