// SPDX-License-Identifier: BSL-1.0
// Seed 000's answers to collections that grow without bound, written into the keys:
//
// - Time-based partitioning ("pk=user_id#year_month"): a user's posts go to one partition per
//   month, so no partition grows past a month of posts; query_buckets reads a time range back
//   as one query, merging the months in order.
// - A shard suffix for a hot key: a best-selling product's sales spread over 4 partitions by a
//   stable hash of the order id; query_shards reads them back as one, newest first.
//
//   PK                    | SK                                   | Type
//   USER#ada#2026-01      | POST#2026-01-01T09:00:00.000000000Z  | Post
//   PRODUCT#p1#3          | 2026-11-26-0007                      | Sale

#include <chrono>
#include <cstdio>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Post {
  std::string user;
  std::chrono::system_clock::time_point at;
  std::string text;
};
struct Sale {
  std::string sku;
  std::string order;
  int qty{};
};

template <>
struct pksk::Entity<Post> {
  static constexpr std::string_view type = "Post";
  static constexpr std::string_view pk = "USER#{user}#{at:month}";
  static constexpr std::string_view sk = "POST#{at}";
};
template <>
struct pksk::Entity<Sale> {
  static constexpr std::string_view type = "Sale";
  static constexpr std::string_view pk = "PRODUCT#{sku}#{order:shard(4)}";
  static constexpr std::string_view sk = "{order}";
};

int main(int argc, char** argv) {
  using namespace std::chrono;
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "growing.db"};
  pksk::Table table{backend, "social"};

  // A post a day at 09:00 from January to April.
  const sys_days jan1{year{2026} / 1 / 1};
  for (int day = 0; day < 120; ++day) {
    table.put(Post{.user = "ada",
                   .at = jan1 + days{day} + hours{9},
                   .text = "day " + std::to_string(day + 1)});
  }
  for (const char* month : {"2026-01", "2026-02", "2026-03", "2026-04"}) {
    const std::size_t n =
        table.query<Post>(pksk::PartitionKey{std::string("USER#ada#") + month}).size();
    std::printf("USER#ada#%s: %zu posts\n", month, n);
  }
  // February 10 to March 20, one query over two partitions.
  const auto from = sys_days{year{2026} / 2 / 10};
  const auto to = sys_days{year{2026} / 3 / 20} + hours{23};
  const auto range = table.query_buckets<Post>(Post{.user = "ada"}, from, to);
  std::printf("Feb 10 to Mar 20: %zu posts, from '%s' to '%s'\n", range.size(),
              range.front().text.c_str(), range.back().text.c_str());
  const auto newest = table.query_buckets<Post>(Post{.user = "ada"}, jan1, jan1 + days{365},
                                                {.forward = false, .limit = 3});
  std::printf("newest 3:");
  for (const Post& p : newest) std::printf(" '%s'", p.text.c_str());
  std::printf("\n");

  // The hot product: 40 sales spread over 4 shards.
  for (int i = 1; i <= 40; ++i) {
    char order[32];
    std::snprintf(order, sizeof order, "2026-11-26-%04d", i);
    table.put(Sale{.sku = "p1", .order = order, .qty = i % 3 + 1});
  }
  std::printf("sales of p1 per shard:");
  for (int shard = 0; shard < 4; ++shard) {
    const std::string pk = "PRODUCT#p1#" + std::to_string(shard);
    std::printf(" %zu", table.query<Sale>(pksk::PartitionKey{pk}).size());
  }
  std::printf("\n");
  const auto latest = table.query_shards<Sale>(Sale{.sku = "p1"}, {.forward = false, .limit = 5});
  std::printf("latest 5 orders:");
  for (const Sale& s : latest) std::printf(" %s", s.order.c_str());
  std::printf("\n");
  int units = 0;
  for (const Sale& s : table.query_shards<Sale>(Sale{.sku = "p1"})) units += s.qty;
  std::printf("units sold: %d\n", units);
}
