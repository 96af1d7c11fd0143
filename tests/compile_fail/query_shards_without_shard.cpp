// SPDX-License-Identifier: BSL-1.0
// query_shards of an entity whose partition key holds no {member:shard(N)}.
//
// expect: query_shards_needs_one_shard_in_the_partition_key<Vote,
// expect: {"POLL#{poll}"}>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Vote {
  std::string poll;
  std::string voter;
};

template <>
struct pksk::Entity<Vote> {
  static constexpr std::string_view type = "Vote";
  static constexpr std::string_view pk = "POLL#{poll}";
  static constexpr std::string_view sk = "VOTE#{voter}";
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "polls");
  return static_cast<int>(table.query_shards<Vote>(Vote{.poll = "p1"}).size());
}
