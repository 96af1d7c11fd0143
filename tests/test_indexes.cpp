// SPDX-License-Identifier: BSL-1.0
// Secondary indexes (issue 20, item 2) on the SQLite backend: sparse membership, the index kept
// right by every write path, paging on the full key, backfill, and the query plans SQLite
// chooses. The conformance suite runs the behaviour both backends share on DynamoDB Local too.

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <sqlite3.h>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>
#include <pksk/sqlite/detail/sql.hpp>  // the SQL the backend prepares, for its query plans

#include "support/numbered.hpp"
#include "support/temp_dir.hpp"

namespace gx {

struct Customer {
  std::string id;
  std::string name;
  std::string email;
  friend bool operator==(const Customer&, const Customer&) = default;
};

struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  friend bool operator==(const Order&, const Order&) = default;
};

// Many events share one day: one index key for all of them.
struct Event {
  std::string id;
  std::string day;
  int seq{};
  friend bool operator==(const Event&, const Event&) = default;
};

enum class Tier { bronze, silver, gold };

struct Member {
  std::string id;
  Tier tier{};
  int rank{};
};

}  // namespace gx

template <>
struct pksk::Entity<gx::Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "EMAIL#{email}", "CUSTOMER"}};
};

template <>
struct pksk::Entity<gx::Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "ORDER#{order_id}", "CUSTOMER#{customer_id}"},
      pksk::Index{"gsi2", "STATUS#{status}", "#ORDER#{order_id}"}};
};

template <>
struct pksk::Entity<gx::Event> {
  static constexpr std::string_view type = "Event";
  static constexpr std::string_view pk = "EVENT#{id}";
  static constexpr std::string_view sk = "E";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "DAY#{day}", "EVENT"}};
};

template <>
struct pksk::Entity<gx::Member> {
  static constexpr std::string_view type = "Member";
  static constexpr std::string_view pk = "MEMBER#{id}";
  static constexpr std::string_view sk = "M";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "TIER#{tier}", "RANK#{rank}"}};
};

using namespace gx;
using pksk::PartitionKey;

namespace {

std::vector<std::string> order_ids(const std::vector<Order>& orders) {
  std::vector<std::string> ids;
  for (const Order& o : orders) ids.push_back(o.order_id);
  return ids;
}

std::vector<std::string> by_status(pksk::Table<pksk::sqlite::Backend>& table,
                                   const std::string& status) {
  return order_ids(table.index("gsi2").query<Order>(PartitionKey{"STATUS#" + status}));
}

// The plan SQLite makes for a statement, its detail lines joined by " | ".
std::string query_plan(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, ("EXPLAIN QUERY PLAN " + sql).c_str(), -1, &stmt, nullptr) ==
          SQLITE_OK);
  std::string plan;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    if (!plan.empty()) plan += " | ";
    plan += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3));
  }
  sqlite3_finalize(stmt);
  return plan;
}

}  // namespace

