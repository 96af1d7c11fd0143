// SPDX-License-Identifier: BSL-1.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <sqlite3.h>

#include <pksk/codec/codec.hpp>  // the decoder: <pksk/pksk.hpp> leaves it out with PKSK_SEPARATE_COMPILATION
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "support/numbered.hpp"
#include "support/shop.hpp"

using namespace shop;
using pksk::PartitionKey;

namespace {

static_assert(pksk::Backend<pksk::sqlite::Backend>);

Order order(std::string customer, std::string id, double total = 1.0) {
  return Order{.customer_id = std::move(customer),
               .order_id = std::move(id),
               .status = "pending",
               .total = total,
               .items = {{.sku = "S-1", .qty = 2, .price = 0.5}}};
}

// A fresh file per test, removed afterwards, for tests that must look at the file itself.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("pksk_test_table_" + name + ".db")) {
    remove();
  }
  ~TempFile() { remove(); }
  void remove() {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  }
};

std::vector<std::string> column(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
  std::vector<std::string> values;
  while (sqlite3_step(statement) == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(statement, 0);
    values.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return values;
}

std::vector<std::string> order_ids(const std::vector<Order>& orders) {
  std::vector<std::string> ids;
  for (const Order& o : orders) ids.push_back(o.order_id);
  return ids;
}

}  // namespace

TEST_CASE("put, get and erase take entities whose key fields are set") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};

  const Customer ada{.id = "123", .name = "Ada", .email = "ada@example.com"};
  Order first = order("123", "2020-12-06", 59.98);
  first.note = "fragile";
  table.put(ada);
  table.put(first);

  CHECK(table.get(Customer{.id = "123"}) == ada);
  CHECK(table.get(Order{.customer_id = "123", .order_id = "2020-12-06"}) == first);
  CHECK_FALSE(table.get(Order{.customer_id = "123", .order_id = "2020-12-07"}).has_value());
  CHECK_FALSE(table.get(Customer{.id = "124"}).has_value());

  // A put with the same key replaces the whole item.
  Order replaced = first;
  replaced.status = "shipped";
  replaced.note.reset();
  table.put(replaced);
  CHECK(table.get(Order{.customer_id = "123", .order_id = "2020-12-06"}) == replaced);

  CHECK(table.erase(Order{.customer_id = "123", .order_id = "2020-12-06"}));
  CHECK_FALSE(table.erase(Order{.customer_id = "123", .order_id = "2020-12-06"}));
  CHECK_FALSE(table.get(Order{.customer_id = "123", .order_id = "2020-12-06"}).has_value());
  CHECK(table.get(Customer{.id = "123"}) == ada);
}

TEST_CASE("a collection query returns the whole aggregate, typed and in sort-key order") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(Customer{.id = "123", .name = "Ada", .email = "ada@example.com"});
  for (const char* id : {"2020-12-06", "2020-11-25", "2020-12-01"}) table.put(order("123", id));
  table.put(Customer{.id = "999", .name = "Other"});
  table.put(order("999", "2020-12-02"));

  const PartitionKey pk = pksk::partition(Customer{.id = "123"});
  CHECK(pk == PartitionKey{"CUSTOMER#123"});
  const CustomerOrders all = table.query<CustomerOrders>(pk);

  REQUIRE(all.size() == 4);
  CHECK(all.count<Order>() == 3);
  CHECK(all.count<Customer>() == 1);
  REQUIRE(all.first<Customer>() != nullptr);
  CHECK(all.first<Customer>()->name == "Ada");
  CHECK(all.unknown().empty());

  // "#ORDER#..." sorts before "A": orders first, the A record last.
  std::vector<std::string> seen;
  for (const auto& item : all) {
    seen.push_back(std::visit(
        [](const auto& entity) -> std::string {
          if constexpr (std::is_same_v<std::decay_t<decltype(entity)>, Order>) {
            return entity.order_id;
          } else {
            return "customer " + entity.id;
          }
        },
        item));
  }
  CHECK(seen == std::vector<std::string>{"2020-11-25", "2020-12-01", "2020-12-06", "customer 123"});

  std::vector<std::string> ids;
  for (const Order& o : all.items<Order>()) ids.push_back(o.order_id);
  CHECK(ids == std::vector<std::string>{"2020-11-25", "2020-12-01", "2020-12-06"});

  // A value type: copies compare equal, a change makes them differ, moves keep the items.
  CustomerOrders copy = all;
  CHECK(copy == all);
  CustomerOrders moved = std::move(copy);
  CHECK(moved == all);
  CHECK_FALSE(moved == table.query<CustomerOrders>(pksk::partition(Customer{.id = "999"})));

  // An empty partition is an empty collection, not an error.
  const CustomerOrders none = table.query<CustomerOrders>(PartitionKey{"CUSTOMER#404"});
  CHECK(none.empty());
  CHECK(none.first<Customer>() == nullptr);
}

