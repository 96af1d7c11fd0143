// SPDX-License-Identifier: BSL-1.0
// A fan-out over shards of a member the sort key does not hold: two shards could then hold one
// sort key, and the merge could not order their items.
//
// expect: fan_out_member_must_be_a_field_of_the_sort_key<Sale,
// expect: {"{at}"}
// expect: {"order"}>
#include <chrono>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Sale {
  std::string sku;
  std::string order;
  std::chrono::system_clock::time_point at;
};

template <>
struct pksk::Entity<Sale> {
  static constexpr std::string_view type = "Sale";
  static constexpr std::string_view pk = "PRODUCT#{sku}#{order:shard(4)}";
  static constexpr std::string_view sk = "{at}";
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "sales");
  return static_cast<int>(table.query_shards<Sale>(Sale{.sku = "p1"}).size());
}