TEST_CASE("an index query finds items by their index keys, in index sort-key order") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1", "gsi2"}}};
  table.put(Customer{"c1", "Ada", "ada@example.com"});
  table.put(Order{"c1", "2020-12-06", "open", 10});
  table.put(Order{"c2", "2020-12-06", "open", 20});  // another customer, the same order id
  table.put(Order{"c1", "2021-01-01", "shipped", 30});
  table.put(Order{"c3", "2020-11-30", "open", 40});

  // The usage docs/indexes.md documents: the other direction of the relationship.
  const std::vector<Order> by_id =
      table.index("gsi1").query<Order>(PartitionKey{"ORDER#2020-12-06"});
  REQUIRE(by_id.size() == 2);
  CHECK(by_id[0] == Order{"c1", "2020-12-06", "open", 10});
  CHECK(by_id[1] == Order{"c2", "2020-12-06", "open", 20});

  CHECK(by_status(table, "open") ==
        std::vector<std::string>{"2020-11-30", "2020-12-06", "2020-12-06"});
  CHECK(order_ids(
            table.index("gsi2").query<Order>(PartitionKey{"STATUS#open"}, {.forward = false})) ==
        std::vector<std::string>{"2020-12-06", "2020-12-06", "2020-11-30"});
  CHECK(order_ids(table.index("gsi2").query<Order>(
            PartitionKey{"STATUS#open"}, {.sk = pksk::between("#ORDER#2020-12", "#ORDER#2021")})) ==
        std::vector<std::string>{"2020-12-06", "2020-12-06"});
  CHECK(order_ids(table.index("gsi2").query<Order>(PartitionKey{"STATUS#open"},
                                                   {.sk = pksk::lt("#ORDER#2020-12")})) ==
        std::vector<std::string>{"2020-11-30"});

  const auto by_email = table.index("gsi1").query<Customer>(PartitionKey{"EMAIL#ada@example.com"});
  REQUIRE(by_email.size() == 1);
  CHECK(by_email[0].name == "Ada");

  SECTION("filters and limits count as on the table: limit before the filter") {
    const auto page = table.index("gsi2").query_page<Order>(
        PartitionKey{"STATUS#open"}, {.limit = 2, .filter = pksk::attr(&Order::total) > 15.0});
    // Evaluated: c3's order (40), then c1's (10, filtered out).
    REQUIRE(page.items.size() == 1);
    CHECK(page.items[0].total == 40);
    REQUIRE(page.next);
    CHECK(page.next->index == "gsi2");
    CHECK(page.next->item_pk == "CUSTOMER#c1");
    const auto rest = table.index("gsi2").query_page<Order>(
        PartitionKey{"STATUS#open"},
        {.limit = 2, .start = page.next, .filter = pksk::attr(&Order::total) > 15.0});
    REQUIRE(rest.items.size() == 1);
    CHECK(rest.items[0].customer_id == "c2");
    CHECK_FALSE(rest.next);
  }

  SECTION("a lazy range over an index") {
    std::vector<std::string> seen;
    for (const Order& o :
         table.index("gsi2").each<Order>(PartitionKey{"STATUS#open"}, {.limit = 1})) {
      seen.push_back(o.customer_id);
    }
    CHECK(seen == std::vector<std::string>{"c3", "c1", "c2"});
  }

  SECTION("an index the table does not have") {
    CHECK_THROWS_AS(table.index("gsi9"), pksk::ValidationError);
    CHECK_THROWS_WITH(table.index("gsi9"), Catch::Contains("no index 'gsi9'"));
  }
}

TEST_CASE("an entity that does not name an index is not in it (sparse)") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1", "gsi2"}}};
  table.put(Customer{"c1", "Ada", "ada@example.com"});
  table.put(Order{"c1", "o1", "open", 1});
  // Customer names gsi1 only: gsi2 holds the order alone, and a collection query over it sees
  // no customer, while the table keeps both.
  const auto all =
      table.index("gsi2").query<pksk::ItemCollection<Customer, Order>>(PartitionKey{"STATUS#open"});
  CHECK(all.size() == 1);
  CHECK(all.template count<Order>() == 1);
  CHECK(all.template count<Customer>() == 0);
  // A customer query on gsi2 is refused: no Customer is ever in it.
  CHECK_THROWS_WITH(table.index("gsi2").query<Customer>(PartitionKey{"STATUS#open"}),
                    Catch::Contains("'Customer' is not in it"));
  CHECK_THROWS_WITH(pksk::maintenance(table).backfill_index<Customer>("gsi2"),
                    Catch::Contains("does not name the index 'gsi2'"));
  // The SQLite index holds exactly the items that name it.
  sqlite3* db = backend.native_handle();
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db,
                             "SELECT count(*) FROM shop INDEXED BY \"shop:gsi2\" WHERE gsi2pk IS "
                             "NOT NULL AND gsi2sk IS NOT NULL",
                             -1, &stmt, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
  CHECK(sqlite3_column_int(stmt, 0) == 1);
  sqlite3_finalize(stmt);
}

