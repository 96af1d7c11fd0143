// SPDX-License-Identifier: BSL-1.0
// pksk::ulid(): the ULID format, order within a millisecond and across threads, the time read
// back, and what is refused.

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <pksk/pksk.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

bool is_crockford(const std::string& id) {
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::string_view("0123456789ABCDEFGHJKMNPQRSTVWXYZ").find(c) != std::string_view::npos;
  });
}

}  // namespace

TEST_CASE("an id is 26 characters of Crockford's base32 that start with its time") {
  const auto before =
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  const std::string id = pksk::ulid();
  const auto after = std::chrono::system_clock::now();
  REQUIRE(id.size() == 26);
  CHECK(is_crockford(id));
  CHECK(pksk::ulid_time(id) >= before);
  CHECK(pksk::ulid_time(id) <= after);
  // The specification's own example: 1469918176385 ms is 01ARYZ6S41.
  const std::string at =
      pksk::ulid(std::chrono::system_clock::time_point(std::chrono::milliseconds(1469918176385)));
  CHECK(at.substr(0, 10) == "01ARYZ6S41");
  CHECK(pksk::ulid_time(at).time_since_epoch() == std::chrono::milliseconds(1469918176385));
}

TEST_CASE("ids made one after another sort in the order they were made, even in one millisecond") {
  std::vector<std::string> now;
  for (int i = 0; i < 1000; ++i) now.push_back(pksk::ulid());  // many share a millisecond
  CHECK(std::is_sorted(now.begin(), now.end()));
  CHECK(std::adjacent_find(now.begin(), now.end()) == now.end());

  // One millisecond a little ahead of the clock, many times: each id the last plus one.
  const auto ahead = std::chrono::system_clock::now() + std::chrono::seconds(1);
  std::vector<std::string> same;
  for (int i = 0; i < 1000; ++i) same.push_back(pksk::ulid(ahead));
  CHECK(std::is_sorted(same.begin(), same.end()));
  CHECK(std::adjacent_find(same.begin(), same.end()) == same.end());
  CHECK(same.front().substr(0, 10) == same.back().substr(0, 10));
  // The clock is now behind the last id, as after a step back: ulid() still makes a greater one.
  CHECK(pksk::ulid() > same.back());
  // An id for an earlier time is new, not greater.
  const std::string earlier = pksk::ulid(ahead - std::chrono::hours(1));
  CHECK(earlier < same.front());
  CHECK(std::find(same.begin(), same.end(), earlier) == same.end());
}

TEST_CASE("100,000 ids from 4 threads: all distinct, each thread's in the order made") {
  constexpr int per_thread = 25'000;
  std::vector<std::vector<std::string>> made(4);
  std::vector<std::thread> threads;
  for (auto& mine : made) {
    threads.emplace_back([&mine] {
      mine.reserve(per_thread);
      for (int i = 0; i < per_thread; ++i) mine.push_back(pksk::ulid());
    });
  }
  for (std::thread& t : threads) t.join();
  std::set<std::string> all;
  for (const auto& mine : made) {
    CHECK(std::is_sorted(mine.begin(), mine.end()));
    CHECK(std::adjacent_find(mine.begin(), mine.end()) == mine.end());
    all.insert(mine.begin(), mine.end());
  }
  CHECK(all.size() == 4 * per_thread);
}

TEST_CASE("a time an id cannot hold, and text that is no id, are refused") {
  CHECK_THROWS_AS(pksk::ulid(std::chrono::system_clock::time_point(std::chrono::milliseconds(-1))),
                  pksk::ValidationError);
  CHECK_THROWS_AS(pksk::ulid_time("01ARYZ6S41"), pksk::ValidationError);
  CHECK_THROWS_AS(pksk::ulid_time("01ARYZ6S41TSV4RRFFQ69G5FAU"), pksk::ValidationError);  // U
  CHECK_THROWS_AS(pksk::ulid_time("81ARYZ6S41TSV4RRFFQ69G5FAV"), pksk::ValidationError);  // > 2^48
  // The largest id's time (the year 10889) is past what system_clock holds here.
  const auto clock_max = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::duration::max());
  if (clock_max.count() < (std::int64_t{1} << 48) - 1) {
    CHECK_THROWS_AS(pksk::ulid_time("7ZZZZZZZZZZZZZZZZZZZZZZZZZ"), pksk::ValidationError);
  } else {
    CHECK_NOTHROW(pksk::ulid_time("7ZZZZZZZZZZZZZZZZZZZZZZZZZ"));
  }
}
