// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading DynamoDB's AttributeValue JSON: every value is wrapped, {"S":"x"}, {"N":"1.5"},
// {"BOOL":true}, {"NULL":true}, {"M":{...}}, {"L":[...]}, {"SS":[...]}. open() unwraps the
// tag once; the reads then check it, so the decode traversal in codec.hpp is the same as for
// the plain body (json_reader.hpp).

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <simdjson.h>

#include "json_reader.hpp"

namespace pksk::detail {

enum class AttributeTag : std::uint8_t { none, S, N, B, BOOL, NULL_, M, L, SS, NS, BS };

inline std::string_view attribute_tag_name(AttributeTag tag) noexcept {
  switch (tag) {
    case AttributeTag::S:
      return "S";
    case AttributeTag::N:
      return "N";
    case AttributeTag::B:
      return "B";
    case AttributeTag::BOOL:
      return "BOOL";
    case AttributeTag::NULL_:
      return "NULL";
    case AttributeTag::M:
      return "M";
    case AttributeTag::L:
      return "L";
    case AttributeTag::SS:
      return "SS";
    case AttributeTag::NS:
      return "NS";
    case AttributeTag::BS:
      return "BS";
    case AttributeTag::none:
      break;
  }
  return "?";
}

inline AttributeTag classify_attribute_tag(ondemand::raw_json_string key) noexcept {
  if (key.unsafe_is_equal("S")) return AttributeTag::S;
  if (key.unsafe_is_equal("N")) return AttributeTag::N;
  if (key.unsafe_is_equal("M")) return AttributeTag::M;
  if (key.unsafe_is_equal("L")) return AttributeTag::L;
  if (key.unsafe_is_equal("BOOL")) return AttributeTag::BOOL;
  if (key.unsafe_is_equal("NULL")) return AttributeTag::NULL_;
  if (key.unsafe_is_equal("SS")) return AttributeTag::SS;
  if (key.unsafe_is_equal("NS")) return AttributeTag::NS;
  if (key.unsafe_is_equal("B")) return AttributeTag::B;
  if (key.unsafe_is_equal("BS")) return AttributeTag::BS;
  return AttributeTag::none;
}

struct AttributeValueReader {
  struct Value {
    AttributeTag tag = AttributeTag::none;
    ondemand::value value;
    std::string_view number_text;  // an "N" that failed to parse, for the message
  };

