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
  // The length of the valid sequence that starts at i with a byte above ASCII, or 0.
  const auto sequence = [&](std::size_t i) -> std::size_t {
    const unsigned b = byte(i);
    if (b >= 0xC2 && b <= 0xDF) return cont(i + 1) ? 2 : 0;
    if (b == 0xE0) return cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;  // A0: no overlong
    if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF)
      return cont(i + 1) && cont(i + 2) ? 3 : 0;
    if (b == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;  // 9F: no surrogates
    if (b == 0xF0)
      return cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;  // 90: no overlong
    if (b >= 0xF1 && b <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (b == 0xF4)
      return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;  // 8F: <= U+10FFFF
    return 0;
  };
  const std::size_t n = s.size();
  std::size_t i = 0;
  if (!std::is_constant_evaluated()) {
    // Most text is ASCII, all or nearly (a whole item's text, as encode.hpp checks it, with a
    // few multibyte characters): ASCII is skipped 32 and then eight bytes a step, and only the
    // sequences above it are looked at.
    while (i < n) {
      for (; i + 32 <= n; i += 32) {
        std::uint64_t words[4];
        std::memcpy(words, s.data() + i, 32);
        if (((words[0] | words[1]) | (words[2] | words[3])) & 0x8080808080808080u) break;
      }
      for (; i + 8 <= n; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, s.data() + i, 8);
        if (word & 0x8080808080808080u) break;
      }
      while (i < n && byte(i) < 0x80) ++i;
      if (i == n) break;
      const std::size_t length = sequence(i);
      if (length == 0) return i;
      i += length;
    }
    return std::string_view::npos;
  }
  while (i < n) {
    const std::size_t length = byte(i) < 0x80 ? 1 : sequence(i);
    if (length == 0) return i;
    i += length;
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