TEST_CASE("a type-only query reads the items of that type by their sort-key prefix") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(Customer{.id = "1", .name = "Ada"});
  table.put(order("1", "2020-12-06"));
  table.put(order("1", "2020-12-01"));
  table.put(Invoice{.customer_id = "1", .number = "7", .amount = 3});

  const PartitionKey pk{"CUSTOMER#1"};
  CHECK(order_ids(table.query<Order>(pk)) == std::vector<std::string>{"2020-12-01", "2020-12-06"});
  REQUIRE(table.query<Customer>(pk).size() == 1);
  REQUIRE(table.query<Invoice>(pk).size() == 1);
  CHECK(table.query<Invoice>(pk)[0].amount == 3);
}

TEST_CASE("items of types outside the collection are kept raw in unknown()") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(Customer{.id = "1", .name = "Ada"});
  table.put(Invoice{.customer_id = "1", .number = "7", .amount = 3});
  table.put(order("1", "2020-12-06"));

  const CustomerOrders all = table.query<CustomerOrders>(PartitionKey{"CUSTOMER#1"});
  CHECK(all.size() == 2);
  REQUIRE(all.unknown().size() == 1);
  const pksk::RawItem& raw = all.unknown()[0];
  CHECK(raw.pk == "CUSTOMER#1");
  CHECK(raw.sk == "#INVOICE#7");
  CHECK(raw.type == "Invoice");
  CHECK(pksk::decode_body<Invoice>(raw.json) ==
        Invoice{.customer_id = "1", .number = "7", .amount = 3});
  CHECK_FALSE(all.empty());
}

TEST_CASE("reading backwards with limit N + 1 gives the A record and the newest N") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(Customer{.id = "123", .name = "Ada"});
  for (int day = 1; day <= 20; ++day) {
    char id[32];
    std::snprintf(id, sizeof id, "2020-12-%02d", day);
    table.put(order("123", id));
  }
  const CustomerOrders newest =
      table.query<CustomerOrders>(PartitionKey{"CUSTOMER#123"}, {.forward = false, .limit = 11});
  REQUIRE(newest.size() == 11);
  CHECK(std::holds_alternative<Customer>(*newest.begin()));
  std::vector<std::string> ids;
  for (const Order& o : newest.items<Order>()) ids.push_back(o.order_id);
  REQUIRE(ids.size() == 10);
  CHECK(ids.front() == "2020-12-20");
  CHECK(ids.back() == "2020-12-11");
}

TEST_CASE("key conditions compare sort keys as bytes") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  // Case and multibyte UTF-8: byte order puts "B" < "a" < "z" < "é" < "日本" < "😀".
  const std::vector<std::string> ids = {"a",    "B",  "z",          "é",
                                        "日本", "😀", "2020-12-01", "2020-12-31"};
  for (const std::string& id : ids) table.put(order("1", id));
  const PartitionKey pk{"CUSTOMER#1"};

  CHECK(order_ids(table.query<Order>(pk)) ==
        std::vector<std::string>{"2020-12-01", "2020-12-31", "B", "a", "z", "é", "日本", "😀"});
  CHECK(order_ids(table.query<Order>(pk, {.forward = false}))[0] == "😀");

  auto ids_where = [&](pksk::KeyCondition condition) {
    return order_ids(table.query<Order>(pk, {.sk = std::move(condition)}));
  };
  using V = std::vector<std::string>;
  CHECK(ids_where(pksk::eq("#ORDER#a")) == V{"a"});
  CHECK(ids_where(pksk::eq("#ORDER#A")).empty());
  CHECK(ids_where(pksk::lt("#ORDER#a")) == V{"2020-12-01", "2020-12-31", "B"});
  CHECK(ids_where(pksk::le("#ORDER#a")) == V{"2020-12-01", "2020-12-31", "B", "a"});
  CHECK(ids_where(pksk::gt("#ORDER#é")) == V{"日本", "😀"});
  CHECK(ids_where(pksk::ge("#ORDER#é")) == V{"é", "日本", "😀"});
  CHECK(ids_where(pksk::between("#ORDER#2020-12-01", "#ORDER#2020-12-31")) ==
        V{"2020-12-01", "2020-12-31"});
  CHECK(ids_where(pksk::begins_with("#ORDER#2020-12")) == V{"2020-12-01", "2020-12-31"});
  CHECK(ids_where(pksk::begins_with("#ORDER#日")) == V{"日本"});
  CHECK(ids_where(pksk::begins_with("#ORDER#\xE6")) == V{"日本"});  // a byte prefix
}