  // Unwraps the value's tag. The tag the decoder expects is looked for first, in the raw text
  // after the opening brace: when it is the first key, On-Demand's find_field takes the value
  // straight away, with no iteration over the object. Anything else (another tag, whitespace
  // before the key, not an object) goes through open_any, which classifies the first key; the
  // read then fails with a message naming what was found.
  template <ValueKind Kind>
  [[gnu::always_inline]] static simdjson::error_code open(ondemand::value raw,
                                                          Value& out) noexcept {
    constexpr std::string_view expected = expected_tag(Kind);
    if constexpr (!expected.empty()) {
      // The token's first byte, and after a '{' the next one, are always readable; a '"'
      // there opens a key, readable up to its closing quote.
      const char* text = raw.raw_json_token().data();
      if (text[0] == '{' && text[1] == '"' && is_tag(text + 2, expected)) [[likely]] {
        out.tag = tag_of(Kind);
        return raw.find_field(expected).get(out.value);
      }
    }
    return open_any(raw, out);
  }
  [[gnu::noinline]] static simdjson::error_code open_any(ondemand::value raw, Value& out) noexcept {
    ondemand::object object;
    if (auto error = raw.get_object().get(object)) return error;
    // Only the first member matters: an AttributeValue has exactly one. Leaving the object
    // unfinished is fine with On-Demand; the parent's next step skips the rest.
    for (auto member : object) {
      ondemand::field field;
      if (auto error = std::move(member).get(field)) return error;
      out.tag = classify_attribute_tag(field.key());
      out.value = field.value();
      return out.tag == AttributeTag::none ? simdjson::INCORRECT_TYPE : simdjson::SUCCESS;
    }
    out.tag = AttributeTag::none;
    return simdjson::INCORRECT_TYPE;
  }
  [[gnu::always_inline]] static bool is_null(Value& v) noexcept {
    return v.tag == AttributeTag::NULL_;
  }
  [[gnu::always_inline]] static simdjson::error_code get_string(Value& v,
                                                                std::string_view& out) noexcept {
    if (v.tag != AttributeTag::S) return simdjson::INCORRECT_TYPE;
    return v.value.get_string().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_int64(Value& v,
                                                               std::int64_t& out) noexcept {
    return parse_number(v, out);
  }
  // A binary value's base64 text.
  static simdjson::error_code get_binary(Value& v, std::string_view& out) noexcept {
    if (v.tag != AttributeTag::B) return simdjson::INCORRECT_TYPE;
    return v.value.get_string().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_uint64(Value& v,
                                                                std::uint64_t& out) noexcept {
    return parse_number(v, out);
  }
  [[gnu::noinline]] static simdjson::error_code get_double(Value& v, double& out) noexcept {
    return parse_number(v, out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_bool(Value& v, bool& out) noexcept {
    if (v.tag != AttributeTag::BOOL) return simdjson::INCORRECT_TYPE;
    return v.value.get_bool().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_record(Value& v,
                                                                ondemand::object& out) noexcept {
    if (v.tag != AttributeTag::M) return simdjson::INCORRECT_TYPE;
    return v.value.get_object().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_map(Value& v,
                                                             ondemand::object& out) noexcept {
    return get_record(v, out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_list(Value& v,
                                                              ondemand::array& out) noexcept {
    if (v.tag != AttributeTag::L) return simdjson::INCORRECT_TYPE;
    return v.value.get_array().get(out);
  }
  [[gnu::always_inline]] static simdjson::error_code get_string_set(Value& v,
                                                                    ondemand::array& out) noexcept {
    if (v.tag != AttributeTag::SS) return simdjson::INCORRECT_TYPE;
    return v.value.get_array().get(out);
  }
  static simdjson::error_code get_number_set(Value& v, ondemand::array& out) noexcept {
    if (v.tag != AttributeTag::NS) return simdjson::INCORRECT_TYPE;
    return v.value.get_array().get(out);
  }
  static simdjson::error_code get_binary_set(Value& v, ondemand::array& out) noexcept {
    if (v.tag != AttributeTag::BS) return simdjson::INCORRECT_TYPE;
    return v.value.get_array().get(out);
  }
  // One element of a number set: a number's decimal text, as "N" holds it.
  template <class Number>
  static simdjson::error_code number_set_element(ondemand::value v, Number& out) noexcept {
    std::string_view text;
    if (auto error = v.get_string().get(text)) return error;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec == std::errc{} && end == text.data() + text.size() && !text.empty())
      return simdjson::SUCCESS;
    return ec == std::errc::result_out_of_range ? simdjson::NUMBER_OUT_OF_RANGE
                                                : simdjson::INCORRECT_TYPE;
  }
  [[gnu::always_inline]] static std::int32_t depth(const Value& v) noexcept {
    return v.value.current_depth();
  }
  static std::string_view number_text(Value& v) noexcept { return v.number_text; }

  static constexpr std::string_view expected_tag(ValueKind kind) noexcept {
    switch (kind) {
      case ValueKind::string:
        return "S";
      case ValueKind::number:
        return "N";
      case ValueKind::boolean:
        return "BOOL";
      case ValueKind::object:
        return "M";
      case ValueKind::list:
        return "L";
      case ValueKind::string_set:
        return "SS";
      case ValueKind::binary:
        return "B";
      case ValueKind::number_set:
        return "NS";
      case ValueKind::binary_set:
        return "BS";
      case ValueKind::any:
        break;
    }
    return {};
  }
  static constexpr AttributeTag tag_of(ValueKind kind) noexcept {
    switch (kind) {
      case ValueKind::string:
        return AttributeTag::S;
      case ValueKind::number:
        return AttributeTag::N;
      case ValueKind::boolean:
        return AttributeTag::BOOL;
      case ValueKind::object:
        return AttributeTag::M;
      case ValueKind::list:
        return AttributeTag::L;
      case ValueKind::string_set:
        return AttributeTag::SS;
      case ValueKind::binary:
        return AttributeTag::B;
      case ValueKind::number_set:
        return AttributeTag::NS;
      case ValueKind::binary_set:
        return AttributeTag::BS;
      case ValueKind::any:
        break;
    }
    return AttributeTag::none;
  }
  // The key's raw text (after its opening quote) is `tag` followed by the closing quote. The
  // bytes up to that quote are readable; the comparison stops at the first difference.
  [[gnu::always_inline]] static bool is_tag(const char* raw, std::string_view tag) noexcept {
    for (std::size_t i = 0; i < tag.size(); ++i) {
      if (raw[i] != tag[i]) return false;
    }
    return raw[tag.size()] == '"';
  }
  static std::string describe(Value& v) {
    if (v.tag == AttributeTag::none) return "something other than an AttributeValue";
    if (!v.number_text.empty()) return "the number \"" + std::string(v.number_text) + "\"";
    return "an attribute of type " + std::string(attribute_tag_name(v.tag));
  }

 private:
  // DynamoDB sends numbers as decimal strings; std::from_chars reads them exactly (integers)
  // or correctly rounded (floating point) without allocating.
  template <class Number>
  static simdjson::error_code parse_number(Value& v, Number& out) noexcept {
    if (v.tag != AttributeTag::N) return simdjson::INCORRECT_TYPE;
    std::string_view text;
    if (auto error = v.value.get_string().get(text)) return error;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec == std::errc{} && end == text.data() + text.size() && !text.empty()) {
      return simdjson::SUCCESS;
    }
    v.number_text = text;
    return ec == std::errc::result_out_of_range ? simdjson::NUMBER_OUT_OF_RANGE
                                                : simdjson::INCORRECT_TYPE;
  }
};

}  // namespace pksk::detail
