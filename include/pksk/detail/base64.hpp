// SPDX-License-Identifier: BSL-1.0
#pragma once
// Base64 with padding (RFC 4648 §4): how DynamoDB's AttributeValue JSON carries a binary value
// ({"B": "AP8Q"}), and how the plain JSON body carries one too.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pksk::detail {

inline constexpr std::string_view base64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Appends the base64 text of the bytes (no characters JSON escapes).
inline void append_base64(std::string& out, const unsigned char* bytes, std::size_t size) {
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t n = std::uint32_t{bytes[i]} << 16 | std::uint32_t{bytes[i + 1]} << 8 |
                            std::uint32_t{bytes[i + 2]};
    out += base64_alphabet[(n >> 18) & 63];
    out += base64_alphabet[(n >> 12) & 63];
    out += base64_alphabet[(n >> 6) & 63];
    out += base64_alphabet[n & 63];
  }
  if (const std::size_t rest = size - i; rest > 0) {
    const std::uint32_t n =
        std::uint32_t{bytes[i]} << 16 | (rest == 2 ? std::uint32_t{bytes[i + 1]} << 8 : 0);
    out += base64_alphabet[(n >> 18) & 63];
    out += base64_alphabet[(n >> 12) & 63];
    out += rest == 2 ? base64_alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
}

// Decodes padded base64 into out (cleared first); false for a character outside the alphabet,
// a length that is not a multiple of 4, or padding anywhere but at the end.
template <class Bytes>  // std::vector<std::byte>, std::string
bool decode_base64(std::string_view text, Bytes& out) {
  using Byte = typename Bytes::value_type;
  static constexpr auto values = [] {
    std::array<std::int8_t, 256> table{};
    table.fill(-1);
    for (std::size_t i = 0; i < base64_alphabet.size(); ++i) {
      table[static_cast<unsigned char>(base64_alphabet[i])] = static_cast<std::int8_t>(i);
    }
    return table;
  }();
  out.clear();
  if (text.size() % 4 != 0) return false;
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') ++padding;
  if (text.size() > 1 && text[text.size() - 2] == '=') ++padding;
  out.reserve(text.size() / 4 * 3 - padding);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (std::size_t i = 0; i < text.size() - padding; ++i) {
    const std::int8_t v = values[static_cast<unsigned char>(text[i])];
    if (v < 0) return false;
    buffer = buffer << 6 | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<Byte>((buffer >> bits) & 0xFF));
    }
  }
  return true;
}

}  // namespace pksk::detail
