// SPDX-License-Identifier: BSL-1.0
#pragma once
// Key-template text such as "CUSTOMER#{customer_id}" parsed at compile time into literal and
// field segments (pure text, no entity involved), and which format spec a field's member type
// takes (the member types a field may name: key/field_types.hpp).

#include <algorithm>
#include <array>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "../../detail/fixed_string.hpp"
#include "../field_types.hpp"

namespace pksk::detail {

// Every key template uses this delimiter between components; no key value may contain it.
inline constexpr char key_delimiter = '#';

enum class KeyRole : unsigned char { partition, sort };

enum class TemplateError : unsigned char {
  none,
  unclosed_brace,       // "{id" or "{a{b}"
  unopened_brace,       // "id}"
  empty_field,          // "{}"
  adjacent_fields,      // "{a}{b}": nothing tells where a ends, so keys would be ambiguous
  unknown_format_spec,  // "{at:week}", "{id:shard(0)}": a spec after ':' that is not one below
};

// What a field's format spec ("{at:month}", "{order:shard(8)}") makes of its member's value:
// a time member's UTC year, month, day or hour ("2024", "2024-02", "2024-02-29",
// "2024-02-29T23"), as time-bucketed partition keys are written; or a stable shard number,
// 0 to N - 1, of the member's key text (key_shard below); or the member's text in lower or upper
// case (ASCII letters only), as tables written by ElectroDB, which lowercases key values, have it;
// or an integer member as a DynamoDB number: the whole sort key of a table whose sort key is a
// number (TableOptions::sk_type, DynamoDB's RANGE N), "{seq:number}".
enum class KeySpec : unsigned char { none, year, month, day, hour, shard, lower, upper, number };

constexpr bool is_time_bucket(KeySpec spec) noexcept {
  return spec == KeySpec::year || spec == KeySpec::month || spec == KeySpec::day ||
         spec == KeySpec::hour;
}

struct ParsedSpec {
  KeySpec spec = KeySpec::none;
  unsigned shards = 0;  // shard(N): N, 1 to 65536
  bool valid = true;
};

// The spec text after ':' in a field ("month", "shard(8)").
constexpr ParsedSpec parse_key_spec(std::string_view spec) noexcept {
  if (spec == "year") return {KeySpec::year, 0, true};
  if (spec == "month") return {KeySpec::month, 0, true};
  if (spec == "day") return {KeySpec::day, 0, true};
  if (spec == "hour") return {KeySpec::hour, 0, true};
  if (spec == "lower") return {KeySpec::lower, 0, true};
  if (spec == "upper") return {KeySpec::upper, 0, true};
  if (spec == "number") return {KeySpec::number, 0, true};
  constexpr std::string_view shard = "shard(";
  if (spec.size() > shard.size() + 1 && spec.substr(0, shard.size()) == shard &&
      spec.back() == ')') {
    unsigned n = 0;
    const std::string_view digits = spec.substr(shard.size(), spec.size() - shard.size() - 1);
    if (digits.size() > 5 || digits.front() == '0') return {KeySpec::none, 0, false};
    for (const char c : digits) {
      if (c < '0' || c > '9') return {KeySpec::none, 0, false};
      n = n * 10 + static_cast<unsigned>(c - '0');
    }
    if (n >= 1 && n <= 65536) return {KeySpec::shard, n, true};
  }
  return {KeySpec::none, 0, false};
}

struct TemplateScan {
  TemplateError error = TemplateError::none;
  std::size_t bad_pos = 0;  // the offending text, for diagnostics
  std::size_t bad_len = 0;
  std::size_t segments = 0;
  std::size_t fields = 0;
};

enum class SegmentKind : unsigned char { literal, field };

// pos/len locate the literal text, or the field name without its braces and spec, in the
// template; spec_pos/spec_len the field's format spec after ':' (spec_len 0: none).
struct Segment {
  SegmentKind kind = SegmentKind::literal;
  std::size_t pos = 0;
  std::size_t len = 0;
  std::size_t spec_pos = 0;
  std::size_t spec_len = 0;
};

// Plain index loops, not std::string_view::find: g++ 12 with -fsanitize=undefined instruments
// find's null-pointer test and then refuses it in a constant expression, which would break
// every user build under UBSan.
constexpr std::size_t find_char(std::string_view text, char c, std::size_t from = 0) noexcept {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (text[i] == c) return i;
  }
  return std::string_view::npos;
}

