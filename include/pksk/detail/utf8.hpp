// SPDX-License-Identifier: BSL-1.0
#pragma once
// UTF-8 validation of key values and the escaping that makes any key printable in a message.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace pksk::detail {

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
// Returns the offset of the first byte of the first invalid sequence, or npos.
constexpr std::size_t find_invalid_utf8(std::string_view s) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return i < s.size() && byte(i) >= lo && byte(i) <= hi;
  };
  if (!std::is_constant_evaluated()) {
    // Most keys and strings are ASCII throughout: one pass, eight bytes a step, tells.
    std::uint64_t high = 0;
    std::size_t at = 0;
    for (; at + 8 <= s.size(); at += 8) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + at, 8);
      high |= word;
    }
    for (; at < s.size(); ++at) high |= static_cast<unsigned char>(s[at]);
    if ((high & 0x8080808080808080u) == 0) return std::string_view::npos;
  }
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned b = byte(i);
    std::size_t n = 0;
    if (b < 0x80) {
      n = 1;
    } else if (b >= 0xC2 && b <= 0xDF) {
      n = cont(i + 1) ? 2 : 0;
    } else if (b == 0xE0) {
      n = cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;  // A0: no overlong
    } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
      n = cont(i + 1) && cont(i + 2) ? 3 : 0;
    } else if (b == 0xED) {
      n = cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;  // 9F: no surrogates
    } else if (b == 0xF0) {
      n = cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;  // 90: no overlong
    } else if (b >= 0xF1 && b <= 0xF3) {
      n = cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    } else if (b == 0xF4) {
      n = cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;  // 8F: <= U+10FFFF
    }
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

// Printable ASCII as is, other bytes as \xNN (valid multibyte text as is), quotes escaped.
inline void append_escaped(std::string& out, std::string_view value) {
  const bool utf8 = find_invalid_utf8(value) == std::string_view::npos;
  constexpr char hex[] = "0123456789ABCDEF";
  for (const char c : value) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if ((b >= 0x20 && b < 0x7F) || (b >= 0x80 && utf8)) {
      out += c;
    } else {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 0xF];
    }
  }
}

}  // namespace pksk::detail
