// SPDX-License-Identifier: BSL-1.0
// query_buckets of an entity whose partition key holds no time bucket.
//
// expect: query_buckets_needs_one_time_bucket_in_the_partition_key<Reading,
// expect: {"DEVICE#{device}"}>
#include <chrono>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reading {
  std::string device;
  std::chrono::system_clock::time_point at;
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "{at}";
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "readings");
  const auto now = std::chrono::system_clock::now();
  return static_cast<int>(table.query_buckets<Reading>(Reading{.device = "d1"}, now, now).size());
}
