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
// Keys in one case, as ElectroDB writes them.
enum class Plan { Free, Team };
struct Seat {
  std::string org;
  Plan plan{};
  std::string code;
  int n{};
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

template <>
struct pksk::Entity<key_specs::Seat> {
  static constexpr std::string_view type = "Seat";
  static constexpr std::string_view pk = "$app#org_{org:lower}";
  static constexpr std::string_view sk = "$seat#plan_{plan:upper}#{code:lower}x{n}";
};

using key_specs::Hourly;
using key_specs::Plan;
using key_specs::Reading;
using key_specs::Sale;
using key_specs::Seat;
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

TEST_CASE("lower and upper put a string's or an enum's key text in one case") {
  const Seat seat{"Acme-Corp", Plan::Team, "AB-9", 3};
  CHECK(pksk::partition(seat).value == "$app#org_acme-corp");
  CHECK(pksk::sort_key(seat) == "$seat#plan_TEAM#ab-9x2147483651");
  // Values that differ only in case have one key.
  CHECK(pksk::partition(Seat{"ACME-CORP", Plan::Free, "x", 0}).value == "$app#org_acme-corp");
  // Checked after the change: "AXB" has no 'x' but its lower case does, which would end the
  // field early, so it is refused.
  CHECK_THROWS_WITH(pksk::sort_key(Seat{"a", Plan::Free, "AXB", 1}),
                    Catch::Contains("Seat.code = \"axb\"") &&
                        Catch::Contains("the character that follows the field"));
  // Only ASCII letters change; other UTF-8 text is kept.
  CHECK(pksk::partition(Seat{"\xc3\x89"
                             "COLE",
                             Plan::Free, "c", 0})
            .value ==
        "$app#org_\xc3\x89"
        "cole");
  // Typed conditions format their values the same way.
  using SeatKey = pksk::sort_key_of<Seat>;
  CHECK(SeatKey::begins_with<&Seat::plan, &Seat::code>(Plan::Free, "Ab").first ==
        "$seat#plan_FREE#ab");
  CHECK(SeatKey::eq<&Seat::plan>(Plan::Team).first == "$seat#plan_TEAM#");
}