TEST_CASE("every write path keeps the indexes right") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1", "gsi2"}}};

  SECTION("put, and put again with another index key") {
    table.put(Order{"c1", "o1", "open", 1});
    CHECK(by_status(table, "open") == std::vector<std::string>{"o1"});
    table.put(Order{"c1", "o1", "shipped", 1});
    CHECK(by_status(table, "open").empty());
    CHECK(by_status(table, "shipped") == std::vector<std::string>{"o1"});
  }
  SECTION("an update that changes an index key moves the item in the index") {
    table.put(Order{"c1", "o1", "open", 1});
    const Order updated = table.update(Order{.customer_id = "c1", .order_id = "o1"},
                                       pksk::set(&Order::status, "shipped"));
    CHECK(updated.status == "shipped");
    CHECK(by_status(table, "open").empty());
    CHECK(by_status(table, "shipped") == std::vector<std::string>{"o1"});
    // gsi1's key is formatted from key members only: unchanged, still found.
    CHECK(table.index("gsi1").query<Order>(PartitionKey{"ORDER#o1"}).size() == 1);
  }
  SECTION("an update that creates the item puts it in the index") {
    table.update(Order{.customer_id = "c1", .order_id = "o2"}, pksk::set(&Order::status, "open"));
    const auto open = table.index("gsi2").query<Order>(PartitionKey{"STATUS#open"});
    REQUIRE(open.size() == 1);
    CHECK(open[0].status == "open");
  }
  SECTION("an update of other members leaves the index as it was") {
    table.put(Order{"c1", "o1", "open", 1});
    table.update(Order{.customer_id = "c1", .order_id = "o1"}, pksk::add(&Order::total, 5.0));
    CHECK(by_status(table, "open") == std::vector<std::string>{"o1"});
    CHECK(table.index("gsi2").query<Order>(PartitionKey{"STATUS#open"})[0].total == 6);
  }
  SECTION("erase") {
    table.put(Order{"c1", "o1", "open", 1});
    CHECK(table.erase(Order{.customer_id = "c1", .order_id = "o1"}));
    CHECK(by_status(table, "open").empty());
    CHECK(table.index("gsi1").query<Order>(PartitionKey{"ORDER#o1"}).empty());
  }
  SECTION("a transaction: put, update and erase at once") {
    table.put(Order{"c1", "o1", "open", 1});
    table.put(Order{"c1", "o2", "open", 2});
    table.transact()
        .put(Order{"c1", "o3", "open", 3})
        .update(Order{.customer_id = "c1", .order_id = "o1"}, pksk::set(&Order::status, "shipped"))
        .erase(Order{.customer_id = "c1", .order_id = "o2"})
        .commit();
    CHECK(by_status(table, "open") == std::vector<std::string>{"o3"});
    CHECK(by_status(table, "shipped") == std::vector<std::string>{"o1"});
  }
  SECTION("a canceled transaction changes no index") {
    table.put(Order{"c1", "o1", "open", 1});
    CHECK_THROWS_AS(
        table.transact()
            .update(Order{.customer_id = "c1", .order_id = "o1"},
                    pksk::set(&Order::status, "shipped"))
            .put(Order{"c1", "o1x", "open", 1}, pksk::when(pksk::attr(&Order::total) > 100.0))
            .commit(),
        pksk::TransactionCanceled);
    CHECK(by_status(table, "open") == std::vector<std::string>{"o1"});
    CHECK(by_status(table, "shipped").empty());
  }
  SECTION("batches") {
    std::vector<Order> orders;
    for (int i = 0; i < 60; ++i) {
      orders.push_back(Order{"c1", support::numbered("o", 100 + i), i % 2 ? "open" : "shipped", 1});
    }
    table.put_all(orders);
    CHECK(by_status(table, "open").size() == 30);
    CHECK(by_status(table, "shipped").size() == 30);
    orders.resize(20);
    table.erase_all(orders);
    CHECK(by_status(table, "open").size() == 20);
    CHECK(by_status(table, "shipped").size() == 20);
  }
  SECTION("an enum and an integer in an index key, set by an update") {
    pksk::Table members{backend, "members", {.indexes = {"gsi1"}}};
    members.put(Member{"m1", Tier::bronze, 7});
    members.update(Member{.id = "m1"}, pksk::set(&Member::tier, Tier::gold),
                   pksk::set(&Member::rank, -3));
    CHECK(members.index("gsi1").query<Member>(PartitionKey{"TIER#bronze"}).empty());
    const auto gold = members.index("gsi1").query<Member>(PartitionKey{"TIER#gold"});
    REQUIRE(gold.size() == 1);
    CHECK(gold[0].rank == -3);
  }
}

