// SPDX-License-Identifier: BSL-1.0
// pksk::AnyBackend (issue 35, item 3): a backend chosen at run time behind one type. The same
// calls through Table<AnyBackend> holding a SQLite backend and through Table<sqlite::Backend>
// give the same results; errors keep their type; copies share the backend, a moved-from or
// default-constructed one is a pksk::Error when used. The conformance suite runs through
// AnyBackend too (conformance/on_any.cpp).

#include <sqlite3.h>
#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <pksk/backend.hpp>
#include <pksk/backend/emulation.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "support/numbered.hpp"
#include "support/shop.hpp"

namespace anyb {

// In a secondary index: tickets by status.
struct Ticket {
  std::string id;
  std::string status;
  int opened{};
  friend bool operator==(const Ticket&, const Ticket&) = default;
};

}  // namespace anyb

template <>
struct pksk::Entity<anyb::Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "TICKET#{id}";
  static constexpr std::string_view sk = "T";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "STATUS#{status}", "OPENED#{opened}"}};
};

namespace anyb {

using shop::Customer;
using shop::CustomerOrders;
using shop::Invoice;
using shop::LineItem;
using shop::Order;

// The code of the BackendError a misuse throws (an empty or foreign handle, no backend held).
template <class F>
std::error_code misuse_code_of(F&& f) {
  try {
    f();
  } catch (const pksk::BackendError& e) {
    return e.code();
  }
  return {};
}

static_assert(pksk::Backend<pksk::AnyBackend>);
static_assert(std::is_nothrow_move_constructible_v<pksk::AnyBackend>);
static_assert(std::is_copy_constructible_v<pksk::AnyBackend>);
// The table over the concrete backends keeps its compile-time format: nothing asked per item.
static_assert(pksk::detail::ConstantBodyFormat<pksk::sqlite::Backend>);

pksk::TableOptions options() {
  return {.indexes = {"gsi1"}};
}

Order order(std::string id, std::string status, double total) {
  return Order{.customer_id = "c1",
               .order_id = std::move(id),
               .status = std::move(status),
               .total = total,
               .items = {{support::numbered("sku-", static_cast<int>(total)), 1, total}},
               .note = total > 5 ? std::optional<std::string>("big \"one\"\n") : std::nullopt};
}

// What the scenario read, compared whole between the two tables.
struct Transcript {
  std::optional<Order> got;
  std::optional<Order> absent;
  std::vector<Customer> customers;
  std::vector<Order> orders;
  std::vector<std::string> unknown;  // pk|sk|type of unknown() items
  std::vector<std::vector<std::string>> pages;
  std::vector<std::optional<pksk::Cursor>> cursors;
  std::vector<Order> newest;
  Order updated;
  bool condition_failed = false;
  std::vector<pksk::CancellationReason> cancel_reasons;
  std::vector<Order> got_all;
  bool erased = false;
  bool erased_again = false;
  std::vector<Ticket> open_tickets;
  std::vector<Ticket> open_page;
  std::optional<pksk::Cursor> open_page_next;
  std::vector<Order> scanned;
  std::size_t scanned_tickets = 0;
  std::vector<std::string> lazily;  // each(), scan_each()
  std::vector<std::string> selected;
  std::size_t after_erase_all = 0;
  friend bool operator==(const Transcript&, const Transcript&) = default;
};

// The main API, written once, run on either table: a transcript of everything read.
template <class B>
Transcript scenario(pksk::Table<B>& table) {
  Transcript t;
  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "c1"});
  table.put(Customer{.id = "c1", .name = "Ada", .email = "ada@example.com"});
  for (int day = 1; day <= 9; ++day) {
    table.put(order(support::numbered("2024-01-0", day), day % 2 ? "shipped" : "pending", day));
  }
  table.put(Invoice{.customer_id = "c1", .number = "7", .amount = 3});

  t.got = table.get(Order{.customer_id = "c1", .order_id = "2024-01-03"});
  t.absent = table.get(Order{.customer_id = "c1", .order_id = "nope"});

  const auto all = table.template query<CustomerOrders>(pk);
  for (const Customer& c : all.template items<Customer>()) t.customers.push_back(c);
  for (const Order& o : all.template items<Order>()) t.orders.push_back(o);
  for (const pksk::RawItem& raw : all.unknown())
    t.unknown.push_back(raw.pk + "|" + raw.sk + "|" + raw.type);

  auto page = table.template query_page<Order>(pk, {.limit = 4});
  for (int pages_read = 0;; ++pages_read) {
    REQUIRE(pages_read < 1000);  // a cursor that never ends
    std::vector<std::string> ids;
    for (const Order& o : page.items) ids.push_back(o.order_id);
    t.pages.push_back(ids);
    t.cursors.push_back(page.next);
    if (!page.next) break;
    page = table.template query_page<Order>(pk, {.limit = 4, .start = *page.next});
  }
  const auto newest = table.template query<CustomerOrders>(pk, {.forward = false, .limit = 4});
  for (const Order& o : newest.template items<Order>()) t.newest.push_back(o);

  t.updated = table.update(Order{.customer_id = "c1", .order_id = "2024-01-02"},
                           pksk::set(&Order::status, "cancelled"), pksk::add(&Order::total, 0.5));
  try {
    table.put(order("2024-01-01", "again", 1), pksk::if_absent);
  } catch (const pksk::ConditionFailed&) {
    t.condition_failed = true;
  }
  try {
    table.transact()
        .put(order("2024-02-01", "new", 10))
        .check(Order{.customer_id = "c1", .order_id = "2024-01-04"}, pksk::if_absent)
        .commit();
  } catch (const pksk::TransactionCanceled& e) {
    t.cancel_reasons = e.reasons();
  }
  table.transact()
      .put(order("2024-02-02", "new", 11))
      .erase(Order{.customer_id = "c1", .order_id = "2024-01-09"})
      .commit();

  std::vector<Order> batch;
  for (int i = 0; i < 30; ++i)
    batch.push_back(order(support::numbered("2025-", 100 + i), "batch", i));
  table.put_all(batch);
  std::vector<Order> keys = {Order{.customer_id = "c1", .order_id = "2025-105"},
                             Order{.customer_id = "c1", .order_id = "absent"},
                             Order{.customer_id = "c1", .order_id = "2024-02-02"}};
  t.got_all = table.get_all(keys);
  t.erased = table.erase(Order{.customer_id = "c1", .order_id = "2025-110"});
  t.erased_again = table.erase(Order{.customer_id = "c1", .order_id = "2025-110"});

  for (int i = 0; i < 7; ++i) {
    table.put(
        Ticket{.id = std::to_string(i), .status = i % 3 ? "open" : "closed", .opened = 100 - i});
  }
  const pksk::PartitionKey open{"STATUS#open"};
  t.open_tickets = table.index("gsi1").template query<Ticket>(open);
  auto open_page = table.index("gsi1").template query_page<Ticket>(open, {.limit = 2});
  t.open_page = open_page.items;
  t.open_page_next = open_page.next;

  t.scanned = table.template scan<Order>({.filter = pksk::attr(&Order::total) >= 20.0});
  t.scanned_tickets = table.template scan<Ticket>().size();

  for (const auto& item : table.template each<CustomerOrders>(pk, {.limit = 7})) {
    t.lazily.push_back(std::visit([](const auto& e) { return pksk::sort_key(e); }, item));
  }
  for (const Ticket& ticket : table.template scan_each<Ticket>()) t.lazily.push_back(ticket.id);
  const auto slim = table.template query<CustomerOrders>(
      pk, {.select = pksk::members(&Customer::name, &Order::status)});
  for (const auto& item : slim) {
    std::visit(
        [&](const auto& e) {
          if constexpr (std::is_same_v<std::decay_t<decltype(e)>, Customer>) {
            t.selected.push_back(e.name + "|" + e.email);
          } else {
            t.selected.push_back(e.status + "|" + std::to_string(e.total));
          }
        },
        item);
  }
  table.erase_all(std::vector<Order>(batch.begin(), batch.begin() + 20));
  t.after_erase_all = table.template query<Order>(pk).size();
  return t;
}