constexpr bool is_brace(char c) noexcept {
  return c == '{' || c == '}';
}

constexpr std::size_t find_brace(std::string_view text, std::size_t from) noexcept {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (is_brace(text[i])) return i;
  }
  return std::string_view::npos;
}

// The last brace at or before `at`.
constexpr std::size_t find_last_brace(std::string_view text, std::size_t at) noexcept {
  for (std::size_t i = std::min(at + 1, text.size()); i > 0; --i) {
    if (is_brace(text[i - 1])) return i - 1;
  }
  return std::string_view::npos;
}

consteval TemplateScan scan_key_template(std::string_view text) {
  TemplateScan scan;
  std::size_t i = 0;
  std::size_t previous_field = std::string_view::npos;  // start of the field just before i
  while (i < text.size()) {
    if (text[i] == '{') {
      const std::size_t close = find_char(text, '}', i + 1);
      const std::size_t nested = find_char(text, '{', i + 1);
      if (close == std::string_view::npos || nested < close) {
        const std::size_t end = nested < close ? nested : text.size();
        return {TemplateError::unclosed_brace, i, end - i, 0, 0};
      }
      if (close == i + 1) return {TemplateError::empty_field, i, 2, 0, 0};
      const std::size_t colon = find_char(text.substr(0, close), ':', i + 1);
      if (colon != std::string_view::npos) {
        if (colon == i + 1) return {TemplateError::empty_field, i, close + 1 - i, 0, 0};
        if (!parse_key_spec(text.substr(colon + 1, close - colon - 1)).valid) {
          return {TemplateError::unknown_format_spec, colon + 1, close - colon - 1, 0, 0};
        }
      }
      if (previous_field != std::string_view::npos) {
        return {TemplateError::adjacent_fields, previous_field, close + 1 - previous_field, 0, 0};
      }
      previous_field = i;
      ++scan.segments;
      ++scan.fields;
      i = close + 1;
    } else if (text[i] == '}') {
      // The literal run that the stray brace ends says where it is.
      const std::size_t start = find_last_brace(text, i == 0 ? 0 : i - 1);
      const std::size_t from = (i == 0 || start == std::string_view::npos) ? 0 : start + 1;
      return {TemplateError::unopened_brace, from, i + 1 - from, 0, 0};
    } else {
      const std::size_t end = std::min(find_brace(text, i), text.size());
      previous_field = std::string_view::npos;
      ++scan.segments;
      i = end;
    }
  }
  return scan;
}

template <fixed_string Template>
inline constexpr TemplateScan scan_v = scan_key_template(Template.view());

// Only meaningful for a well-formed template.
template <fixed_string Template>
consteval auto parse_key_template() {
  constexpr std::string_view text = Template.view();
  std::array<Segment, scan_v<Template>.segments> segments{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size() && n < segments.size(); ++n) {
    if (text[i] == '{') {
      const std::size_t close = find_char(text, '}', i);
      const std::size_t colon = find_char(text.substr(0, close), ':', i + 1);
      if (colon == std::string_view::npos) {
        segments[n] = {SegmentKind::field, i + 1, close - i - 1, 0, 0};
      } else {
        segments[n] = {SegmentKind::field, i + 1, colon - i - 1, colon + 1, close - colon - 1};
      }
      i = close + 1;
    } else {
      const std::size_t end = std::min(find_char(text, '{', i), text.size());
      segments[n] = {SegmentKind::literal, i, end - i, 0, 0};
      i = end;
    }
  }
  return segments;
}

// ---------------------------------------------------------------------------------------------
// Key field types (the types themselves: ../field_types.hpp)

// Whether a field of member type F (a key field, or an optional one in a sparse index) takes
// the format spec: a time bucket of a time, a shard of anything but a time, a case of a string
// or an enum, a number of an integer.
template <class F>
constexpr bool spec_applies(ParsedSpec spec) noexcept {
  if (spec.spec == KeySpec::none) return true;
  if (spec.spec == KeySpec::shard) return !KeyTime<F>;
  if (spec.spec == KeySpec::lower || spec.spec == KeySpec::upper) return KeyString<F> || KeyEnum<F>;
  if (spec.spec == KeySpec::number) return KeyInteger<F>;
  return KeyTime<F>;
}

}  // namespace pksk::detail