TEST_CASE("an update that changes part of an index key must give the whole key") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table members{backend, "members", {.indexes = {"gsi1"}}};
  members.put(Member{"m1", Tier::bronze, 7});
  // rank alone: the new key needs tier too, which only the stored item has.
  CHECK_THROWS_AS(members.update(Member{.id = "m1"}, pksk::set(&Member::rank, 8)),
                  pksk::ValidationError);
  CHECK_THROWS_WITH(members.update(Member{.id = "m1"}, pksk::set(&Member::rank, 8)),
                    Catch::Contains("index 'gsi1'") && Catch::Contains("'tier'"));
  // add cannot say what the new value is either.
  CHECK_THROWS_WITH(members.update(Member{.id = "m1"}, pksk::set(&Member::tier, Tier::gold),
                                   pksk::add(&Member::rank, 1)),
                    Catch::Contains("'rank'"));
  // Nothing was written.
  CHECK(members.index("gsi1").query<Member>(PartitionKey{"TIER#bronze"}).size() == 1);
}

TEST_CASE("an index query pages on the full key when many items share one index key") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "events", {.indexes = {"gsi1"}, .cursor_key = "secret"}};
  std::vector<Event> events;
  for (int i = 0; i < 1000; ++i)
    events.push_back(Event{support::numbered("e", i), "2026-11-24", i});
  table.put_all(events);

  std::set<int> seen;
  std::size_t pages = 0;
  std::optional<pksk::Cursor> start;
  int pages_read = 0;
  do {
    REQUIRE(++pages_read <= 1000);  // a cursor that never ends
    // Through the cursor's text, as a page token travels.
    if (start) start = pksk::Cursor::parse(start->to_string());
    const auto page = table.index("gsi1").query_page<Event>(PartitionKey{"DAY#2026-11-24"},
                                                            {.limit = 7, .start = start});
    for (const Event& e : page.items) CHECK(seen.insert(e.seq).second);
    start = page.next;
    ++pages;
  } while (start);
  CHECK(seen.size() == 1000);
  CHECK(pages == 143);  // 142 full pages and the last with 6; its cursor reads nothing more

  SECTION("cursors are checked: an index's cursor is not the table's, nor another index's") {
    const auto page =
        table.index("gsi1").query_page<Event>(PartitionKey{"DAY#2026-11-24"}, {.limit = 3});
    REQUIRE(page.next);
    CHECK(page.next->index == "gsi1");
    CHECK_FALSE(page.next->item_pk.empty());
    CHECK_THROWS_WITH(table.query<Event>(PartitionKey{"EVENT#e1"}, {.start = page.next}),
                      Catch::Contains("belongs to index 'gsi1', not to the table"));
    pksk::Cursor edited = *page.next;
    edited.item_sk = "F";  // steered elsewhere: the signature no longer verifies
    CHECK_THROWS_AS(
        table.index("gsi1").query<Event>(PartitionKey{"DAY#2026-11-24"}, {.start = edited}),
        pksk::ValidationError);
  }
}