TEST_CASE("Table<AnyBackend> over SQLite answers as Table<sqlite::Backend> does") {
  pksk::sqlite::Backend concrete_backend{":memory:"};
  pksk::Table concrete{concrete_backend, "shop", options()};
  static_assert(std::is_same_v<decltype(concrete), pksk::Table<pksk::sqlite::Backend>>);

  pksk::AnyBackend backend = pksk::sqlite::Backend{":memory:"};
  pksk::Table table{backend, "shop", options()};
  static_assert(std::is_same_v<decltype(table), pksk::Table<pksk::AnyBackend>>);

  const Transcript expected = scenario(concrete);
  const Transcript got = scenario(table);
  // The scenario did what it meant to: a check of the check.
  REQUIRE(expected.got);
  CHECK_FALSE(expected.absent);
  CHECK(expected.orders.size() == 9);
  CHECK(expected.unknown.size() == 1);
  CHECK(expected.pages.size() == 3);
  CHECK(expected.condition_failed);
  CHECK(expected.cancel_reasons.size() == 2);
  CHECK(expected.erased);
  CHECK_FALSE(expected.erased_again);
  CHECK(expected.got_all.size() == 2);
  CHECK(expected.open_tickets.size() == 4);
  CHECK(expected.open_page_next);
  CHECK(expected.scanned.size() == 10);
  CHECK(expected.lazily.size() == 39 + 7);  // every page of each(), then the tickets
  CHECK(expected.selected.size() == 39);
  CHECK(expected.after_erase_all == 38 - 19);  // 2025-110 was erased already

  CHECK(got.got == expected.got);
  CHECK(got.absent == expected.absent);
  CHECK(got.customers == expected.customers);
  CHECK(got.orders == expected.orders);
  CHECK(got.unknown == expected.unknown);
  CHECK(got.pages == expected.pages);
  CHECK(got.cursors == expected.cursors);
  CHECK(got.newest == expected.newest);
  CHECK(got.updated == expected.updated);
  CHECK(got.condition_failed == expected.condition_failed);
  CHECK(got.cancel_reasons == expected.cancel_reasons);
  CHECK(got.got_all == expected.got_all);
  CHECK(got.open_tickets == expected.open_tickets);
  CHECK(got.open_page == expected.open_page);
  CHECK(got.open_page_next == expected.open_page_next);
  CHECK(got.scanned == expected.scanned);
  CHECK(got.scanned_tickets == expected.scanned_tickets);
  CHECK(got.lazily == expected.lazily);
  CHECK(got.selected == expected.selected);
  CHECK(got.after_erase_all == expected.after_erase_all);
  CHECK(got == expected);

  // The format of the bodies is the SQLite backend's, asked at run time.
  const auto handle = backend.open_table(pksk::backend::TableSpec{"other"});
  CHECK(backend.body_format(handle) == pksk::BodyFormat::json);
  CHECK(handle.body_format() == pksk::BodyFormat::json);
  // A cursor of one table is refused by the other as it is by the concrete table.
  CHECK_THROWS_AS(
      table.query_page<Order>(pksk::partition(Customer{.id = "c2"}), {.start = *got.cursors[0]}),
      pksk::ValidationError);
}

