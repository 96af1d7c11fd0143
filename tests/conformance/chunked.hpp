// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the chunked-item cases (cases_chunked.hpp): seed 002's reply whose message
// may be past 400 KB even compressed, stored as chunk items under their own partition keys or
// beside their parent, and the thread it belongs to.

#include <array>
#include <cstddef>
#include <pksk/pksk.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace conformance {

struct BigThread {
  std::string id;
  std::string subject;
  friend bool operator==(const BigThread&, const BigThread&) = default;
};

struct BigReply {
  std::string thread;
  std::string at;
  std::string author;
  std::vector<std::byte> message;  // compressed, then chunked when still past 400 KB
  friend bool operator==(const BigReply&, const BigReply&) = default;
};

// The same, with its chunks under its thread's partition key.
struct NearReply {
  std::string thread;
  std::string at;
  std::vector<std::byte> message;
  friend bool operator==(const NearReply&, const NearReply&) = default;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::BigThread> {
  static constexpr std::string_view type = "BigThread";
  static constexpr std::string_view pk = "BIG#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<conformance::BigReply> {
  static constexpr std::string_view type = "BigReply";
  static constexpr std::string_view pk = "BIG#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"message"};
  static constexpr bool chunked = true;
};
template <>
struct pksk::Entity<conformance::NearReply> {
  static constexpr std::string_view type = "NearReply";
  static constexpr std::string_view pk = "NEAR#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr bool chunked = true;
  static constexpr bool chunks_beside_parent = true;
};