TEST_CASE("an index added to a table with items is backfilled, with progress") {
  support::TempDir dir;
  const std::string file = dir.file("shop.db");
  constexpr int count = 100000;
  {
    pksk::sqlite::Backend raw{file};
    pksk::Table table{raw, "events"};  // no index yet: Event's gsi1 is refused
    CHECK_THROWS_WITH(table.put(Event{"x", "d", 0}), Catch::Contains("add it to TableOptions"));
    std::vector<Event> events;
    events.reserve(count);
    for (int i = 0; i < count; ++i) {
      events.push_back(Event{support::numbered("e", i), support::numbered("day", i % 10), i});
    }
    // Written without index keys, as a program whose entity had no index yet wrote them.
    sqlite3* db = raw.native_handle();
    REQUIRE(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_stmt* insert = nullptr;
    REQUIRE(sqlite3_prepare_v2(db,
                               "INSERT INTO events (pk, sk, type, body, size) VALUES (?1, 'E', "
                               "'Event', ?2, 40)",
                               -1, &insert, nullptr) == SQLITE_OK);
    for (const Event& e : events) {
      const std::string pk = "EVENT#" + e.id;
      const std::string body = "{\"id\":\"" + e.id + "\",\"day\":\"" + e.day +
                               support::numbered("\",\"seq\":", e.seq) + "}";
      sqlite3_bind_text(insert, 1, pk.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(insert, 2, body.c_str(), -1, SQLITE_TRANSIENT);
      REQUIRE(sqlite3_step(insert) == SQLITE_DONE);
      sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    REQUIRE(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK);
  }
  pksk::sqlite::Backend backend{file};
  pksk::Table table{backend, "events", {.indexes = {"gsi1"}}};  // adds the index's columns
  CHECK(table.index("gsi1").query<Event>(PartitionKey{"DAY#day3"}).empty());
  table.put(Event{"new", "day3", -1});  // written with its keys: indexed at once
  CHECK(table.index("gsi1").query<Event>(PartitionKey{"DAY#day3"}).size() == 1);

  std::vector<pksk::BackfillProgress> reports;
  const std::size_t written = pksk::maintenance(table).backfill_index<Event>(
      "gsi1", [&](const pksk::BackfillProgress& p) { reports.push_back(p); }, 10000);
  CHECK(written == count);
  REQUIRE(reports.size() >= 10);
  for (std::size_t i = 1; i < reports.size(); ++i) {
    CHECK(reports[i].scanned >= reports[i - 1].scanned);
  }
  CHECK(reports.back().scanned == count);
  CHECK(reports.back().written == count);
  CHECK(reports.back().type == "Event");
  const auto day3 = table.index("gsi1").query<Event>(PartitionKey{"DAY#day3"});
  // Paged with the sort key fixed (eq), which resumes on the table key alone.
  std::size_t paged = 0;
  for (const Event& e : table.index("gsi1").each<Event>(PartitionKey{"DAY#day3"},
                                                        {.sk = pksk::eq("EVENT"), .limit = 999})) {
    CHECK(e.day == "day3");
    ++paged;
  }
  CHECK(paged == day3.size());
  CHECK(day3.size() == count / 10 + 1);
  // A second backfill finds nothing left to do.
  CHECK(pksk::maintenance(table).backfill_index<Event>("gsi1") == 0);
  CHECK_THROWS_WITH(pksk::maintenance(table).backfill_index<Event>("gsi2"),
                    Catch::Contains("no index 'gsi2'"));
}

TEST_CASE("indexes and the table's schema") {
  support::TempDir dir;
  const std::string file = dir.file("shop.db");
  pksk::sqlite::Backend backend{file};
  SECTION("an index attribute may not be a key attribute or a member") {
    CHECK_THROWS_AS((pksk::Table{backend, "t", {.indexes = {pksk::TableIndex{"g", "pk", "gsk"}}}}),
                    pksk::ValidationError);
    pksk::Table table{backend, "t", {.indexes = {pksk::TableIndex{"g", "email", "gsk"}}}};
    CHECK_THROWS_WITH(table.put(Customer{"c", "n", "e"}),
                      Catch::Contains("'email'") && Catch::Contains("index key attribute"));
  }
  SECTION("an SQLite index of the name pksk gives an index, on other columns, is refused") {
    { pksk::Table table{backend, "t"}; }
    sqlite3* db = backend.native_handle();
    REQUIRE(sqlite3_exec(db, "CREATE INDEX \"t:gsi1\" ON t (type)", nullptr, nullptr, nullptr) ==
            SQLITE_OK);
    CHECK_THROWS_WITH((pksk::Table{backend, "t", {.indexes = {"gsi1"}}}),
                      Catch::Contains("index 't:gsi1' has the columns (type)"));
  }
  SECTION("a read-only file without the index's columns is refused, naming the table") {
    { pksk::Table table{backend, "t"}; }
    pksk::sqlite::Backend reader{file, {.read_only = true}};
    CHECK_THROWS_AS((pksk::Table{reader, "t", {.indexes = {"gsi1"}}}), pksk::BackendError);
  }
  SECTION("a table reopened without its index keeps it, and with it again uses it") {
    {
      pksk::Table table{backend, "t", {.indexes = {"gsi1", "gsi2"}}};
      table.put(Order{"c1", "o1", "open", 1});
    }
    pksk::Table without{backend, "t"};
    CHECK(without.query<Order>(PartitionKey{"CUSTOMER#c1"}).size() == 1);
    pksk::Table with{backend, "t", {.indexes = {"gsi2"}}};
    CHECK(by_status(with, "open") == std::vector<std::string>{"o1"});
  }
}

TEST_CASE("the query plans use the intended index") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1", "gsi2"}}};
  table.put(Order{"c1", "o1", "open", 1});
  sqlite3* db = backend.native_handle();
  namespace ds = pksk::sqlite::detail;
  const pksk::backend::TableSpec spec{"shop", {.indexes = {"gsi1", "gsi2"}}};

  // The primary key's plans are asserted in test_reads.
  // An index query, with every shape and a start: a range of the partial index, in its order.
  for (const auto shape : {ds::RangeShape::any, ds::RangeShape::eq, ds::RangeShape::between,
                           ds::RangeShape::prefix_bounded, ds::RangeShape::lt}) {
    for (const bool forward : {true, false}) {
      for (const bool start : {false, true}) {
        const std::string sql = ds::index_query_sql(spec, spec.indexes[1], shape, forward, start);
        const std::string plan = query_plan(db, sql);
        INFO(sql << "\n" << plan);
        CHECK(plan.find("SEARCH shop USING INDEX shop:gsi2 (gsi2pk=?") != std::string::npos);
        CHECK(plan.find("TEMP B-TREE") == std::string::npos);
      }
    }
  }
}

namespace {

void exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  const std::string message = error != nullptr ? error : "";
  sqlite3_free(error);
  INFO(sql << ": " << message);
  REQUIRE(rc == SQLITE_OK);
}

// Every row's columns joined by '|', rows by '\n'.
std::string rows_text(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
  std::string out;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    if (!out.empty()) out += '\n';
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      if (i != 0) out += '|';
      const auto* text = sqlite3_column_text(stmt, i);
      if (text != nullptr) out += reinterpret_cast<const char*>(text);
    }
  }
  sqlite3_finalize(stmt);
  return out;
}

}  // namespace

