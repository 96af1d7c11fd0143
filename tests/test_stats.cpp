// SPDX-License-Identifier: BSL-1.0
// table.stats() on a table of 100,000 items on SQLite: every figure equals what SQL counts
// directly in the file (counts and the stored DynamoDB sizes), in one segment and in several.

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "support/shop.hpp"

namespace hot {
struct Ticket {
  std::string id;
  std::string status;
};
}  // namespace hot

template <>
struct pksk::Entity<hot::Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "TICKET#{id}";
  static constexpr std::string_view sk = "T";
  static constexpr std::array indexes = {pksk::Index{"bystatus", "STATUS#{status}", "{id}"}};
};

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
  CHECK(pksk::maintenance(quiet).hot_keys().empty());

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

  const std::vector<pksk::HotKey> hot = pksk::maintenance(table).hot_keys(10);
  REQUIRE(hot.size() == 5);
  // Customers 0 and 1: 2 threads x 200 x (1 write + 2 reads) + 1 read of get_all.
  CHECK(hot[0] == pksk::HotKey{"CUSTOMER#0", 2 * rounds * 2 + 1, 2 * rounds});
  CHECK(hot[1] == pksk::HotKey{"CUSTOMER#1", 2 * rounds * 2 + 1, 2 * rounds});
  CHECK(hot[2] == pksk::HotKey{"CUSTOMER#2", 2 * rounds * 2, 2 * rounds});
  CHECK(hot[3] == pksk::HotKey{"CUSTOMER#3", 2 * rounds * 2, 2 * rounds});
  CHECK(hot[4] == pksk::HotKey{"CUSTOMER#hot", 0, rounds});
  CHECK(pksk::maintenance(table).hot_keys(2).size() == 2);
  CHECK(table.stats({.largest = 1}).hot_keys == std::vector<pksk::HotKey>{hot[0]});
  pksk::maintenance(table).reset_hot_keys();
  CHECK(pksk::maintenance(table).hot_keys().empty());
}

TEST_CASE("hot-key counters count index query pages by the index's key, and scan pages") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "tickets", {.indexes = {"bystatus"}, .count_access = true}};
  for (int i = 0; i < 6; ++i) {
    table.put(hot::Ticket{.id = std::to_string(i), .status = i < 4 ? "open" : "closed"});
  }
  pksk::maintenance(table).reset_hot_keys();
  // Two pages of two, and the third that finds the end: three reads of the index's partition.
  int pages = 0;
  std::optional<pksk::Cursor> start;
  int pages_read = 0;
  do {
    REQUIRE(++pages_read <= 1000);  // a cursor that never ends
    auto page = table.index("bystatus")
                    .query_page<hot::Ticket>(pksk::PartitionKey{"STATUS#open"},
                                             {.limit = 2, .start = start});
    start = page.next;
    ++pages;
  } while (start);
  (void)table.index("bystatus").query<hot::Ticket>(pksk::PartitionKey{"STATUS#closed"});
  std::vector<pksk::HotKey> hot = pksk::maintenance(table).hot_keys();
  REQUIRE(hot.size() == 2);
  CHECK(hot[0] == pksk::HotKey{"STATUS#open", static_cast<std::uint64_t>(pages), 0, "bystatus"});
  CHECK(hot[1] == pksk::HotKey{"STATUS#closed", 1, 0, "bystatus"});
  // A query of the table counts under the table's key, with no index.
  CHECK(table.query<hot::Ticket>(pksk::partition(hot::Ticket{.id = "1"})).size() == 1);
  hot = pksk::maintenance(table).hot_keys();
  REQUIRE(hot.size() == 3);
  CHECK(hot[2] == pksk::HotKey{"TICKET#1", 1, 0, ""});

  // A scan page reads each partition it holds items of, once: six partitions, one page; then
  // pages of four items, so the two pages read four and two partitions.
  pksk::maintenance(table).reset_hot_keys();
  CHECK(table.scan<hot::Ticket>().size() == 6);
  hot = pksk::maintenance(table).hot_keys();
  REQUIRE(hot.size() == 6);
  for (const pksk::HotKey& k : hot) {
    CHECK(k.reads == 1);
    CHECK(k.writes == 0);
    CHECK(k.index.empty());
  }
  pksk::maintenance(table).reset_hot_keys();
  auto first = table.scan_page<hot::Ticket>({.limit = 4});
  CHECK(first.items.size() == 4);
  REQUIRE(first.next);
  (void)table.scan_page<hot::Ticket>({.limit = 4, .start = first.next});
  std::uint64_t reads = 0;
  for (const pksk::HotKey& k : pksk::maintenance(table).hot_keys()) reads += k.reads;
  CHECK(reads == 6);
  CHECK(pksk::maintenance(table).hot_keys().size() == 6);
  // stats() scans too, but is not counted.
  pksk::maintenance(table).reset_hot_keys();
  CHECK(table.stats().items == 6);
  CHECK(pksk::maintenance(table).hot_keys().empty());
}
