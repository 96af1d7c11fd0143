// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of ulid.hpp: inline through it in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <string_view>

#include "../../error.hpp"
#include "../ulid.hpp"

namespace pksk {

namespace detail {

inline constexpr std::string_view crockford_base32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// The state of the process's generator: the last id's time and its 80 random bits, as a high
// 16-bit part and a low 64-bit part.
struct UlidState {
  std::mutex mutex;
  bool made = false;
  std::uint64_t last_ms = 0;
  std::uint16_t high = 0;
  std::uint64_t low = 0;
  std::mt19937_64 random{[] {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }()};
};

inline UlidState& ulid_state() {
  static UlidState state;
  return state;
}

inline std::string ulid_text(std::uint64_t ms, std::uint16_t high, std::uint64_t low) {
  std::string out(26, '0');
  // 48 bits of time in 10 characters (the first holds 3 bits), 80 random bits in 16.
  for (int i = 9; i >= 0; --i, ms >>= 5)
    out[static_cast<std::size_t>(i)] = crockford_base32[ms & 31];
  for (int i = 25; i >= 10; --i) {
    out[static_cast<std::size_t>(i)] = crockford_base32[low & 31];
    low = (low >> 5) | (static_cast<std::uint64_t>(high & 31) << 59);
    high = static_cast<std::uint16_t>(high >> 5);
  }
  return out;
}

// An id at `ms`: the previous id plus one when it was made in the same millisecond (or, with
// `monotonic`, in a later one: a clock that stepped back); else fresh random bits.
inline std::string next_ulid(std::int64_t since_epoch, bool monotonic) {
  constexpr std::uint64_t max_ms = (std::uint64_t{1} << 48) - 1;
  if (since_epoch < 0 || static_cast<std::uint64_t>(since_epoch) > max_ms) {
    throw ValidationError("pksk::ulid: the time is outside what an id can hold (1970 to 10889)");
  }
  std::uint64_t ms = static_cast<std::uint64_t>(since_epoch);
  UlidState& state = ulid_state();
  const std::lock_guard lock(state.mutex);
  if (state.made && (ms == state.last_ms || (monotonic && ms < state.last_ms))) {
    ms = state.last_ms;
    if (++state.low == 0 && ++state.high == 0) {
      if (ms == max_ms) throw ValidationError("pksk::ulid: no id is left after the last one");
      ++ms;  // 2^80 ids in one millisecond: borrow the next one
    }
    state.last_ms = ms;
    return ulid_text(ms, state.high, state.low);
  }
  std::uint64_t low = state.random();
  // Room to count up within the millisecond: the top bit of the random part starts clear.
  const auto high = static_cast<std::uint16_t>(state.random() & 0x7fff);
  if (!state.made || ms > state.last_ms) {
    state.made = true;
    state.last_ms = ms;
    state.high = high;
    state.low = low;
  }
  return ulid_text(ms, high, low);
}

}  // namespace detail

PKSK_DECL std::string ulid(std::chrono::system_clock::time_point at) {
  return detail::next_ulid(
      std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count(), false);
}

PKSK_DECL std::string ulid() {
  return detail::next_ulid(std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count(),
                           true);
}

PKSK_DECL std::chrono::system_clock::time_point ulid_time(std::string_view id) {
  std::uint64_t ms = 0;
  bool valid = id.size() == 26 && id[0] <= '7';
  for (std::size_t i = 0; valid && i < id.size(); ++i) {
    const std::size_t digit = detail::crockford_base32.find(id[i]);
    valid = digit != std::string_view::npos;
    if (i < 10) ms = (ms << 5) | digit;
  }
  if (!valid) {
    throw ValidationError("pksk::ulid_time: \"" + std::string(id.substr(0, 40)) +
                          "\" is not an id (26 characters of Crockford's base32, in capitals)");
  }
  // 48 bits of milliseconds reach the year 10889; a clock of nanoseconds, 2262.
  constexpr auto clock_max = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::duration::max())
                                 .count();
  if (ms > static_cast<std::uint64_t>(clock_max)) {
    throw ValidationError("pksk::ulid_time: the time of \"" + std::string(id) +
                          "\" is past what std::chrono::system_clock holds");
  }
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(ms));
}

}  // namespace pksk