TEST_CASE("errors from the held backend reach the caller with their own type") {
  pksk::AnyBackend backend = pksk::sqlite::Backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(order("o1", "new", 1));

  CHECK_THROWS_AS(table.put(order("o1", "again", 2), pksk::if_absent), pksk::ConditionFailed);
  CHECK_THROWS_AS(table.erase(Order{.customer_id = "c1", .order_id = "zz"}, pksk::exists),
                  pksk::ConditionFailed);
  try {
    table.transact()
        .put(order("o2", "new", 2))
        .put(order("o1", "again", 2), pksk::if_absent)
        .commit();
    FAIL("the transaction went through");
  } catch (const pksk::TransactionCanceled& e) {
    CHECK(e.reasons() ==
          std::vector{pksk::CancellationReason::none, pksk::CancellationReason::condition_failed});
  }
  CHECK_FALSE(table.get(Order{.customer_id = "c1", .order_id = "o2"}));
  // The backend's own checks: a table name SQLite refuses, an oversized item.
  CHECK_THROWS_AS(pksk::Table(backend, "bad name;"), pksk::ValidationError);
  CHECK_THROWS_AS(
      table.put(
          Order{.customer_id = "c1", .order_id = "big", .note = std::string(500 * 1024, 'x')}),
      pksk::ItemTooLarge);
  // A body the entity does not decode: DecodeError, raised by Table while the held backend's
  // row loop runs.
  table.put(Invoice{.customer_id = "c9", .number = "1", .amount = 1});
  pksk::sqlite::Backend* sqlite = backend.target<pksk::sqlite::Backend>();
  REQUIRE(sqlite != nullptr);
  CHECK(backend.target<pksk::AnyBackend>() == nullptr);
  REQUIRE(sqlite3_exec(sqlite->native_handle(),
                       "UPDATE shop SET body = '{\"number\": 5}' WHERE pk = 'CUSTOMER#c9'", nullptr,
                       nullptr, nullptr) == SQLITE_OK);
  CHECK_THROWS_AS(table.query<Invoice>(pksk::PartitionKey{"CUSTOMER#c9"}), pksk::DecodeError);
}

