// SPDX-License-Identifier: BSL-1.0
#pragma once
// raw_json_key_equals' definition: inline through detail/json_key.hpp in header-only mode,
// compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../json_key.hpp"

namespace pksk::detail {

PKSK_DECL bool raw_json_key_equals(const char* raw, std::string_view name) noexcept {
  // The value of four hex digits at p, or -1. A closing quote is not a hex digit, so this never
  // reads past the string.
  const auto json_hex4 = [](const char* p) noexcept {
    long value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = p[i];
      int digit = 0;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        return -1L;
      }
      value = value * 16 + digit;
    }
    return value;
  };
  std::size_t at = 0;
  const auto take = [&](char c) {
    if (at == name.size() || name[at] != c) return false;
    ++at;
    return true;
  };
  const char* p = raw;
  for (;;) {
    const char c = *p++;
    if (c == '"') return at == name.size();
    if (c != '\\') {
      if (!take(c)) return false;
      continue;
    }
    const char escape = *p++;
    char simple = 0;
    switch (escape) {
      case '"':
      case '\\':
      case '/':
        simple = escape;
        break;
      case 'b':
        simple = '\b';
        break;
      case 'f':
        simple = '\f';
        break;
      case 'n':
        simple = '\n';
        break;
      case 'r':
        simple = '\r';
        break;
      case 't':
        simple = '\t';
        break;
      case 'u':
        break;
      default:
        return false;
    }
    if (escape != 'u') {
      if (!take(simple)) return false;
      continue;
    }
    long code = json_hex4(p);
    if (code < 0) return false;
    p += 4;
    if (code >= 0xD800 && code < 0xDC00) {  // a high surrogate: its low half must follow
      if (p[0] != '\\' || p[1] != 'u') return false;
      const long low = json_hex4(p + 2);
      if (low < 0xDC00 || low >= 0xE000) return false;
      p += 6;
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    } else if (code >= 0xDC00 && code < 0xE000) {
      return false;
    }
    const auto byte = [](long b) { return static_cast<char>(static_cast<unsigned char>(b)); };
    bool same = true;
    if (code < 0x80) {
      same = take(byte(code));
    } else if (code < 0x800) {
      same = take(byte(0xC0 | (code >> 6))) && take(byte(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      same = take(byte(0xE0 | (code >> 12))) && take(byte(0x80 | ((code >> 6) & 0x3F))) &&
             take(byte(0x80 | (code & 0x3F)));
    } else {
      same = take(byte(0xF0 | (code >> 18))) && take(byte(0x80 | ((code >> 12) & 0x3F))) &&
             take(byte(0x80 | ((code >> 6) & 0x3F))) && take(byte(0x80 | (code & 0x3F)));
    }
    if (!same) return false;
  }
}

}  // namespace pksk::detail
