// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading the plain JSON body: each value is the member's value itself. The reader speaks the
// same vocabulary as AttributeValueReader (json_reader_attribute_value.hpp), so that the one
// decode traversal in codec.hpp serves both formats. Every call returns simdjson's error code
// rather than throwing: the traversal turns a failure into a DecodeError with the path.

#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace pksk::detail {

namespace ondemand = simdjson::ondemand;

// The trimmed text of a scalar, for messages.
inline std::string_view trim_token(std::string_view token) noexcept {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                            token.back() == '\t')) {
    token.remove_suffix(1);
  }
  return token;
}

inline std::string describe_json_value(ondemand::value& value) {
  ondemand::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return "invalid JSON";
  switch (type) {
    case ondemand::json_type::array:
      return "an array";
    case ondemand::json_type::object:
      return "an object";
    case ondemand::json_type::number:
      return "the number " + std::string(trim_token(value.raw_json_token()));
    case ondemand::json_type::string:
      return "a string";
    // type() looks at the first byte only: "tru" passes for a boolean until read.
    case ondemand::json_type::boolean:
    case ondemand::json_type::null: {
      const std::string_view token = trim_token(value.raw_json_token());
      if (token == "true" || token == "false") return "a boolean";
      if (token == "null") return "null";
      return "the invalid JSON token " + std::string(token);
    }
  }
  return "an unknown value";
}

// What the decoder will read from a value, told to Reader::open before the value is read: the
// AttributeValue reader checks its tag against this one first. `any`: nothing expected.
enum class ValueKind : std::uint8_t {
  any,
  string,
  number,
  boolean,
  object,
  list,
  string_set,
  binary,
  number_set,
  binary_set
};

// The reads are always inlined: each is one simdjson call, and a call per value is what kept
// the decoder behind hand-written code. Except get_double: simdjson inlines its whole number
// parser into each call, which made every floating-point member of every entity cost g++ 12
// about 170 ms at -O2; out of line it is compiled once per program, and the parse it does
// outweighs the call. It takes the value by value, as a hand-written decoder's does: g++ then
// passes its three words in registers (about 5 instructions a number fewer than by reference).
struct BodyReader {
  using Value = ondemand::value;

  template <ValueKind>
  [[gnu::always_inline]] static simdjson::error_code open(ondemand::value raw,
                                                          Value& out) noexcept {
    out = raw;
    return simdjson::SUCCESS;
  }
  // True (and consumed) for JSON null; a non-null value is left for the next read.
  [[gnu::always_inline]] static bool is_null(Value& v) noexcept {
    bool null = false;
    return v.is_null().get(null) == simdjson::SUCCESS && null;
  }
  [[gnu::always_inline]] static simdjson::error_code get_string(Value& v,
                                                                std::string_view& out) noexcept {
    return v.get_string().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_int64(Value& v,
                                                               std::int64_t& out) noexcept {
    return v.get_int64().get(out);
  }
  // Reads the value of the one member, named "", of a marked object ({"":...}: binary and
  // typed sets, which JSON has no type for).
  template <class Read>
  static simdjson::error_code read_marked(Value& v, Read read) noexcept {
    ondemand::object object;
    if (auto error = v.get_object().get(object)) return error;
    for (auto member : object) {
      ondemand::field field;
      if (auto error = std::move(member).get(field)) return error;
      if (!field.key().unsafe_is_equal("")) return simdjson::INCORRECT_TYPE;
      return read(field.value());
    }
    return simdjson::INCORRECT_TYPE;
  }
  // A binary value's base64 text: the one member, named "", of {"":"<base64>"}.
  static simdjson::error_code get_binary(Value& v, std::string_view& out) noexcept {
    return read_marked(v, [&](ondemand::value& marked) { return marked.get_string().get(out); });
  }
  [[gnu::always_inline]] static simdjson::error_code get_uint64(Value& v,
                                                                std::uint64_t& out) noexcept {
    return v.get_uint64().get(out);
  }
  // A number or binary set's elements: the array under the one member, named "", of
  // {"":[1,2.5]} or {"":["<base64>"]}.
  static simdjson::error_code get_typed_set(Value& v, ondemand::array& out) noexcept {
    return read_marked(v, [&](ondemand::value& marked) { return marked.get_array().get(out); });
  }
  static simdjson::error_code get_number_set(Value& v, ondemand::array& out) noexcept {
    return get_typed_set(v, out);
  }
  static simdjson::error_code get_binary_set(Value& v, ondemand::array& out) noexcept {
    return get_typed_set(v, out);
  }
  // One element of a number set: a JSON number.
  static simdjson::error_code number_set_element(ondemand::value v, std::int64_t& out) noexcept {
    return v.get_int64().get(out);
  }
  static simdjson::error_code number_set_element(ondemand::value v, double& out) noexcept {
    return v.get_double().get(out);
  }
  [[gnu::noinline]] static simdjson::error_code get_double(Value v, double& out) noexcept {
    return v.get_double().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_bool(Value& v, bool& out) noexcept {
    return v.get_bool().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_record(Value& v,
                                                                ondemand::object& out) noexcept {
    return v.get_object().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_map(Value& v,
                                                             ondemand::object& out) noexcept {
    return v.get_object().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_list(Value& v,
                                                              ondemand::array& out) noexcept {
    return v.get_array().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_string_set(Value& v,
                                                                    ondemand::array& out) noexcept {
    return v.get_array().get(out);
  }
  // How deep the value sits in the document (1 for the item itself).
  [[gnu::always_inline]] static std::int32_t depth(const Value& v) noexcept {
    return v.current_depth();
  }
  // What the value is, after a read failed with INCORRECT_TYPE or NUMBER_OUT_OF_RANGE (the
  // failed read left the value unconsumed, so it can still be inspected).
  static std::string describe(Value& v) { return describe_json_value(v); }
  // The number's text, when the value is a number, for telling "too large" from "not an
  // integer" after simdjson refused it.
  static std::string_view number_text(Value& v) noexcept {
    ondemand::json_type type;
    if (v.type().get(type) != simdjson::SUCCESS || type != ondemand::json_type::number) return {};
    return trim_token(v.raw_json_token());
  }
};

}  // namespace pksk::detail
