// SPDX-License-Identifier: BSL-1.0
#pragma once
// The successor of a key literal, for typed range conditions on a sort key's first fields
// (typed_condition.hpp): the first text after every key that begins with the literal.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pksk::detail {

// The smallest text above every text that begins with `literal`: the literal with its last
// character's code point plus one (U+D7FF is followed by U+E000). ok is false when there is
// none in UTF-8: a literal ending in U+10FFFF, or not valid UTF-8 at its end.
template <std::size_t N>
struct SuccessorText {
  std::array<char, N + 4> chars{};
  std::size_t size = 0;
  bool ok = false;

  constexpr std::string_view view() const noexcept { return {chars.data(), size}; }
};

template <std::size_t N>
constexpr SuccessorText<N> successor_text(std::string_view literal) noexcept {
  SuccessorText<N> out;
  if (literal.empty()) return out;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(literal[i]); };
  std::size_t start = literal.size() - 1;
  while (start > 0 && (byte(start) & 0xC0u) == 0x80u) --start;
  const unsigned lead = byte(start);
  const std::size_t length = lead < 0x80u ? 1 : lead >= 0xF0u ? 4 : lead >= 0xE0u ? 3 : 2;
  if (start + length != literal.size() || (lead & 0xC0u) == 0x80u) return out;
  std::uint32_t cp = length == 1 ? lead : lead & (0x7Fu >> length);
  for (std::size_t i = start + 1; i < literal.size(); ++i) cp = (cp << 6) | (byte(i) & 0x3Fu);
  cp = cp == 0xD7FFu ? 0xE000u : cp + 1;
  if (cp > 0x10FFFFu) return out;
  for (std::size_t i = 0; i < start; ++i) out.chars[out.size++] = literal[i];
  const auto put = [&](std::uint32_t b) { out.chars[out.size++] = static_cast<char>(b); };
  if (cp < 0x80u) {
    put(cp);
  } else if (cp < 0x800u) {
    put(0xC0u | (cp >> 6));
    put(0x80u | (cp & 0x3Fu));
  } else if (cp < 0x10000u) {
    put(0xE0u | (cp >> 12));
    put(0x80u | ((cp >> 6) & 0x3Fu));
    put(0x80u | (cp & 0x3Fu));
  } else {
    put(0xF0u | (cp >> 18));
    put(0x80u | ((cp >> 12) & 0x3Fu));
    put(0x80u | ((cp >> 6) & 0x3Fu));
    put(0x80u | (cp & 0x3Fu));
  }
  out.ok = true;
  return out;
}

}  // namespace pksk::detail
