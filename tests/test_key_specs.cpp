// SPDX-License-Identifier: BSL-1.0
// Key format specs: time members bucketed by year, month, day or hour, and stable shards of a
// member, in partition and sort keys; times as key fields.

#include <catch2/catch.hpp>
#include <chrono>
#include <pksk/pksk.hpp>
#include <string>
#include <vector>

using namespace std::chrono;

namespace key_specs {

struct Reading {
  std::string device;
  system_clock::time_point at;
  double value{};
};
struct Sale {
  std::string sku;
  std::string order;
  int qty{};
};
// A shard in the sort key, of an integer member: zero-padded to the digits of N - 1.
struct Slot {
  std::string pool;
  long long ticket{};
};
struct Hourly {
  std::string site;
  system_clock::time_point at;
};

}  // namespace key_specs

template <>
struct pksk::Entity<key_specs::Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}#{at:month}";
  static constexpr std::string_view sk = "{at}";
};
template <>
struct pksk::Entity<key_specs::Sale> {
  static constexpr std::string_view type = "Sale";
  static constexpr std::string_view pk = "PRODUCT#{sku}#{order:shard(8)}";
  static constexpr std::string_view sk = "{order}";
};
template <>
struct pksk::Entity<key_specs::Slot> {
  static constexpr std::string_view type = "Slot";
  static constexpr std::string_view pk = "POOL#{pool}";
  static constexpr std::string_view sk = "S#{ticket:shard(100)}#{ticket}";
};
template <>
struct pksk::Entity<key_specs::Hourly> {
  static constexpr std::string_view type = "Hourly";
  static constexpr std::string_view pk = "SITE#{site}#{at:year}";
  static constexpr std::string_view sk = "{at:day}#{at:hour}";
};

using key_specs::Hourly;
using key_specs::Reading;
using key_specs::Sale;
using key_specs::Slot;

namespace {
const system_clock::time_point leap_evening =
    sys_days{year{2024} / 2 / 29} + hours{23} + minutes{59} + seconds{58} + milliseconds{123};
}

TEST_CASE("a time member bucketed by month in the partition key, whole in the sort key") {
  const Reading r{"d1", leap_evening, 1.5};
  CHECK(pksk::partition(r).value == "DEVICE#d1#2024-02");
  CHECK(pksk::sort_key(r) == "2024-02-29T23:59:58.123000000Z");
  const Hourly h{"s1", leap_evening};
  CHECK(pksk::partition(h).value == "SITE#s1#2024");
  CHECK(pksk::sort_key(h) == "2024-02-29#2024-02-29T23");
  // The next instant is the next month's bucket.
  CHECK(pksk::partition(Reading{"d1", sys_days{year{2024} / 3 / 1}}).value == "DEVICE#d1#2024-03");
}

TEST_CASE("shards are FNV-1a of the member's key text modulo N, the same on every platform") {
  // Pinned: stored keys depend on these numbers, so they may never change.
  std::vector<std::string> keys;
  for (const char* order : {"o0", "o1", "o2", "o3", "o4", "2024-0001", ""}) {
    if (*order == '\0') continue;
    keys.push_back(pksk::partition(Sale{"p1", order, 1}).value);
  }
  CHECK(keys == std::vector<std::string>{"PRODUCT#p1#2", "PRODUCT#p1#5", "PRODUCT#p1#4",
                                         "PRODUCT#p1#7", "PRODUCT#p1#6",
                                         pksk::partition(Sale{"p1", "2024-0001", 1}).value});
  CHECK(pksk::detail::key_shard("", 8) == 14695981039346656037ull % 8);
  // Every shard is reached, and no other.
  std::vector<int> seen(8);
  for (int i = 0; i < 1000; ++i) {
    const std::string pk = pksk::partition(Sale{"p1", "order-" + std::to_string(i), 1}).value;
    const int shard = std::stoi(pk.substr(pk.rfind('#') + 1));
    REQUIRE(shard >= 0);
    REQUIRE(shard < 8);
    ++seen[static_cast<std::size_t>(shard)];
  }
  for (int n : seen) CHECK(n > 60);
  // The member's own rules still hold: an empty or delimiter-holding value is refused.
  CHECK_THROWS_AS(pksk::partition(Sale{"p1", "", 1}), pksk::KeyError);
  CHECK_THROWS_AS(pksk::partition(Sale{"p1", "a#b", 1}), pksk::KeyError);
}

TEST_CASE("a shard in a sort key is zero-padded to the digits of N - 1") {
  const std::string sk = pksk::sort_key(Slot{"p", 7});
  REQUIRE(sk.size() > 5);
  CHECK(sk.substr(0, 2) == "S#");
  CHECK(sk[4] == '#');  // two digits for shard(100)
  CHECK(sk.substr(5) == pksk::sort_key(Slot{"p", 7}).substr(5));
}

TEST_CASE("typed conditions format times by the template's spec") {
  using ReadingKey = pksk::sort_key_of<Reading>;
  const pksk::KeyCondition after = ReadingKey::gt<&Reading::at>(leap_evening);
  CHECK(after.first == "2024-02-29T23:59:58.123000000Z");
  using HourlyKey = pksk::sort_key_of<Hourly>;
  const pksk::KeyCondition day = HourlyKey::eq<&Hourly::at>(leap_evening);
  CHECK(day.first == "2024-02-29#");
}
