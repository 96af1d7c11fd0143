// SPDX-License-Identifier: BSL-1.0
#pragma once
// Base64url without padding (RFC 4648 §5): cursors travel in URLs and headers as-is.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pksk::detail {

inline constexpr std::string_view base64url_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

inline std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::size_t i = 0;
  const auto byte = [&](std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at]));
  };
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out += base64url_alphabet[(n >> shift) & 63];
  }
  if (const std::size_t rest = bytes.size() - i; rest > 0) {
    const std::uint32_t n = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
    out += base64url_alphabet[(n >> 18) & 63];
    out += base64url_alphabet[(n >> 12) & 63];
    if (rest == 2) out += base64url_alphabet[(n >> 6) & 63];
  }
  return out;
}

// nullopt for a character outside the alphabet, an impossible length, or non-zero padding
// bits (so that every byte string has exactly one encoding).
inline std::optional<std::string> base64url_decode(std::string_view text) {
  static constexpr auto values = [] {
    std::array<std::int8_t, 256> table{};
    table.fill(-1);
    for (std::size_t i = 0; i < base64url_alphabet.size(); ++i) {
      table[static_cast<unsigned char>(base64url_alphabet[i])] = static_cast<std::int8_t>(i);
    }
    return table;
  }();
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const std::int8_t v = values[static_cast<unsigned char>(c)];
    if (v < 0) return std::nullopt;
    buffer = buffer << 6 | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  if ((buffer & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace pksk::detail
