// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the time-to-live cases (cases_ttl.hpp): readings that expire, one whose
// expiry is renamed, and an entity without one in the same table.

#include <array>
#include <chrono>
#include <optional>
#include <pksk/pksk.hpp>
#include <string>
#include <string_view>

namespace conformance {

struct Probe {
  std::string device;
  std::string at;
  int value{};
  std::optional<std::chrono::system_clock::time_point> expires;  // the ttl member
  friend bool operator==(const Probe&, const Probe&) = default;
};

// A ttl member that is no optional, stored under another name.
struct Login {
  std::string id;
  std::chrono::system_clock::time_point until;  // "expires"
  friend bool operator==(const Login&, const Login&) = default;
};

// In the probes' partitions, to read a probe raw (as an item of no type its collection knows).
struct ProbeIndex {
  std::string device;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Probe> {
  static constexpr std::string_view type = "Probe";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "{at}";
  static constexpr std::string_view ttl = "expires";
};

template <>
struct pksk::Entity<conformance::Login> {
  static constexpr std::string_view type = "Login";
  static constexpr std::string_view pk = "SESSION#{id}";
  static constexpr std::string_view sk = "S";
  static constexpr std::string_view ttl = "until";
  static constexpr std::array renames = {pksk::Rename{"until", "expires"}};
};

template <>
struct pksk::Entity<conformance::ProbeIndex> {
  static constexpr std::string_view type = "ProbeIndex";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "I";
};
