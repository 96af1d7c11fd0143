// SPDX-License-Identifier: BSL-1.0
#pragma once
// AttributeValue written as JSON (DynamoDB's AttributeValue JSON or a plain JSON body) and
// built from a C++ value through the encoder (to_attribute_value): what conditions, filters and
// updates carry in every translation unit. Reading it back from JSON, which needs the parser,
// is attribute_value_read.hpp's.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../detail/json_writer.hpp"
#include "../error.hpp"
#include "attribute_value.hpp"
#include "decimal.hpp"
#include "encode.hpp"

namespace pksk {

// ------------------------------------------------------------------------ to JSON

namespace detail {

template <bool AttributeValueJson>
void append_value_json(std::string& out, const AttributeValue& v) {
  using Kind = AttributeValue::Kind;
  switch (v.kind) {
    case Kind::null:
      out += AttributeValueJson ? "{\"NULL\":true}" : "null";
      return;
    case Kind::boolean:
      if constexpr (AttributeValueJson) {
        out += v.boolean ? "{\"BOOL\":true}" : "{\"BOOL\":false}";
      } else {
        out += v.boolean ? "true" : "false";
      }
      return;
    case Kind::number:
      if constexpr (AttributeValueJson) {
        out += "{\"N\":";
        append_json_string(out, v.text);
        out += '}';
      } else {
        out += v.text;
      }
      return;
    case Kind::string:
      if constexpr (AttributeValueJson) out += "{\"S\":";
      append_json_string(out, v.text);
      if constexpr (AttributeValueJson) out += '}';
      return;
    case Kind::list:
      out += AttributeValueJson ? "{\"L\":[" : "[";
      for (std::size_t i = 0; i < v.list.size(); ++i) {
        if (i) out += ',';
        append_value_json<AttributeValueJson>(out, v.list[i]);
      }
      out += AttributeValueJson ? "]}" : "]";
      return;
    case Kind::map:
      out += AttributeValueJson ? "{\"M\":{" : "{";
      for (std::size_t i = 0; i < v.map.size(); ++i) {
        if (i) out += ',';
        append_json_string(out, v.map[i].first);
        out += ':';
        append_value_json<AttributeValueJson>(out, v.map[i].second);
      }
      out += AttributeValueJson ? "}}" : "}";
      return;
    case Kind::binary:
      // {"B":"<base64>"}, or the plain body's {"":"<base64>"} (BodyWriter::binary).
      out += AttributeValueJson ? "{\"B\":\"" : "{\"\":\"";
      append_base64(out, reinterpret_cast<const unsigned char*>(v.text.data()), v.text.size());
      out += "\"}";
      return;
    case Kind::string_set:
      out += AttributeValueJson ? "{\"SS\":[" : "[";
      for (std::size_t i = 0; i < v.set.size(); ++i) {
        if (i) out += ',';
        append_json_string(out, v.set[i]);
      }
      out += AttributeValueJson ? "]}" : "]";
      return;
    case Kind::number_set:
      // {"NS":["1","2.5"]}, or in a plain body {"":[1,2.5]}: the binary value's empty-named
      // member (which nothing else can have) holding an array of numbers.
      out += AttributeValueJson ? "{\"NS\":[" : "{\"\":[";
      for (std::size_t i = 0; i < v.set.size(); ++i) {
        if (i) out += ',';
        if constexpr (AttributeValueJson) {
          append_json_string(out, v.set[i]);
        } else {
          out += v.set[i];
        }
      }
      out += "]}";
      return;
    case Kind::binary_set:
      // {"BS":["<base64>",...]}, or in a plain body {"":["<base64>",...]}: as binary is
      // {"":"<base64>"}, an array of strings under the empty name.
      out += AttributeValueJson ? "{\"BS\":[" : "{\"\":[";
      for (std::size_t i = 0; i < v.set.size(); ++i) {
        if (i) out += ',';
        out += '"';
        append_base64(out, reinterpret_cast<const unsigned char*>(v.set[i].data()),
                      v.set[i].size());
        out += '"';
      }
      out += "]}";
      return;
  }
}

}  // namespace detail

// Plain JSON, as the SQLite backend stores a body: a string set becomes an array.
// Throws: only std::bad_alloc.
// Exception safety: basic: on an exception, out may hold part of the text.
inline void append_plain_json(std::string& out, const AttributeValue& v) {
  detail::append_value_json<false>(out, v);
}

// The members of a map as a plain JSON object, leaving out those skip(name) is true for: what
// append_plain_json writes for the map without them, with no map built to hold the rest.
// Throws: what skip throws; std::bad_alloc.
// Exception safety: basic: on an exception, out may hold part of the text.
template <class Skip>
void append_plain_json_members(std::string& out, const AttributeValue& map, Skip&& skip) {
  out += '{';
  bool first = true;
  for (const auto& [name, value] : map.map) {
    if (skip(std::string_view(name))) continue;
    if (!first) out += ',';
    first = false;
    detail::append_json_string(out, name);
    out += ':';
    detail::append_value_json<false>(out, value);
  }
  out += '}';
}

// DynamoDB's AttributeValue JSON ({"S":"x"}).
// Throws: only std::bad_alloc.
// Exception safety: basic: on an exception, out may hold part of the text.
inline void append_attribute_value_json(std::string& out, const AttributeValue& v) {
  detail::append_value_json<true>(out, v);
}

// The members of an item (a map) as an AttributeValue map body: {"a":{"S":"x"},...}.
// Throws: only std::bad_alloc.
// Exception safety: basic: on an exception, out may hold part of the text.
inline void append_item_attribute_value_json(std::string& out, const AttributeValue& item) {
  out += '{';
  for (std::size_t i = 0; i < item.map.size(); ++i) {
    if (i) out += ',';
    detail::append_json_string(out, item.map[i].first);
    out += ':';
    append_attribute_value_json(out, item.map[i].second);
  }
  out += '}';
}

// ------------------------------------------------------------------------ from entities

namespace detail {

// A codec writer (the vocabulary of pksk/detail/json_writer.hpp) that builds an AttributeValue
// tree: how a member's C++ value becomes an expression operand, with exactly the encoding a put
// uses.
class AttributeValueBuilder {
 public:
  static constexpr bool omits_empty_sets = true;