TEST_CASE("copies of an AnyBackend share the one backend; a moved-from one holds nothing") {
  pksk::AnyBackend first = pksk::sqlite::Backend{":memory:"};
  pksk::AnyBackend copy = first;
  CHECK(copy.target<pksk::sqlite::Backend>() == first.target<pksk::sqlite::Backend>());
  {
    pksk::Table table{first, "shop"};
    table.put(Customer{.id = "c1", .name = "Ada"});
  }
  pksk::Table through_copy{copy, "shop"};
  CHECK(through_copy.get(Customer{.id = "c1"})->name == "Ada");

  // The copy keeps the backend alive once the original is gone.
  first = pksk::AnyBackend{};
  CHECK_FALSE(first);
  CHECK(through_copy.get(Customer{.id = "c1"})->name == "Ada");

  pksk::AnyBackend moved = std::move(copy);
  CHECK(moved);
  CHECK_FALSE(copy);  // NOLINT(bugprone-use-after-move): what a moved-from one does is the test
  CHECK(misuse_code_of([&] { pksk::Table(copy, "shop"); }) == pksk::errc::misuse);
  CHECK_THROWS_WITH(copy.open_table(pksk::backend::TableSpec{"shop"}),
                    Catch::Contains("pksk::AnyBackend") && Catch::Contains("moved from"));
  // The Table over `copy` holds a handle from before the move: using it is an error, not UB.
  CHECK(misuse_code_of([&] { (void)through_copy.get(Customer{.id = "c1"}); }) ==
        pksk::errc::misuse);

  pksk::Table table{moved, "shop"};
  CHECK(table.get(Customer{.id = "c1"})->name == "Ada");

  // Move-assigned over a held backend: the old one is released, the new one taken.
  pksk::AnyBackend other = pksk::sqlite::Backend{":memory:"};
  moved = std::move(other);
  CHECK_FALSE(other);  // NOLINT(bugprone-use-after-move)
  pksk::Table fresh{moved, "shop"};
  CHECK_FALSE(fresh.get(Customer{.id = "c1"}));
}

TEST_CASE("a default-constructed AnyBackend, or an empty handle, is an error when used") {
  pksk::AnyBackend none;
  CHECK_FALSE(none);
  CHECK(none.target<pksk::sqlite::Backend>() == nullptr);
  CHECK(misuse_code_of([&] { pksk::Table(none, "shop"); }) == pksk::errc::misuse);
  CHECK_THROWS_WITH(none.open_table(pksk::backend::TableSpec{"shop"}),
                    Catch::Contains("holds no backend"));

  pksk::AnyBackend backend = pksk::sqlite::Backend{":memory:"};
  const pksk::AnyBackend::TableHandle empty;
  std::vector<std::size_t> unprocessed;
  CHECK_THROWS_WITH(backend.get(empty, {"p", "s"}, [](const pksk::backend::ItemView&) {}),
                    Catch::Contains("empty TableHandle"));
  CHECK(misuse_code_of([&] {
          backend.put(empty,
                      pksk::backend::PutRequest{pksk::backend::ItemView{"p", "s", "T", "{}", 10}});
        }) == pksk::errc::misuse);
  CHECK(misuse_code_of([&] { backend.batch_write(empty, {}, unprocessed); }) == pksk::errc::misuse);
  // A handle used with an AnyBackend that holds nothing: the missing backend is named first.
  const auto handle = backend.open_table(pksk::backend::TableSpec{"shop"});
  CHECK_THROWS_WITH(none.erase(handle, pksk::backend::EraseRequest{{"p", "s"}}),
                    Catch::Contains("holds no backend"));
}

// A backend of another type: its handles are refused by an AnyBackend holding SQLite, and it
// answers its format at run time through AnyBackend too.
struct Recording {
  struct TableHandle {
    int id = 0;
  };
  static constexpr pksk::BodyFormat body_format = pksk::BodyFormat::attribute_value;
  std::map<std::string, int>* calls;
  std::vector<pksk::backend::TableSpec>* specs =
      nullptr;  // the specs open_table is given, if wanted

