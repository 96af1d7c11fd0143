// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the cases at the edges (cases_edges.hpp): a ticketing domain whose attendee
// profile and tickets share partitions only in an index ("tix"), and whose refunds are a sparse
// index through an optional member ("refunds").

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
