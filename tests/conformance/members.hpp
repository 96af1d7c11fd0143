// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the member-type cases (cases_members.hpp): Everything holds one member of
// every type docs/member-types.md lists and is in a secondary index; Gauge holds the
// values at the edges of what DynamoDB stores.

#include <boost/hana/define_struct.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <pksk/pksk.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace conformance {

enum class Mood { calm, busy };
struct Part {
  std::string name;
  int n{};
  friend bool operator==(const Part&, const Part&) = default;
};
// Not an aggregate: adapted for Boost.Hana.
class HanaPart {
 public:
  HanaPart() = default;
  HanaPart(std::string label, int weight) : label(std::move(label)), weight(weight) {}
  BOOST_HANA_DEFINE_STRUCT(HanaPart, (std::string, label), (int, weight));
  friend bool operator==(const HanaPart& a, const HanaPart& b) {
    return a.label == b.label && a.weight == b.weight;
  }
};

struct Everything {
  std::string id;     // the table key
  std::string group;  // gsi1's partition key
  int rank{};         // gsi1's sort key
  bool flag{};
  std::int8_t i8{};
  std::uint8_t u8{};
  short i16{};
  unsigned short u16{};
  int i32{};
  unsigned u32{};
  long long i64{};
  unsigned long long u64{};
  float f{};
  double d{};
  Mood mood{};
  std::optional<std::string> maybe;
  std::optional<int> maybe_n;
  std::vector<int> ints;
  std::vector<std::string> strings;
  std::vector<bool> bools;
  std::vector<Part> parts;
  std::map<std::string, int> counts;
  std::map<std::string, std::optional<int>> sparse;
  std::set<std::string> tags;
  std::chrono::system_clock::time_point at;
  Part part;
  HanaPart hana;
  std::vector<std::byte> bytes;
  friend bool operator==(const Everything&, const Everything&) = default;
};

struct Gauge {
  std::string id;
  std::map<std::string, std::optional<int>> readings;
  std::map<std::string, int> plain;
  Part part;
  double value{};
  std::vector<std::byte> blob;
  friend bool operator==(const Gauge&, const Gauge&) = default;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Everything> {
  static constexpr std::string_view type = "Everything";
  static constexpr std::string_view pk = "EVERY#{id}";
  static constexpr std::string_view sk = "E";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "GROUP#{group}", "RANK#{rank}"}};
};
template <>
struct pksk::Entity<conformance::Gauge> {
  static constexpr std::string_view type = "Gauge";
  static constexpr std::string_view pk = "GAUGE#{id}";
  static constexpr std::string_view sk = "G";
};

namespace conformance {

// One value of every member, none of them a default, each type at an edge it has.
inline Everything full_everything(std::string id, std::string group = "g", int rank = 7) {
  using namespace std::chrono;
  Everything e;
  e.id = std::move(id);
  e.group = std::move(group);
  e.rank = rank;
  e.flag = true;
  e.i8 = -128;
  e.u8 = 255;
  e.i16 = -32768;
  e.u16 = 65535;
  e.i32 = -2147483647;
  e.u32 = 4294967295u;
  e.i64 = -9223372036854775807LL;
  e.u64 = 18446744073709551615ULL;
  e.f = 1.5f;
  e.d = 59.98;
  e.mood = Mood::busy;
  e.maybe = "here";
  e.maybe_n = 0;
  e.ints = {1, -2, 3};
  e.strings = {"a", "", "\xC3\xA9"};
  e.bools = {true, false};
  e.parts = {{"p", 1}, {"q", 2}};
  e.counts = {{"x", 1}, {"y", -1}};
  e.sparse = {{"on", 1}, {"off", std::nullopt}};
  e.tags = {"t1", "t2"};
  e.at = sys_days{year{2024} / 1 / 2} + hours{3} + microseconds{123456};
  e.part = {"inner", 9};
  e.hana = HanaPart("h", 3);
  e.bytes = {std::byte{0x00}, std::byte{0xFF}, std::byte{0x10}, std::byte{'"'}};
  return e;
}

}  // namespace conformance

// Small integers that add can take past their type's range.
namespace conformance {
struct SmallCounts {
  std::string id;
  std::int16_t hits{};
  std::int16_t low{};
  std::uint8_t small{};
  std::string note;
  friend bool operator==(const SmallCounts&, const SmallCounts&) = default;
};
}  // namespace conformance

template <>
struct pksk::Entity<conformance::SmallCounts> {
  static constexpr std::string_view type = "SmallCounts";
  static constexpr std::string_view pk = "TALLY#{id}";
  static constexpr std::string_view sk = "T";
};
