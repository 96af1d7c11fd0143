// SPDX-License-Identifier: BSL-1.0
#pragma once
// Time as a number of seconds or milliseconds since the Unix epoch (DynamoDB's N), the form
// DynamoDB's time to live reads and many other tools write, instead of pksk's ISO 8601 text:
//
//   struct Session {
//     std::string id;
//     pksk::EpochSeconds expires;  // {"N":"1735689600"}
//   };
//
// A wrapper rather than a tag on the member, so that the unit is part of the member's type and
// conditions, filters and updates on it compare the stored numbers.

#include <chrono>
#include <compare>
#include <cstdint>

#include "../value.hpp"

namespace pksk {

// A time point stored as whole units of Duration since the epoch: what a time_point of the
// system clock rounds down to in that unit (floor, so that an instant before the epoch is
// never moved forward).
template <class Duration>
struct EpochTime {
  // The time point, in whole units of Duration.
  std::chrono::sys_time<Duration> time{};

  EpochTime() = default;
  // Implicit from any time point of the system clock, which it floors to Duration.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class D>
  EpochTime(std::chrono::sys_time<D> t)  // NOLINT: implicit on purpose
      : time(std::chrono::floor<Duration>(t)) {}

  // The units of Duration since the epoch: what is stored.
  // Throws: nothing.
  // Exception safety: nothrow.
  std::int64_t count() const noexcept {
    return static_cast<std::int64_t>(time.time_since_epoch().count());
  }
  friend bool operator==(const EpochTime&, const EpochTime&) = default;
  friend auto operator<=>(const EpochTime&, const EpochTime&) = default;
};

// Seconds since the epoch: DynamoDB's TTL attribute holds these.
using EpochSeconds = EpochTime<std::chrono::seconds>;
// Milliseconds since the epoch.
using EpochMilliseconds = EpochTime<std::chrono::milliseconds>;

// An EpochTime is stored as its count, a number.
template <class Duration>
struct Value<EpochTime<Duration>> {
  // The number stored.
  // Throws: nothing.
  // Exception safety: nothrow.
  static std::int64_t to(const EpochTime<Duration>& t) noexcept { return t.count(); }
  // The time point a stored number names.
  // Throws: nothing.
  // Exception safety: nothrow.
  static EpochTime<Duration> from(std::int64_t n) noexcept {
    return std::chrono::sys_time<Duration>(Duration(n));
  }
};

}  // namespace pksk
