// SPDX-License-Identifier: BSL-1.0
#pragma once
// The two output formats of the codec, as writers with one vocabulary: the traversal in
// codec/codec.hpp says "a string", "a list", "a record" and each writer spells it. BodyWriter emits
// the plain JSON body the SQLite backend stores; AttributeValueWriter emits DynamoDB's
// AttributeValue JSON ({"S": ...}, {"N": "..."}, ...). Both append straight into one
// std::string: no DOM, no intermediate strings.

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "base64.hpp"

namespace pksk::detail {

// Which bytes need escaping in a JSON string (RFC 8259 §7): the quote, the backslash and the
// control characters. Everything else, UTF-8 included, is copied as is.
inline constexpr std::array<bool, 256> kJsonEscape = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = true;
  table['"'] = true;
  table['\\'] = true;
  return table;
}();

// Whether any of the eight bytes of `word` needs escaping: a control character, '"' or '\\'
// (exact: the borrow tricks below can only misreport a byte above one that truly matches).
constexpr bool json_escape_in(std::uint64_t word) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  const auto zero_in = [&](std::uint64_t v) { return (v - ones) & ~v & highs; };
  const std::uint64_t below_space = (word - 0x20 * ones) & ~word & highs;
  return (below_space | zero_in(word ^ ('"' * ones)) | zero_in(word ^ ('\\' * ones))) != 0;
}

// A JSON string's text after its opening quote, which the caller has written (with the member
// name before it, in one piece: JsonPunctuation::string_field), and its closing quote.
inline void append_json_string_rest(std::string& out, std::string_view text) {
  const char* run = text.data();
  const char* const end = text.data() + text.size();
  const char* p = run;
  for (;;) {
    // Eight bytes a step while none needs escaping, then byte by byte up to the next step.
    while (end - p >= 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      if (json_escape_in(word)) break;
      p += 8;
    }
    const char* const stop = end - p >= 8 ? p + 8 : end;
    while (p != stop && !kJsonEscape[static_cast<unsigned char>(*p)]) ++p;
    if (p == end) break;
    if (p == stop) continue;
    const auto byte = static_cast<unsigned char>(*p);
    out.append(run, static_cast<std::size_t>(p - run));  // not append(first, last): a replace()
    run = ++p;
    switch (byte) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        constexpr char hex[] = "0123456789abcdef";
        const char escaped[6] = {'\\', 'u', '0', '0', hex[byte >> 4], hex[byte & 0xF]};
        out.append(escaped, 6);
      }
    }
  }
  out.append(run, static_cast<std::size_t>(end - run));
  out += '"';
}

inline void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  append_json_string_rest(out, text);
}

// Appends a number with std::to_chars: exact for integers, shortest round-trip for floating
// point. The caller has already rejected NaN and infinities.
template <class Number>
void append_number(std::string& out, Number value) {
  char buf[64];
  std::to_chars_result result;
  if constexpr (std::is_floating_point_v<Number>) {
    // A whole number below 10^5 in magnitude (a count, add(&x, 1.0)) is the shortest text's
    // fixed form, which to_chars prefers to the scientific one at equal length ("10000", not
    // "1e+04"); written as an integer it skips the shortest-digits search. -0.0 keeps its sign.
    if (value > -1e5 && value < 1e5) {
      const auto whole = static_cast<long>(value);
      if (static_cast<Number>(whole) == value && whole != 0) {
        result = std::to_chars(buf, buf + sizeof buf, whole);
        out.append(buf, result.ptr);
        return;
      }
    }
  }
  result = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, result.ptr);
}

// What both formats share: the item is a JSON object of fields, maps are objects, lists
// and sets are arrays; only the wrapping of values differs.
class JsonPunctuation {
 public:
  // The output is the item's whole text: its UTF-8 is checked once, at the end (encode.hpp).
  static constexpr bool defers_utf8 = true;

  explicit JsonPunctuation(std::string& out) noexcept : out_(out) {}

  void begin_item() { out_ += '{'; }
  void end_item() { out_ += '}'; }

