// SPDX-License-Identifier: BSL-1.0
#pragma once
// AttributeValue read from JSON with simdjson On-Demand: a plain JSON body or DynamoDB's
// AttributeValue JSON into a tree, for what backends evaluate in process (conditions, updates,
// filters on keys).

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "../detail/base64.hpp"
#include "../detail/padded_buffer.hpp"
#include "../error.hpp"
#include "attribute_value.hpp"
#include "attribute_value_json.hpp"
#include "decimal.hpp"
#include "decode.hpp"

namespace pksk {

// ------------------------------------------------------------------------ from plain JSON

namespace detail {

// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. simdjson's on-demand
// type() looks only at a value's first byte, so the raw token of "1?" or "0<NUL>" reaches here
// as a number and must be refused before it is kept as decimal text.
constexpr bool is_json_number(std::string_view text) noexcept {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t first = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - first;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (i < text.size() && text[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

// The elements of a JSON array appended to out.list, each read by read(value, element); a
// failure's path gains the element's index. Shared by the plain and AttributeValue readers.
template <class Read>
void read_elements(simdjson::ondemand::array array, AttributeValue& out, Read&& read) {
  std::size_t index = 0;
  for (auto element : array) {
    try {
      simdjson::ondemand::value v;
      if (auto error = std::move(element).get(v)) throw_invalid_json(error);
      read(v, out.list.emplace_back());
    } catch (PathedFailure& failure) {
      failure.prepend_index(index);
      throw;
    }
    ++index;
  }
}

// The members of a JSON object appended to out.map, each value read by read(value, member);
// a failure's path gains the member's name.
template <class Read>
void read_members(simdjson::ondemand::object object, AttributeValue& out, Read&& read) {
  for (auto member : object) {
    simdjson::ondemand::field field;
    std::string_view key;
    if (auto error = std::move(member).get(field)) throw_invalid_json(error);
    if (auto error = field.unescaped_key().get(key)) throw_invalid_json(error);
    auto& entry = out.map.emplace_back(AttributeValue::Member{std::string(key), AttributeValue{}});
    try {
      read(field.value(), entry.second);
    } catch (PathedFailure& failure) {
      failure.prepend_member(key);
      throw;
    }
  }
}

// depth: the level of value in the document (the item is 1), bounded as the codec bounds it,
// since each level is a level of recursion here.
// A plain-JSON number's text as written, checked against JSON's number grammar (simdjson's
// type() looks at the first byte only); a bad one throws, naming where it is.
inline std::string_view plain_number_text(std::string_view raw) {
  while (!raw.empty() &&
         (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t')) {
    raw.remove_suffix(1);
  }
  if (!is_json_number(raw)) [[unlikely]]
    throw_pathed("invalid number");
  return raw;
}
inline std::string_view plain_number_text(simdjson::ondemand::value& value) {
  return plain_number_text(value.raw_json_token());
}

// The plain body's typed values, read as an object with one empty-named member: binary, a
// number set or a binary set (append_value_json). Any other such object stays a map.
inline void read_plain_typed(AttributeValue& out) {
  using Kind = AttributeValue::Kind;
  AttributeValue& inner = out.map[0].second;
  if (inner.kind == Kind::string) {
    std::string bytes;
    if (!decode_base64(inner.text, bytes)) [[unlikely]]
      throw_pathed("invalid base64 in a binary value");
    out = AttributeValue::from_binary(std::move(bytes));
    return;
  }
  if (inner.kind != Kind::list || inner.list.empty()) return;
  const Kind element = inner.list.front().kind;
  if (element != Kind::number && element != Kind::string) return;
  std::vector<std::string> elements;
  elements.reserve(inner.list.size());
  for (AttributeValue& e : inner.list) {
    if (e.kind != element) return;
    if (element == Kind::number) {
      elements.push_back(std::move(e.text));
    } else if (!decode_base64(e.text, elements.emplace_back())) [[unlikely]] {
      throw_pathed("invalid base64 in a binary set");
    }
  }
  out = element == Kind::number ? AttributeValue::from_number_set(std::move(elements))
                                : AttributeValue::from_binary_set(std::move(elements));
}

inline void read_plain_value(simdjson::ondemand::value value, AttributeValue& out,
                             std::int32_t depth = 1) {
  using simdjson::ondemand::json_type;
  json_type type;
  if (auto error = value.type().get(type)) throw_invalid_json(error);
  switch (type) {
    case json_type::null:
      out = AttributeValue{};
      return;
    case json_type::boolean: {
      bool b = false;
      if (auto error = value.get_bool().get(b)) throw_invalid_json(error);
      out = AttributeValue::from_bool(b);
      return;
    }
    case json_type::number:
      out = AttributeValue::from_number(std::string(plain_number_text(value)));
      return;
    case json_type::string: {
      std::string_view s;
      if (auto error = value.get_string().get(s)) throw_invalid_json(error);
      out = AttributeValue::from_string(std::string(s));
      return;
    }
    case json_type::array: {
      if (depth > max_decode_depth) [[unlikely]]
        throw_depth_error();
      simdjson::ondemand::array array;
      if (auto error = value.get_array().get(array)) throw_invalid_json(error);
      out = AttributeValue::empty_list();
      read_elements(array, out, [depth](simdjson::ondemand::value v, AttributeValue& element) {
        read_plain_value(v, element, depth + 1);
      });
      return;
    }
    case json_type::object: {
      if (depth > max_decode_depth) [[unlikely]]
        throw_depth_error();
      simdjson::ondemand::object object;
      if (auto error = value.get_object().get(object)) throw_invalid_json(error);
      out = AttributeValue::empty_map();
      read_members(object, out, [depth](simdjson::ondemand::value v, AttributeValue& member) {
        read_plain_value(v, member, depth + 1);
      });
      // A binary value, {"":"<base64>"}, a number set, {"":[1,2.5]}, or a binary set,
      // {"":["<base64>",...]}: no map key or member is empty, so nothing else has that shape.
      if (out.map.size() == 1 && out.map[0].first.empty()) read_plain_typed(out);
      return;
    }
  }
  throw_pathed("unexpected JSON value");
}

inline void read_attribute_value_members(simdjson::ondemand::object object, AttributeValue& out,
                                         std::int32_t depth);

// One DynamoDB AttributeValue ({"S":"x"}, {"N":"1"}, {"M":{...}}, ...) into `out`; depth as
// in read_plain_value.
inline void read_attribute_value(simdjson::ondemand::value value, AttributeValue& out,
                                 std::int32_t depth = 1) {
  simdjson::ondemand::object wrapper;
  if (auto error = value.get_object().get(wrapper)) throw_invalid_json(error);
  for (auto member : wrapper) {
    simdjson::ondemand::field field;
    std::string_view tag;
    if (auto error = std::move(member).get(field)) throw_invalid_json(error);
    if (auto error = field.unescaped_key().get(tag)) throw_invalid_json(error);
    simdjson::ondemand::value inner = field.value();
    if (tag == "S" || tag == "N") {
      std::string_view text;
      if (auto error = inner.get_string().get(text)) throw_invalid_json(error);
      if (tag == "N" && !is_json_number(text)) [[unlikely]]
        throw_pathed("invalid number");
      out = tag == "S" ? AttributeValue::from_string(std::string(text))
                       : AttributeValue::from_number(std::string(text));
    } else if (tag == "B") {
      std::string_view text;
      if (auto error = inner.get_string().get(text)) throw_invalid_json(error);
      std::string bytes;
      if (!decode_base64(text, bytes)) [[unlikely]]
        throw_pathed("invalid base64 in a binary value");
      out = AttributeValue::from_binary(std::move(bytes));
    } else if (tag == "BOOL") {
      bool b = false;
      if (auto error = inner.get_bool().get(b)) throw_invalid_json(error);
      out = AttributeValue::from_bool(b);
    } else if (tag == "NULL") {
      out = AttributeValue::null_value();
    } else if (tag == "SS") {
      simdjson::ondemand::array array;
      if (auto error = inner.get_array().get(array)) throw_invalid_json(error);
      std::vector<std::string> strings;
      for (auto element : array) {
        std::string_view text;
        if (auto error = element.get_string().get(text)) throw_invalid_json(error);
        strings.emplace_back(text);
      }
      out = AttributeValue::from_set(std::move(strings));
    } else if (tag == "NS" || tag == "BS") {
      simdjson::ondemand::array array;
      if (auto error = inner.get_array().get(array)) throw_invalid_json(error);
      std::vector<std::string> elements;
      for (auto element : array) {
        std::string_view text;
        if (auto error = element.get_string().get(text)) throw_invalid_json(error);
        if (tag == "NS") {
          if (!is_json_number(text)) [[unlikely]]
            throw_pathed("invalid number in a number set");
          elements.emplace_back(text);
        } else if (!decode_base64(text, elements.emplace_back())) [[unlikely]] {
          throw_pathed("invalid base64 in a binary set");
        }
      }
      out = tag == "NS" ? AttributeValue::from_number_set(std::move(elements))
                        : AttributeValue::from_binary_set(std::move(elements));
    } else if (tag == "L") {
      if (depth > max_decode_depth) [[unlikely]]
        throw_depth_error();
      simdjson::ondemand::array array;
      if (auto error = inner.get_array().get(array)) throw_invalid_json(error);
      out = AttributeValue::empty_list();
      read_elements(array, out, [depth](simdjson::ondemand::value v, AttributeValue& element) {
        read_attribute_value(v, element, depth + 1);
      });
    } else if (tag == "M") {
      if (depth > max_decode_depth) [[unlikely]]
        throw_depth_error();
      simdjson::ondemand::object object;
      if (auto error = inner.get_object().get(object)) throw_invalid_json(error);
      out = AttributeValue::empty_map();
      read_attribute_value_members(object, out, depth + 1);
    } else {
      throw_pathed("unsupported AttributeValue type \"" + std::string(tag) + "\"");
    }
    return;
  }
  throw_pathed("an AttributeValue with no type");
}

// The members of an AttributeValue map ("M", or a whole item) into `out`, a map.
inline void read_attribute_value_members(simdjson::ondemand::object object, AttributeValue& out,
                                         std::int32_t depth) {
  read_members(object, out, [depth](simdjson::ondemand::value v, AttributeValue& member) {
    read_attribute_value(v, member, depth);
  });
}

}  // namespace detail

namespace detail {
// Parses `json`, an object, into a map with read(object_value, item); a failure is a
// DecodeError naming where it is.
template <class Read>
AttributeValue parse_object(std::string_view json, Read&& read) {
  thread_local simdjson::ondemand::parser parser;
  thread_local detail::PaddedBuffer buffer;
  try {
    const std::string_view padded = buffer.assign(json);
    simdjson::ondemand::document document;
    if (auto error =
            parser.iterate(padded.data(), padded.size(), buffer.padded_capacity()).get(document)) {
      detail::throw_invalid_json(error);
    }
    simdjson::ondemand::value root;
    if (auto error = document.get_value().get(root)) detail::throw_invalid_json(error);
    AttributeValue item;
    read(root, item);
    if (item.kind != AttributeValue::Kind::map) detail::throw_pathed("expected an object");
    // Text after the object (a second document, "{}x") is no body.
    const char* rest = nullptr;
    if (document.current_location().get(rest) == simdjson::SUCCESS)
      detail::throw_pathed("text after the object");
    return item;
  } catch (const detail::PathedFailure& failure) {
    throw DecodeError("at " + failure.full_path() + ": " + failure.what);
  }
}
}  // namespace detail

// Parses an AttributeValue JSON body ({"name":{"S":"x"},...}, what the DynamoDB backend's
// items hold and DynamoDB's exports write) into an item map. Throws DecodeError.
// Throws: DecodeError for text that is not such a body.
// Exception safety: strong.
inline AttributeValue parse_attribute_value_body(std::string_view json) {
  return detail::parse_object(json, [](simdjson::ondemand::value root, AttributeValue& item) {
    simdjson::ondemand::object object;
    if (auto error = root.get_object().get(object)) detail::throw_invalid_json(error);
    item = AttributeValue::empty_map();
    detail::read_attribute_value_members(object, item, 1);
  });
}

// Parses an item body in either format (Backend::body_format) into an item map.
// Throws: DecodeError for text that is not a body of that format.
// Exception safety: strong.
inline AttributeValue parse_body(std::string_view json, BodyFormat format);

// Parses a plain JSON body (an object) into an item map. Throws DecodeError.
// Throws: DecodeError for text that is not a JSON object.
// Exception safety: strong.
inline AttributeValue parse_plain_body(std::string_view json) {
  return detail::parse_object(json, [](simdjson::ondemand::value root, AttributeValue& item) {
    detail::read_plain_value(root, item);
  });
}

inline AttributeValue parse_body(std::string_view json, BodyFormat format) {
  return format == BodyFormat::json ? parse_plain_body(json) : parse_attribute_value_body(json);
}

}  // namespace pksk