  AttributeValue result;

  void begin_item() { open(AttributeValue::empty_map()); }
  void end_item() { close(); }
  void field(std::string_view name, std::string_view = {}) { pending_name_ = name; }
  void map_key(std::string_view key) { pending_name_ = key; }
  void element() {}
  void set_element(std::string_view s) { current().set.emplace_back(s); }

  void string(std::string_view s) { put(AttributeValue::from_string(std::string(s))); }
  void binary(const unsigned char* bytes, std::size_t size) {
    put(AttributeValue::from_binary(std::string(reinterpret_cast<const char*>(bytes), size)));
  }
  void boolean(bool b) { put(AttributeValue::from_bool(b)); }
  void null() { put(AttributeValue{}); }
  template <class Number>
  void number(Number n) {
    std::string text;
    append_number(text, n);
    put(AttributeValue::from_number(std::move(text)));
  }
  void begin_record() { open(AttributeValue::empty_map()); }
  void end_record() { close(); }
  void begin_map() { open(AttributeValue::empty_map()); }
  void end_map() { close(); }
  void begin_list() { open(AttributeValue::empty_list()); }
  void end_list() { close(); }
  void begin_string_set() {
    AttributeValue s;
    s.kind = AttributeValue::Kind::string_set;
    open(std::move(s));
  }
  void end_string_set() {
    // std::set iterates in byte order already: sorted and unique.
    close();
  }
  // A std::set of numbers iterates in value order, one of bytes in unsigned byte order: both
  // are the order AttributeValue keeps.
  void begin_number_set() {
    AttributeValue s;
    s.kind = AttributeValue::Kind::number_set;
    open(std::move(s));
  }
  template <class Number>
  void number_set_element(Number n) {
    append_number(current().set.emplace_back(), n);
  }
  void end_number_set() { close(); }
  void begin_binary_set() {
    AttributeValue s;
    s.kind = AttributeValue::Kind::binary_set;
    open(std::move(s));
  }
  void binary_set_element(const unsigned char* bytes, std::size_t size) {
    current().set.emplace_back(reinterpret_cast<const char*>(bytes), size);
  }
  void end_binary_set() { close(); }

 private:
  AttributeValue& current() { return *stack_.back(); }

  AttributeValue& put(AttributeValue v) {
    if (stack_.empty()) return result = std::move(v);
    AttributeValue& parent = current();
    if (parent.kind == AttributeValue::Kind::list) return parent.list.emplace_back(std::move(v));
    return parent.map.emplace_back(AttributeValue::Member{std::string(pending_name_), std::move(v)})
        .second;
  }
  void open(AttributeValue v) { stack_.push_back(&put(std::move(v))); }
  void close() { stack_.pop_back(); }

  std::vector<AttributeValue*> stack_;
  std::string_view pending_name_;
};

}  // namespace detail

// A C++ value as DynamoDB would store it (the same encoding as a put), or the whole record as a
// map. Throws EncodeError for what cannot be stored (NaN, an unnamed enum value).
// Throws: EncodeError for what cannot be stored.
// Exception safety: strong.
template <class T>
AttributeValue to_attribute_value(const T& value) {
  // A number or a string, the usual operand of an update, made directly: the same text as the
  // builder writes (append_number, the string as it is), without its stack of nodes. What
  // cannot be stored (NaN, invalid UTF-8) takes the builder's path, which says why.
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float> || detail::CodecInteger<T>) {
    bool storable = true;
    if constexpr (!detail::CodecInteger<T>) storable = std::isfinite(value);
    if (storable) [[likely]] {
      AttributeValue v;
      v.kind = AttributeValue::Kind::number;
      detail::append_number(v.text, value);
      return v;
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (detail::find_invalid_utf8(value) == std::string_view::npos) [[likely]]
      return AttributeValue::from_string(value);
  }
  detail::AttributeValueBuilder builder;
  try {
    detail::encode_value(builder, value);
  } catch (const detail::PathedFailure& failure) {
    detail::throw_encode_failure(failure);
  }
  return std::move(builder.result);
}

}  // namespace pksk