  TableHandle open_table(const pksk::backend::TableSpec& spec) {
    if (specs != nullptr) specs->push_back(spec);
    return {++(*calls)["open_table"]};
  }
  bool get(TableHandle&, pksk::backend::ItemKey, pksk::backend::ItemVisitor) {
    return ++(*calls)["get"], false;
  }
  pksk::backend::QueryOutcome query(TableHandle&, const pksk::backend::RawQuery&,
                                    pksk::backend::ItemVisitor visit) {
    ++(*calls)["query"];
    for (int i = 0; i < 3; ++i) visit(pksk::backend::ItemView{"p", "s", "T", "{}", 4});
    return {.evaluated = 3};
  }
  pksk::backend::ScanOutcome scan(TableHandle&, const pksk::backend::RawScan&,
                                  pksk::backend::ItemVisitor) {
    return ++(*calls)["scan"], pksk::backend::ScanOutcome{};
  }
  void put(TableHandle&, const pksk::backend::PutRequest&) { ++(*calls)["put"]; }
  void update(TableHandle&, const pksk::backend::UpdateRequest&, pksk::backend::ItemVisitor) {
    ++(*calls)["update"];
  }
  bool erase(TableHandle&, const pksk::backend::EraseRequest&) { return ++(*calls)["erase"], true; }
  void transact(TableHandle&, std::span<const pksk::backend::WriteRequest>) {
    ++(*calls)["transact"];
  }
  void batch_write(TableHandle&, std::span<const pksk::backend::WriteRequest>,
                   std::vector<std::size_t>&) {
    ++(*calls)["batch_write"];
  }
  void batch_get(TableHandle&, std::span<const pksk::backend::ItemKey>,
                 pksk::backend::IndexedItemVisitor, std::vector<std::size_t>&) {
    ++(*calls)["batch_get"];
  }
};
static_assert(pksk::Backend<Recording>);

TEST_CASE("a backend is never given the table's cursor_key, which the table keeps and signs with") {
  std::map<std::string, int> calls;
  std::vector<pksk::backend::TableSpec> specs;
  Recording recording{&calls, &specs};
  pksk::Table table{recording, "t", pksk::TableOptions{.indexes = {"gsi1"}, .cursor_key = "k"}};
  REQUIRE(specs.size() == 1);
  CHECK(specs[0].name == "t");
  CHECK(specs[0].indexes.size() == 1);
  CHECK(specs[0].cursor_key.empty());
  CHECK(table.options().cursor_key == "k");
}

TEST_CASE("each operation reaches the held backend once; rows reach the visitor unchanged") {
  std::map<std::string, int> calls;
  Recording recording{&calls};
  pksk::AnyBackend backend = pksk::AnyBackend::ref(recording);  // owns nothing
  CHECK(backend.target<Recording>() == &recording);
  const auto handle = backend.open_table(pksk::backend::TableSpec{"t"});
  CHECK(backend.body_format(handle) == pksk::BodyFormat::attribute_value);

  int rows = 0;
  const pksk::backend::QueryOutcome outcome =
      backend.query(handle, pksk::backend::RawQuery{.pk = "p"},
                    [&](const pksk::backend::ItemView& row) { rows += row.type == "T" ? 1 : 0; });
  CHECK(rows == 3);
  CHECK(outcome.evaluated == 3);
  CHECK_FALSE(backend.get(handle, {"p", "s"}, [](const pksk::backend::ItemView&) {}));
  CHECK(backend.erase(handle, {}));
  std::vector<std::size_t> unprocessed;
  backend.batch_write(handle, {}, unprocessed);
  backend.batch_get(
      handle, {}, [](std::size_t, const pksk::backend::ItemView&) {}, unprocessed);
  backend.transact(handle, {});
  backend.put(handle, {});
  backend.update(handle, {}, [](const pksk::backend::ItemView&) {});
  (void)backend.scan(handle, {}, [](const pksk::backend::ItemView&) {});
  CHECK(calls == std::map<std::string, int>{{"batch_get", 1},
                                            {"batch_write", 1},
                                            {"erase", 1},
                                            {"get", 1},
                                            {"open_table", 1},
                                            {"put", 1},
                                            {"query", 1},
                                            {"scan", 1},
                                            {"transact", 1},
                                            {"update", 1}});

  // A handle of a Recording is not a SQLite backend's handle.
  pksk::AnyBackend sqlite = pksk::sqlite::Backend{":memory:"};
  CHECK_THROWS_WITH(sqlite.put(handle, {}), Catch::Contains("another type"));
  // Nor is a SQLite handle of one backend usable with another SQLite backend: the backend
  // itself says so, as for its own handles.
  pksk::AnyBackend sqlite2 = pksk::sqlite::Backend{":memory:"};
  const auto sqlite_handle = sqlite.open_table(pksk::backend::TableSpec{"t"});
  CHECK(misuse_code_of([&] {
          sqlite2.put(sqlite_handle,
                      pksk::backend::PutRequest{pksk::backend::ItemView{"p", "s", "T", "{}", 10}});
        }) == pksk::errc::misuse);
}

