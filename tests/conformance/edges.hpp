// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the cases at the edges (cases_edges.hpp): a ticketing domain whose attendee
// profile and tickets share partitions only in an index ("tix"), and whose refunds are a sparse
// index through an optional member ("refunds").

#include <chrono>
#include <optional>
#include <pksk/pksk.hpp>
#include <string>

namespace conformance {

struct Attendee {
  std::string attendee;
  std::string name;
  friend bool operator==(const Attendee&, const Attendee&) = default;
};
struct Pass {
  std::string event;
  std::string pass;
  std::string attendee;
  double price{};
  std::optional<std::string> refund;  // when a refund was asked: in "refunds" only then
  friend bool operator==(const Pass&, const Pass&) = default;
};

// A talk at an event, in "tix" under its speaker with a sort key of Pass's shape: an event's
// passes and sessions share the table's partitions, not the index's.
struct Session {
  std::string event;
  std::string session;
  std::string speaker;
  friend bool operator==(const Session&, const Session&) = default;
};

// Time-bucketed readings (a month per partition) and write-sharded sales (8 shards), read by
// fan-out; Tally holds the same sales unsharded, for comparison.
struct Meter {
  std::string device;
  std::chrono::system_clock::time_point at;
  int value{};
  friend bool operator==(const Meter&, const Meter&) = default;
};
struct Sale {
  std::string sku;
  std::string order;
  int qty{};
  friend bool operator==(const Sale&, const Sale&) = default;
};
struct Tally {
  std::string sku;
  std::string order;
  int qty{};
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Attendee> {
  static constexpr std::string_view type = "Attendee";
  static constexpr std::string_view pk = "ATTENDEE#{attendee}";
  static constexpr std::string_view sk = "PROFILE";
  static constexpr std::array indexes = {pksk::Index{"tix", "ATTENDEE#{attendee}", "PROFILE"}};
};
template <>
struct pksk::Entity<conformance::Pass> {
  static constexpr std::string_view type = "Pass";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "PASS#{pass}";
  static constexpr std::array indexes = {
      pksk::Index{"tix", "ATTENDEE#{attendee}", "PASS#{pass}"},
      pksk::Index{"refunds", "REFUNDS#{event}", "{refund}#{attendee}#{pass}"}};
};
template <>
struct pksk::Entity<conformance::Session> {
  static constexpr std::string_view type = "Session";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "SESSION#{session}";
  static constexpr std::array indexes = {
      pksk::Index{"tix", "ATTENDEE#{speaker}", "PASS#{session}"}};
};
template <>
struct pksk::Entity<conformance::Meter> {
  static constexpr std::string_view type = "Meter";
  static constexpr std::string_view pk = "DEVICE#{device}#{at:month}";
  static constexpr std::string_view sk = "{at}";
};
template <>
struct pksk::Entity<conformance::Sale> {
  static constexpr std::string_view type = "Sale";
  static constexpr std::string_view pk = "PRODUCT#{sku}#{order:shard(8)}";
  static constexpr std::string_view sk = "{order}";
};
template <>
struct pksk::Entity<conformance::Tally> {
  static constexpr std::string_view type = "Tally";
  static constexpr std::string_view pk = "TALLY#{sku}";
  static constexpr std::string_view sk = "{order}";
};
