// SPDX-License-Identifier: BSL-1.0
// table.stats() on a table of 100,000 items on SQLite: every figure equals what SQL counts
// directly in the file (counts and the stored DynamoDB sizes), in one segment and in several.

#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "support/shop.hpp"

namespace {

struct Direct {
  std::map<std::string, std::pair<std::size_t, std::size_t>> collections;  // items, bytes
  std::map<std::string, std::size_t> types;
};

Direct count_directly(sqlite3* db, const std::string& sql) {
  Direct out;
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  while (sqlite3_step(s) == SQLITE_ROW) {
    const std::string pk = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    const std::string type = reinterpret_cast<const char*>(sqlite3_column_text(s, 1));
    auto& c = out.collections[pk];
    c.first += static_cast<std::size_t>(sqlite3_column_int64(s, 2));
    c.second += static_cast<std::size_t>(sqlite3_column_int64(s, 3));
    out.types[type] += static_cast<std::size_t>(sqlite3_column_int64(s, 2));
  }
  sqlite3_finalize(s);
  return out;
}

}  // namespace

TEST_CASE("stats of 100,000 items equal a direct count in the file, in one or four segments") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  // 1,000 customers with 0 to 198 orders each (a few collections past 10,000 items would need
  // a million; the warning is the conformance suite's): one batch, one transaction per 25.
  std::vector<shop::Order> orders;
  std::vector<shop::Customer> customers;
  std::size_t made = 0;
  for (int c = 0; made < 100'000; ++c) {
    customers.push_back({.id = std::to_string(c), .name = "n", .email = "e"});
    ++made;
    for (int o = 0; o < (c * 7) % 199 && made < 100'000; ++o, ++made) {
      orders.push_back({.customer_id = std::to_string(c),
                        .order_id = std::to_string(o),
                        .status = o % 3 ? "shipped" : "pending",
                        .total = o * 1.5,
                        .items = {{"sku", o, 2.5}}});
    }
  }
  table.put_all(customers);
  table.put_all(orders);

  const Direct direct = count_directly(
      backend.native_handle(), "SELECT pk, type, count(*), sum(size) FROM shop GROUP BY pk, type");
  std::size_t bytes = 0;
  for (const auto& [pk, c] : direct.collections) bytes += c.second;
  REQUIRE(direct.collections.size() > 5);

  for (const std::size_t segments : {std::size_t{1}, std::size_t{4}}) {
    const pksk::TableStats stats = table.stats({.largest = 5, .segments = segments});
    CHECK(stats.items == 100'000);
    CHECK(stats.bytes == bytes);
    CHECK(stats.collections == direct.collections.size());
    REQUIRE(stats.types.size() == 2);
    CHECK(stats.types[0].type == "Customer");
    CHECK(stats.types[0].items == direct.types.at("Customer"));
    CHECK(stats.types[1].type == "Order");
    CHECK(stats.types[1].items == direct.types.at("Order"));
    // The five largest by bytes, then items, then key, as SQL ranks them.
    std::vector<pksk::CollectionStats> ranked;
    for (const auto& [pk, c] : direct.collections) ranked.push_back({pk, c.first, c.second});
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return std::tie(b.bytes, b.items, a.pk) < std::tie(a.bytes, a.items, b.pk);
    });
    ranked.resize(5);
    CHECK(stats.largest == ranked);
    CHECK(stats.warnings.empty());
  }
}

TEST_CASE("hot-key counters are off by default, and exact under 8 threads") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table quiet{backend, "quiet"};
  quiet.put(shop::Customer{.id = "1"});
  CHECK(quiet.hot_keys().empty());

  pksk::Table table{backend, "shop", {.count_access = true}};
  constexpr int threads = 8, rounds = 200;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&table, t] {
      const std::string own = std::to_string(t % 4);  // two threads per customer
      for (int i = 0; i < rounds; ++i) {
        table.put(shop::Order{.customer_id = own, .order_id = std::to_string(i)});  // write
        (void)table.get(shop::Customer{.id = own});                                 // read
        (void)table.query<shop::Order>(pksk::partition(shop::Customer{.id = own}),
                                       {.limit = 1});  // one page: a read
        if (t == 0) table.erase(shop::Order{.customer_id = "hot", .order_id = "x"});  // write
      }
    });
  }
  for (std::thread& w : workers) w.join();
  (void)table.get_all(std::vector<shop::Customer>{{.id = "0"}, {.id = "1"}});  // two reads

  const std::vector<pksk::HotKey> hot = table.hot_keys(10);
  REQUIRE(hot.size() == 5);
  // Customers 0 and 1: 2 threads x 200 x (1 write + 2 reads) + 1 read of get_all.
  CHECK(hot[0] == pksk::HotKey{"CUSTOMER#0", 2 * rounds * 2 + 1, 2 * rounds});
  CHECK(hot[1] == pksk::HotKey{"CUSTOMER#1", 2 * rounds * 2 + 1, 2 * rounds});
  CHECK(hot[2] == pksk::HotKey{"CUSTOMER#2", 2 * rounds * 2, 2 * rounds});
  CHECK(hot[3] == pksk::HotKey{"CUSTOMER#3", 2 * rounds * 2, 2 * rounds});
  CHECK(hot[4] == pksk::HotKey{"CUSTOMER#hot", 0, rounds});
  CHECK(table.hot_keys(2).size() == 2);
  CHECK(table.stats({.largest = 1}).hot_keys == std::vector<pksk::HotKey>{hot[0]});
  table.reset_hot_keys();
  CHECK(table.hot_keys().empty());
}