  // A record field: json is `,"name":` (FieldJson), the comma left out after the opening brace.
  void field(std::string_view, std::string_view json) {
    if (out_.back() == '{') json.remove_prefix(1);
    out_.append(json.data(), json.size());
  }
  void map_key(std::string_view key) {
    separate('{');
    append_json_string(out_, key);
    out_ += ':';
  }
  void element() { separate('['); }
  // A binary set's members are base64 strings in both formats.
  void binary_set_element(const unsigned char* bytes, std::size_t size) {
    separate('[');
    out_ += '"';
    append_base64(out_, bytes, size);
    out_ += '"';
  }
  // Set members are bare strings in both formats (DynamoDB's "SS" holds no {"S": ...}).
  void set_element(std::string_view s) {
    separate('[');
    append_json_string(out_, s);
  }

 protected:
  // A comma unless this is the first entry, which the opening bracket just before tells us.
  void separate(char open) {
    if (out_.back() != open) out_ += ',';
  }
  std::string& out_;
};

class BodyWriter : public JsonPunctuation {
 public:
  static constexpr bool omits_empty_sets = false;
  using JsonPunctuation::JsonPunctuation;

  // A string member: `json_open` is `,"name":"` (FieldJson), the member's fixed text up to the
  // string's opening quote, appended in one piece.
  void string_field(std::string_view name, std::string_view json_open, std::string_view s) {
    field(name, json_open);
    append_json_string_rest(out_, s);
  }

  void string(std::string_view s) { append_json_string(out_, s); }
  // Plain JSON has no binary type: a binary value is an object whose one member has the empty
  // name (which no map key or member can have) and holds the bytes in base64: {"":"AP8Q"}.
  void binary(const unsigned char* bytes, std::size_t size) {
    out_ += "{\"\":\"";
    append_base64(out_, bytes, size);
    out_ += "\"}";
  }
  void boolean(bool b) { out_ += b ? "true" : "false"; }
  void null() { out_ += "null"; }
  template <class Number>
  void number(Number n) {
    append_number(out_, n);
  }

  void begin_record() { out_ += '{'; }
  void end_record() { out_ += '}'; }
  void begin_map() { out_ += '{'; }
  void end_map() { out_ += '}'; }
  void begin_list() { out_ += '['; }
  void end_list() { out_ += ']'; }
  void begin_string_set() { out_ += '['; }
  void end_string_set() { out_ += ']'; }
  // Number and binary sets under the empty name, as binary is: {"":[1,2.5]}, {"":["AP8="]}.
  void begin_number_set() { out_ += "{\"\":["; }
  void end_number_set() { out_ += "]}"; }
  template <class Number>
  void number_set_element(Number n) {
    separate('[');
    append_number(out_, n);
  }
  void begin_binary_set() { out_ += "{\"\":["; }
  void end_binary_set() { out_ += "]}"; }
};

class AttributeValueWriter : public JsonPunctuation {
 public:
  // DynamoDB rejects empty sets, so an empty std::set is stored as an absent attribute.
  static constexpr bool omits_empty_sets = true;
  using JsonPunctuation::JsonPunctuation;

  void string(std::string_view s) {
    out_ += "{\"S\":";
    append_json_string(out_, s);
    out_ += '}';
  }
  void binary(const unsigned char* bytes, std::size_t size) {
    out_ += "{\"B\":\"";
    append_base64(out_, bytes, size);
    out_ += "\"}";
  }
  void boolean(bool b) { out_ += b ? "{\"BOOL\":true}" : "{\"BOOL\":false}"; }
  void null() { out_ += "{\"NULL\":true}"; }
  template <class Number>
  void number(Number n) {
    out_ += "{\"N\":\"";
    append_number(out_, n);
    out_ += "\"}";
  }

  void begin_record() { out_ += "{\"M\":{"; }
  void end_record() { out_ += "}}"; }
  void begin_map() { out_ += "{\"M\":{"; }
  void end_map() { out_ += "}}"; }
  void begin_list() { out_ += "{\"L\":["; }
  void end_list() { out_ += "]}"; }
  void begin_string_set() { out_ += "{\"SS\":["; }
  void end_string_set() { out_ += "]}"; }
  void begin_number_set() { out_ += "{\"NS\":["; }
  void end_number_set() { out_ += "]}"; }
  template <class Number>
  void number_set_element(Number n) {
    separate('[');
    out_ += '"';
    append_number(out_, n);
    out_ += '"';
  }
  void begin_binary_set() { out_ += "{\"BS\":["; }
  void end_binary_set() { out_ += "]}"; }
};

}  // namespace pksk::detail