// Issue 42: puts became an upsert and updates of a stored item a plain UPDATE, where pksk wrote
// every row with INSERT OR REPLACE. The file format is the same (version 1): a file written
// before, built here with the SQL pksk ran then, opens, reads, and takes writes that keep its
// indexes right.
TEST_CASE("a file written with INSERT OR REPLACE opens, reads and keeps its indexes on writes") {
  support::TempDir dir;
  const std::string path = dir.file("old.db");
  const std::string create_table =
      "CREATE TABLE \"shop\" (\"pk\" TEXT NOT NULL, \"sk\" TEXT NOT NULL, \"type\" TEXT NOT NULL, "
      "body TEXT NOT NULL, size INTEGER NOT NULL, "
      "\"gsi1pk\" TEXT GENERATED ALWAYS AS (json_extract(body, '$.gsi1pk')) VIRTUAL, "
      "\"gsi1sk\" TEXT GENERATED ALWAYS AS (json_extract(body, '$.gsi1sk')) VIRTUAL, "
      "\"gsi2pk\" TEXT GENERATED ALWAYS AS (json_extract(body, '$.gsi2pk')) VIRTUAL, "
      "\"gsi2sk\" TEXT GENERATED ALWAYS AS (json_extract(body, '$.gsi2sk')) VIRTUAL, "
      "PRIMARY KEY (\"pk\", \"sk\")) WITHOUT ROWID";
  // The rows as pksk writes them (bodies with their index key attributes, sizes): the encoder
  // did not change, so today's in-memory table gives the bytes the old code stored.
  std::vector<std::string> rows;
  {
    pksk::sqlite::Backend memory{":memory:"};
    pksk::Table mem{memory, "shop", {.indexes = {"gsi1", "gsi2"}}};
    mem.put(Order{"c1", "o1", "open", 1});
    mem.put(Order{"c1", "o2", "open", 2});
    mem.put(Order{"c1", "o2", "shipped", 2.5});
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(memory.native_handle(),
                               "SELECT quote(pk) || ', ' || quote(sk) || ', ' || quote(type) || "
                               "', ' || quote(body) || ', ' || size FROM shop ORDER BY pk, sk",
                               -1, &stmt, nullptr) == SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW)
      rows.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    sqlite3_finalize(stmt);
  }
  REQUIRE(rows.size() == 2);
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    exec(db, "PRAGMA journal_mode=WAL");
    exec(db,
         "CREATE TABLE IF NOT EXISTS pksk_meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT "
         "NULL) WITHOUT ROWID");
    exec(db, "INSERT OR IGNORE INTO pksk_meta (name, value) VALUES ('format_version', '1')");
    exec(db, create_table);
    for (const char* index : {"gsi1", "gsi2"}) {
      const std::string i = index;
      exec(db, "CREATE INDEX IF NOT EXISTS \"shop:" + i + "\" ON \"shop\" (\"" + i + "pk\", \"" +
                   i + "sk\", \"pk\", \"sk\") WHERE \"" + i + "pk\" IS NOT NULL AND \"" + i +
                   "sk\" IS NOT NULL");
    }
    // The old put: INSERT OR REPLACE, o2 written open first and then replaced by shipped.
    const std::string put =
        "INSERT OR REPLACE INTO \"shop\" (\"pk\", \"sk\", \"type\", body, size) VALUES (";
    exec(db, put + "'CUSTOMER#c1', '#ORDER#o2', 'Order', '{}', 2)");
    for (const std::string& row : rows) exec(db, put + row + ")");
    sqlite3_close(db);
  }

  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1", "gsi2"}}};
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "o1"}) == Order{"c1", "o1", "open", 1});
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "o2"}) ==
        Order{"c1", "o2", "shipped", 2.5});
  CHECK(by_status(table, "open") == std::vector<std::string>{"o1"});
  CHECK(by_status(table, "shipped") == std::vector<std::string>{"o2"});

  // An upsert over a stored item with another index key, a put of a new one, an update (a
  // plain UPDATE) and an update in a transaction.
  table.put(Order{"c1", "o1", "shipped", 1});
  table.put(Order{"c1", "o3", "open", 3});
  CHECK(table.update(Order{.customer_id = "c1", .order_id = "o2"},
                     pksk::set(&Order::status, "paid"),
                     pksk::add(&Order::total, 1.0)) == Order{"c1", "o2", "paid", 3.5});
  table.transact()
      .update(Order{.customer_id = "c1", .order_id = "o3"}, pksk::set(&Order::status, "paid"))
      .commit();
  CHECK(by_status(table, "open").empty());
  CHECK(by_status(table, "shipped") == std::vector<std::string>{"o1"});
  CHECK(by_status(table, "paid") == std::vector<std::string>{"o2", "o3"});
  CHECK(table.index("gsi1").query<Order>(PartitionKey{"ORDER#o2"}) ==
        std::vector<Order>{Order{"c1", "o2", "paid", 3.5}});

  sqlite3* db = backend.native_handle();
  CHECK(rows_text(db, "PRAGMA integrity_check") == "ok");  // the indexes match the rows
  CHECK(rows_text(db, "SELECT sql FROM sqlite_master WHERE name = 'shop'") == create_table);
  CHECK(rows_text(db, "SELECT value FROM pksk_meta WHERE name = 'format_version'") == "1");
  CHECK(rows_text(db, "SELECT count(*) FROM shop") == "3");
}