TEST_CASE("paging visits every item exactly once, forwards and backwards") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(Customer{.id = "7", .name = "Ada"});
  constexpr int orders = 23;
  for (int i = 0; i < orders; ++i) table.put(order("7", support::numbered("2021-01-", 10 + i)));
  const PartitionKey pk{"CUSTOMER#7"};
  const CustomerOrders everything = table.query<CustomerOrders>(pk);
  REQUIRE(everything.size() == orders + 1);

  for (const bool forward : {true, false}) {
    for (const std::size_t limit : {1u, 2u, 5u, 23u, 24u, 25u, 100u}) {
      CAPTURE(forward, limit);
      std::vector<std::string> order_seen;
      std::size_t customers = 0;
      std::size_t pages = 0;
      pksk::Page<CustomerOrders> page =
          table.query_page<CustomerOrders>(pk, {.forward = forward, .limit = limit});
      for (int pages_read = 0;; ++pages_read) {
        REQUIRE(pages_read < 1000);  // a cursor that never ends
        ++pages;
        CHECK(page.items.size() <= limit);
        customers += page.items.count<Customer>();
        for (const Order& o : page.items.items<Order>()) order_seen.push_back(o.order_id);
        if (!page.next) break;
        // Through the text form, as a client would send it back.
        const pksk::Cursor cursor = pksk::Cursor::parse(page.next->to_string());
        CHECK(cursor == *page.next);
        page = table.query_page<CustomerOrders>(
            pk, {.forward = forward, .limit = limit, .start = cursor});
      }
      CHECK(customers == 1);
      CHECK(order_seen.size() == orders);
      CHECK(std::set<std::string>(order_seen.begin(), order_seen.end()).size() == orders);
      CHECK(std::is_sorted(order_seen.begin(), order_seen.end(),
                           [&](const auto& a, const auto& b) { return forward ? a < b : b < a; }));
      // As DynamoDB: a page that stops at its limit has a cursor even if nothing follows.
      CHECK(pages == (orders + 1) / limit + 1);
    }
  }

  // The same limits through query(): one call, every page.
  CHECK(table.query<CustomerOrders>(pk, {.limit = 5}).size() == 5);
  CHECK(table.query<Order>(pk, {.limit = 100}).size() == orders);
}

TEST_CASE("a cursor that does not parse or does not belong to the query is an error") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  for (int i = 0; i < 6; ++i) table.put(order("1", support::numbered("2021-0", i + 1)));
  table.put(order("2", "2021-01"));
  const PartitionKey pk{"CUSTOMER#1"};
  const auto page = table.query_page<Order>(pk, {.limit = 2});
  REQUIRE(page.next);
  const std::string token = page.next->to_string();
  CHECK(
      token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
      std::string::npos);

  // Every single-character change is caught: no silent restart elsewhere, no UB.
  for (std::size_t at = 0; at < token.size(); ++at) {
    for (const char replacement : {'A', 'z', '-', '_', '=', '%', '\0'}) {
      std::string tampered = token;
      if (tampered[at] == replacement) continue;
      tampered[at] = replacement;
      CAPTURE(at, replacement);
      CHECK_THROWS_AS(pksk::Cursor::parse(tampered), pksk::Error);
    }
  }
  for (const std::string& bad :
       std::vector<std::string>{"", "A", "AAAA", "not a cursor", token + "A", token.substr(1)}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(pksk::Cursor::parse(bad), pksk::Error);
  }

  // A well-formed cursor of another partition, or of an index, or outside the condition.
  CHECK_THROWS_WITH(table.query_page<Order>(PartitionKey{"CUSTOMER#2"}, {.start = *page.next}),
                    Catch::Contains("belongs to partition 'CUSTOMER#1'"));
  pksk::Cursor of_index = *page.next;
  of_index.index = "gsi1";
  CHECK_THROWS_WITH(table.query_page<Order>(pk, {.start = of_index}),
                    Catch::Contains("index 'gsi1'"));
  CHECK_THROWS_WITH(
      table.query_page<Order>(pk, {.sk = pksk::begins_with("#ORDER#2022"), .start = *page.next}),
      Catch::Contains("outside the query's key condition"));
}

