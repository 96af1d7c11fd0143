// SPDX-License-Identifier: BSL-1.0
#pragma once
// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104): the table signs cursors with them, and the
// DynamoDB backend signs requests (AWS Signature Version 4). Written out here rather than taken
// from OpenSSL so that the core stays header-only with no library to link. Shared by layers, so
// it lives below them all. Checked against the FIPS and RFC 4231 test vectors
// (tests/test_cursor.cpp) and, through SigV4, against botocore (tests/dynamodb/).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pksk::detail {

using Sha256Digest = std::array<unsigned char, 32>;

class Sha256 {
 public:
  void update(std::string_view data) noexcept {
    for (const char c : data) {
      block_[fill_++] = static_cast<unsigned char>(c);
      if (fill_ == 64) {
        compress();
        fill_ = 0;
      }
    }
    length_ += data.size();
  }

  Sha256Digest finish() noexcept {
    const std::uint64_t bits = length_ * 8;
    block_[fill_++] = 0x80;
    if (fill_ > 56) {
      while (fill_ < 64) block_[fill_++] = 0;
      compress();
      fill_ = 0;
    }
    while (fill_ < 56) block_[fill_++] = 0;
    for (int i = 7; i >= 0; --i) block_[fill_++] = static_cast<unsigned char>(bits >> (i * 8));
    compress();
    Sha256Digest out{};
    for (std::size_t i = 0; i < 8; ++i) {
      for (std::size_t b = 0; b < 4; ++b)
        out[i * 4 + b] = static_cast<unsigned char>(state_[i] >> (24 - 8 * b));
    }
    return out;
  }

 private:
  static constexpr std::uint32_t rotr(std::uint32_t x, int n) noexcept {
    return (x >> n) | (x << (32 - n));
  }

  void compress() noexcept {
    static constexpr std::uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    std::uint32_t w[64];
    for (std::size_t i = 0; i < 16; ++i) {
      w[i] = std::uint32_t{block_[i * 4]} << 24 | std::uint32_t{block_[i * 4 + 1]} << 16 |
             std::uint32_t{block_[i * 4 + 2]} << 8 | std::uint32_t{block_[i * 4 + 3]};
    }
    for (std::size_t i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    std::uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
    for (std::size_t i = 0; i < 64; ++i) {
      const std::uint32_t t1 =
          h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      const std::uint32_t t2 =
          (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
    state_[5] += f;
    state_[6] += g;
    state_[7] += h;
  }

  std::uint32_t state_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  unsigned char block_[64] = {};
  std::size_t fill_ = 0;
  std::uint64_t length_ = 0;
};

inline Sha256Digest sha256(std::string_view data) noexcept {
  Sha256 h;
  h.update(data);
  return h.finish();
}

// A digest in lowercase hex, as SigV4 signs it and a blob reference records it.
inline void append_hex(std::string& out, const Sha256Digest& digest) {
  constexpr char digits[] = "0123456789abcdef";
  for (const unsigned char b : digest) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
}

inline std::string sha256_hex(std::string_view data) {
  std::string out;
  out.reserve(64);
  append_hex(out, sha256(data));
  return out;
}

inline Sha256Digest hmac_sha256(std::string_view key, std::string_view message) noexcept {
  unsigned char block[64] = {};
  if (key.size() > 64) {
    const Sha256Digest hashed = sha256(key);
    for (std::size_t i = 0; i < hashed.size(); ++i) block[i] = hashed[i];
  } else {
    for (std::size_t i = 0; i < key.size(); ++i) block[i] = static_cast<unsigned char>(key[i]);
  }
  const auto padded = [&](unsigned char pad) {
    char out[64];
    for (std::size_t i = 0; i < 64; ++i) out[i] = static_cast<char>(block[i] ^ pad);
    Sha256 h;
    h.update(std::string_view(out, 64));
    return h;
  };
  Sha256 inner = padded(0x36);
  inner.update(message);
  const Sha256Digest inner_digest = inner.finish();
  Sha256 outer = padded(0x5c);
  outer.update(std::string_view(reinterpret_cast<const char*>(inner_digest.data()), 32));
  return outer.finish();
}

// Equal or not, in time that does not depend on where they differ.
inline bool equal_in_constant_time(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace pksk::detail
