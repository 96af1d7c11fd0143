// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the time-to-live and stats cases (cases_ttl.hpp, cases_stats.hpp): readings
// that expire, one whose expiry is renamed, an entity without one in the same partitions, and
// a table whose clock the test moves (after conformance.hpp: fresh_table_name).

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <pksk/pksk.hpp>
#include <string>
#include <string_view>
#include <utility>

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

namespace conformance {

// A table whose ttl attribute is "expires", and the clock its reads compare with.
template <class Store>
struct TtlTable {
  std::shared_ptr<std::atomic<std::int64_t>> now = std::make_shared<std::atomic<std::int64_t>>(
      std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  decltype(pksk::Table{std::declval<Store&>().backend, std::string()}) table;

  explicit TtlTable(Store& store)
      : table(store.backend, fresh_table_name(),
              {.ttl_attribute = "expires", .ttl_clock = [now = now] {
                 return std::chrono::system_clock::time_point(std::chrono::seconds(now->load()));
               }}) {}

  std::chrono::system_clock::time_point at(std::int64_t seconds_from_start) const {
    return std::chrono::system_clock::time_point(std::chrono::seconds(start + seconds_from_start));
  }
  const std::int64_t start = now->load();
};

}  // namespace conformance