TEST_CASE("a corrupt body is a DecodeError naming table, pk, sk, type and JSON path") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  auto raw = backend.open_table(pksk::backend::TableSpec{"shop"});
  const auto put_raw = [&](pksk::backend::ItemView item) {
    backend.put(raw, pksk::backend::PutRequest{item});
  };
  put_raw(
      {"CUSTOMER#1", "#ORDER#x", "Order", R"({"customer_id":"1","order_id":"x","total":"abc"})"});
  put_raw({"CUSTOMER#2", "#ORDER#y", "Order", R"({"customer_id":"2","order_id":)"});
  put_raw(
      {"CUSTOMER#3", "#ORDER#z", "Order",
       R"({"customer_id":"3","order_id":"z","items":[{"sku":"a","qty":1},{"sku":"b","qty":"2"}]})"});

  using Catch::Contains;
  const auto query = [&](const char* pk) { return table.query<CustomerOrders>(PartitionKey{pk}); };
  CHECK_THROWS_AS(query("CUSTOMER#1"), pksk::DecodeError);
  CHECK_THROWS_WITH(query("CUSTOMER#1"),
                    Contains("'shop'") &&
                        Contains("pk 'CUSTOMER#1', sk '#ORDER#x', type 'Order'") &&
                        Contains("$.total"));
  CHECK_THROWS_AS(query("CUSTOMER#2"), pksk::DecodeError);
  CHECK_THROWS_WITH(query("CUSTOMER#3"), Contains("$.items[1].qty"));
  CHECK_THROWS_WITH(table.get(Order{.customer_id = "1", .order_id = "x"}), Contains("$.total"));
  CHECK_THROWS_AS(table.query<Order>(PartitionKey{"CUSTOMER#3"}), pksk::DecodeError);

  // A stored key is not trusted to be printable: the message escapes it.
  put_raw({"CUSTOMER#\x01", "#ORDER#w", "Order", R"({"total":"x"})"});
  CHECK_THROWS_WITH(query("CUSTOMER#\x01"), Contains(R"(pk 'CUSTOMER#\x01')"));
}

TEST_CASE("a put that fails writes nothing") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(order("1", "2020-12-01"));

  // A key value may not forge another key: '#' is the template's delimiter.
  CHECK_THROWS_AS(table.put(order("1#ORDER", "x")), pksk::KeyError);
  CHECK_THROWS_WITH(table.put(order("1", "a#b")),
                    Catch::Contains("'shop'") && Catch::Contains("order_id"));
  CHECK_THROWS_AS(table.put(order("1", "2020-12-02", std::numeric_limits<double>::quiet_NaN())),
                  pksk::EncodeError);
  Order huge = order("1", "2020-12-03");
  huge.note = std::string(pksk::max_item_bytes, 'x');
  CHECK_THROWS_AS(table.put(huge), pksk::ItemTooLarge);

  CHECK(order_ids(table.query<Order>(PartitionKey{"CUSTOMER#1"})) ==
        std::vector<std::string>{"2020-12-01"});
  // Nor can a query's key: one no item's template produces is refused, not an empty answer.
  CHECK_THROWS_AS(table.query<CustomerOrders>(PartitionKey{"CUSTOMER#1#ORDER"}),
                  pksk::ValidationError);
}

TEST_CASE("the file is an ordinary SQLite database with an ordered composite key") {
  TempFile file{"schema"};
  {
    pksk::sqlite::Backend backend{file.path.string()};
    pksk::Table table{backend, "shop"};
    pksk::Table other{backend, "audit", {.type_attribute = "kind"}};
    table.put(Customer{.id = "1", .name = "Ada"});
    other.put(Customer{.id = "2", .name = "Bob"});
    CHECK(other.query<CustomerOrders>(PartitionKey{"CUSTOMER#2"}).size() == 1);
  }
  const auto sql = column(file.path.string(), "SELECT sql FROM sqlite_master WHERE name = 'shop'");
  REQUIRE(sql.size() == 1);
  CHECK_THAT(sql[0],
             Catch::Contains("WITHOUT ROWID") && Catch::Contains("PRIMARY KEY (\"pk\", \"sk\")"));
  CHECK(column(file.path.string(), "SELECT type FROM shop") ==
        std::vector<std::string>{"Customer"});
  CHECK(column(file.path.string(), "SELECT kind FROM audit") ==
        std::vector<std::string>{"Customer"});
  CHECK(column(file.path.string(), "PRAGMA journal_mode") == std::vector<std::string>{"wal"});

  // Reopened, the data is there; a table of another schema is refused, not rewritten.
  pksk::sqlite::Backend again{file.path.string()};
  pksk::Table table{again, "shop"};
  CHECK(table.get(Customer{.id = "1"})->name == "Ada");
  CHECK_THROWS_AS(pksk::Table(again, "audit"), pksk::Error);
}