TEST_CASE("transact_get reaches a held backend that has it; one that has not is a misuse") {
  static_assert(!pksk::TransactGetBackend<Recording>);
  std::map<std::string, int> calls;
  Recording recording{&calls};
  pksk::AnyBackend without = pksk::AnyBackend::ref(recording);
  pksk::Table table{without, "t"};
  CHECK(misuse_code_of([&] { (void)table.transact_get(Customer{.id = "1"}); }) ==
        pksk::errc::misuse);
  CHECK_THROWS_WITH(table.transact_get(Customer{.id = "1"}),
                    Catch::Contains("has no transact_get operation"));

  pksk::AnyBackend sqlite = pksk::sqlite::Backend{":memory:"};
  pksk::Table shop{sqlite, "shop"};
  shop.put(Customer{.id = "1", .name = "Ada"});
  const auto [ada, nobody] = shop.transact_get(Customer{.id = "1"}, Customer{.id = "2"});
  REQUIRE(ada);
  CHECK(ada->name == "Ada");
  CHECK_FALSE(nobody);
}

TEST_CASE("an AnyBackend can share a backend owned by a shared_ptr") {
  auto shared = std::make_shared<pksk::sqlite::Backend>(":memory:");
  pksk::AnyBackend backend{shared};
  CHECK(backend.target<pksk::sqlite::Backend>() == shared.get());
  pksk::Table concrete{*shared, "shop"};
  pksk::Table table{backend, "shop"};
  concrete.put(Customer{.id = "c1", .name = "Ada"});
  CHECK(table.get(Customer{.id = "c1"})->name == "Ada");
  CHECK_FALSE(pksk::AnyBackend{std::shared_ptr<pksk::sqlite::Backend>{}});
}

// The room of DynamoDB's semantics any backend that is not DynamoDB calls (backend/
// emulation.hpp): what a new backend, or a test double that stores items itself, refuses and
// how it says so, as the SQLite backend does.
TEST_CASE("the emulation room refuses as DynamoDB does, in the backends' message style") {
  namespace emu = pksk::backend::emulation;
  CHECK_NOTHROW(emu::check_item_key("mem", "t", "put", {"p", "s"}));
  CHECK_THROWS_WITH(emu::check_item_key("mem", "t", "put", {"", "s"}),
                    "pksk table 't' (mem), put: the partition key is empty (pk '', sk 's')");
  const std::string long_sk(pksk::max_sort_key_size + 1, 's');
  CHECK_THROWS_WITH(emu::check_item_key("mem", "t", "put", {"p", long_sk}),
                    "pksk table 't' (mem), put: the sort key is 1025 bytes, over DynamoDB's "
                    "limit of 1024");
  CHECK_THROWS_AS(emu::check_query_key("mem", "t", pksk::backend::RawQuery{}),
                  pksk::ValidationError);
  CHECK_THROWS_WITH(
      emu::check_query_key("mem", "t", pksk::backend::RawQuery{.pk = "", .index = "gsi1"}),
      "pksk table 't' (mem), query on index 'gsi1': the partition key is empty");
  CHECK_NOTHROW(emu::check_item_size("mem", "t", "update", {"p", "s"}, pksk::max_item_bytes));
  CHECK_THROWS_AS(emu::check_item_size("mem", "t", "update", {"p", "s"}, pksk::max_item_bytes + 1),
                  pksk::ItemTooLarge);
  using R = pksk::CancellationReason;
  const pksk::TransactionCanceled canceled =
      emu::transaction_canceled("mem", "t", {R::none, R::condition_failed});
  CHECK(canceled.reasons() == std::vector<R>{R::none, R::condition_failed});
  CHECK(std::string(canceled.what()) ==
        "pksk table 't' (mem), transaction: canceled, reasons [none, condition failed]");
}

}  // namespace anyb
