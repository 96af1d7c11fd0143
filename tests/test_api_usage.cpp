// SPDX-License-Identifier: BSL-1.0
// The usage the docs document (entities and keys, tables, writes, indexes, someone else's table,
// unique members, shards, ULIDs and TTL) as written: plain structs with no operator==, no
// macro, designated initializers that leave members out. If this file stops compiling, the contract
// broke.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>
#include "support/numbered.hpp"

namespace api {
struct LineItem {
  std::string sku;
  int qty{};
  double price{};
};
struct Customer {
  std::string id;
  std::string name;
  std::string email;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
};
// The Ticket of docs/indexes.md.
struct Ticket {
  std::string event;
  std::string ticket;
  std::string attendee;
  double price{};
  std::optional<std::string> refund;  // set only when a refund is requested
};
// Not in the docs, which leave it to the reader: an attendee's profile in "gsi1".
struct Attendee {
  std::string attendee;
  std::string name;
};
struct Event {
  std::string event;
  std::string name;
};
}  // namespace api

template <>
struct pksk::Entity<api::Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "TICKET#{ticket}";
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "ATTENDEE#{attendee}", "TICKET#{ticket}"},
      pksk::Index{"refunds", "REFUNDS#{event}", "{refund}"}};  // optional member: sparse per item
};
template <>
struct pksk::Entity<api::Attendee> {
  static constexpr std::string_view type = "Attendee";
  static constexpr std::string_view pk = "ATTENDEE#{attendee}";
  static constexpr std::string_view sk = "PROFILE";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "ATTENDEE#{attendee}", "PROFILE"}};
};
template <>
struct pksk::Entity<api::Event> {
  static constexpr std::string_view type = "Event";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "EVENT";
};

template <>
struct pksk::Entity<api::Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<api::Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

using namespace api;

TEST_CASE("the documented usage, tables and collections, compiles and behaves as written") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};

  table.put(Customer{.id = "123", .name = "Ada", .email = "ada@example.com"});
  table.put(
      Order{.customer_id = "123", .order_id = "2020-12-06", .status = "shipped", .total = 59.98});
  table.put(Order{.customer_id = "123",
                  .order_id = "2020-12-01",
                  .status = "paid",
                  .total = 10,
                  .items = {{.sku = "A-1", .qty = 2, .price = 5}}});

  std::optional<Order> o = table.get(Order{.customer_id = "123", .order_id = "2020-12-06"});
  REQUIRE(o);
  CHECK(o->status == "shipped");
  CHECK(o->total == 59.98);
  CHECK_FALSE(o->note);

  using CustomerOrders = pksk::ItemCollection<Customer, Order>;
  pksk::PartitionKey pk = pksk::partition(Customer{.id = "123"});
  CHECK(pk.value == "CUSTOMER#123");

  CustomerOrders all = table.query<CustomerOrders>(pk);
  const Customer* c = all.first<Customer>();
  REQUIRE(c != nullptr);
  CHECK(c->email == "ada@example.com");
  std::vector<std::string> ids;
  for (const Order& order : all.items<Order>()) ids.push_back(order.order_id);
  CHECK(ids == std::vector<std::string>{"2020-12-01", "2020-12-06"});
  std::size_t visited = 0;
  for (const auto& item : all) visited += std::holds_alternative<Order>(item) ? 1 : 10;
  CHECK(visited == 12);
  CHECK(all.size() == 3);
  CHECK(all.count<Order>() == 2);
  CHECK(all.unknown().empty());

  // A value type, though Customer and Order declare no operator==: compared member by member,
  // down to a line item's price.
  CustomerOrders other = all;
  CHECK(all == other);
  table.put(Order{.customer_id = "123",
                  .order_id = "2020-12-01",
                  .status = "paid",
                  .total = 10,
                  .items = {{.sku = "A-1", .qty = 2, .price = 5.01}}});
  CHECK_FALSE(all == table.query<CustomerOrders>(pk));
  CHECK(other == all);

  std::vector<Order> orders = table.query<Order>(pk);
  CHECK(orders.size() == 2);
  CustomerOrders newest = table.query<CustomerOrders>(pk, {.forward = false, .limit = 2});
  REQUIRE(newest.size() == 2);
  CHECK(newest.first<Customer>() != nullptr);
  CHECK(newest.items<Order>().front().order_id == "2020-12-06");
  std::vector<Order> dec =
      table.query<Order>(pk, {.sk = pksk::between("#ORDER#2020-12-01", "#ORDER#2020-12-31")});
  CHECK(dec.size() == 2);

  pksk::Page<CustomerOrders> page = table.query_page<CustomerOrders>(pk, {.limit = 2});
  REQUIRE(page.next);
  std::string token = page.next->to_string();
  std::size_t seen = page.items.size();
  while (page.next) {
    page = table.query_page<CustomerOrders>(pk, {.limit = 2, .start = *page.next});
    seen += page.items.size();
  }
  CHECK(seen == 3);
  pksk::Page<std::vector<Order>> rest =
      table.query_page<Order>(pk, {.start = pksk::Cursor::parse(token)});
  CHECK(rest.items.empty());  // the first page already held both orders
  CHECK_FALSE(rest.next);

  table.erase(Order{.customer_id = "123", .order_id = "2020-12-06"});
  CHECK_FALSE(table.get(Order{.customer_id = "123", .order_id = "2020-12-06"}));
}

TEST_CASE("the documented usage, writes beyond put, as written") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  const Customer c{.id = "123", .name = "Ada", .email = "ada@example.com"};
  const Order o{.customer_id = "123",
                .order_id = "2020-12-06",
                .status = "pending",
                .total = 59.98,
                .note = "gift"};

  table.put(c, pksk::if_absent);
  CHECK_THROWS_AS(table.put(Customer{.id = "123", .name = "Bob"}, pksk::if_absent),
                  pksk::ConditionFailed);
  CHECK(table.get(Customer{.id = "123"})->name == "Ada");  // the refused put wrote nothing
  table.put(o);
  table.put(o, pksk::when(pksk::attr(&Order::status) == "pending"));
  Order updated = table.update(Order{.customer_id = "123", .order_id = "2020-12-06"},
                               pksk::set(&Order::status, "shipped"), pksk::add(&Order::total, 5.0),
                               pksk::remove(&Order::note));
  CHECK(updated.status == "shipped");
  CHECK(updated.total == 64.98);
  CHECK_FALSE(updated.note);
  CHECK_THROWS_AS(table.put(o, pksk::when(pksk::attr(&Order::status) == "pending")),
                  pksk::ConditionFailed);

  table.put(Order{.customer_id = "123", .order_id = "2020-12-01", .status = "old"});
  table.transact()
      .put(Customer{.id = "124", .name = "Bo"})
      .update(Order{.customer_id = "123", .order_id = "2020-12-06"},
              pksk::set(&Order::status, "paid"))
      .erase(Order{.customer_id = "123", .order_id = "2020-12-01"})
      .check(Customer{.id = "123"}, pksk::exists)
      .commit();
  CHECK(table.get(Customer{.id = "124"}));
  CHECK(table.get(Order{.customer_id = "123", .order_id = "2020-12-06"})->status == "paid");
  CHECK_FALSE(table.get(Order{.customer_id = "123", .order_id = "2020-12-01"}));
  // All or nothing: a failed check leaves the put undone.
  CHECK_THROWS_AS(table.transact()
                      .put(Customer{.id = "125", .name = "Cy"})
                      .check(Customer{.id = "999"}, pksk::exists)
                      .commit(),
                  pksk::TransactionCanceled);
  CHECK_FALSE(table.get(Customer{.id = "125"}));

  std::vector<Order> orders;
  for (int day = 10; day < 20; ++day) {
    orders.push_back(Order{.customer_id = "123",
                           .order_id = support::numbered("2020-12-", day),
                           .status = "pending",
                           .total = static_cast<double>(day)});
  }
  table.put_all(orders);
  std::vector<Order> keys{Order{.customer_id = "123", .order_id = "2020-12-12"},
                          Order{.customer_id = "123", .order_id = "2020-12-06"},
                          Order{.customer_id = "123", .order_id = "2020-12-31"}};  // absent
  std::vector<Order> got = table.get_all(keys);
  std::vector<std::string> got_ids;
  for (const Order& g : got) got_ids.push_back(g.order_id);
  std::sort(got_ids.begin(), got_ids.end());
  CHECK(got_ids == std::vector<std::string>{"2020-12-06", "2020-12-12"});
  CHECK(table.query<Order>(pksk::partition(c)).size() == 11);
}

TEST_CASE("the documented usage, a secondary index over tickets, as written") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "tickets", {.indexes = {"gsi1", "refunds"}}};
  table.put(Attendee{.attendee = "ada", .name = "Ada"});
  table.put(Event{.event = "e1", .name = "Jazz"});
  for (const char* id : {"t1", "2024-t2", "2024-t3"}) {
    table.put(Ticket{.event = "e1", .ticket = id, .attendee = "ada", .price = 10});
  }
  table.put(Ticket{.event = "e2", .ticket = "t9", .attendee = "bob", .refund = "asked"});
  const pksk::PartitionKey pk = pksk::partition(Ticket{.event = "e1"});

  pksk::PartitionKey mine = pksk::partition<"gsi1">(Ticket{.attendee = "ada"});  // "ATTENDEE#ada"
  CHECK(mine.value == "ATTENDEE#ada");
  auto some = table.index("gsi1").query<Ticket>(
      mine, {.sk = pksk::sort_key_of<Ticket, "gsi1">::begins_with<&Ticket::ticket>("2024")});
  CHECK(some.size() == 2);
  auto both = table.index("gsi1").query<pksk::ItemCollection<Attendee, Ticket>>(mine);
  CHECK(both.size() == 4);
  std::size_t n = table.count<Ticket>(pksk::partition(Ticket{.event = "e1"}));  // Select=COUNT
  CHECK(n == 3);
  CHECK(table.index("gsi1").count<Ticket>(mine) == 3);
  auto fresh = table.query<Ticket>(pk, {.consistent = true});  // ConsistentRead
  CHECK(fresh.size() == 3);
  auto lenient = table.query<pksk::ItemCollection<Event, Ticket>>(pk, {.keep_undecodable = true});
  CHECK(lenient.size() == 4);
  // Sparse per item: only the ticket with a refund is in "refunds".
  CHECK(table.index("refunds")
            .query<Ticket>(pksk::partition<"refunds">(Ticket{.event = "e2"}))
            .size() == 1);
  CHECK(table.index("refunds").count<Ticket>(pksk::partition<"refunds">(Ticket{.event = "e1"})) ==
        0);
}

// §7: a table someone else designed.
namespace api7 {
// The classic layout (seed 004): PK, SK, Type, CustomerId, OrderId.
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
};
}  // namespace api7
template <>
struct pksk::Entity<api7::Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;  // customer_id -> CustomerId
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};  // one member by name
};

TEST_CASE("the documented usage, a table someone else designed, as written") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table classic{
      backend, "classic", {.pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "Type"}};

  using Order = api7::Order;
  const Order o{
      .customer_id = "123", .order_id = "2020-12-06", .status = "shipped", .amount = 59.98};
  classic.put(o);
  std::string body;
  pksk::encode_body(o, body);
  CHECK(body == R"({"CustomerId":"123","OrderId":"2020-12-06","Status":"shipped","Total":59.98})");

  // Key templates and member pointers keep using the C++ names.
  const std::optional<Order> got =
      classic.get(Order{.customer_id = "123", .order_id = "2020-12-06"});
  REQUIRE(got);
  CHECK(got->amount == 59.98);
  CHECK(got->status == "shipped");
  const pksk::PartitionKey pk = pksk::partition(o);
  CHECK(pk.value == "CUSTOMER#123");
  CHECK(classic.query<Order>(pk, {.filter = pksk::attr(&Order::amount) > 50.0}).size() == 1);
  CHECK(classic.query<Order>(pk, {.filter = pksk::attr(&Order::amount) > 60.0}).empty());
  const Order updated = classic.update(Order{.customer_id = "123", .order_id = "2020-12-06"},
                                       pksk::add(&Order::amount, 5.0));
  CHECK(updated.amount == 64.98);
}

// §8 in part: unique members, a sharded write and ULIDs as written (compressed and chunked
// members are not in this file yet; time-to-live and table statistics are below).
namespace api8 {
struct Account {
  std::string id;
  std::string email;
};
struct Sale {
  std::string sku;
  std::string order;
  double amount{};
};
}  // namespace api8
template <>
struct pksk::Entity<api8::Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email"};  // guard items, same transaction
};
template <>
struct pksk::Entity<api8::Sale> {  // write sharding (seed 000)
  static constexpr std::string_view type = "Sale";
  static constexpr std::string_view pk = "PRODUCT#{sku}#{order:shard(8)}";  // stable hash 0..7
  static constexpr std::string_view sk = "{order}";
};

TEST_CASE("the documented usage, unique members, shards and ULIDs, as written") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  using api8::Account;
  using api8::Sale;

  table.put(Account{.id = "1", .email = "ada@example.com"});
  CHECK_THROWS_AS(table.put(Account{.id = "2", .email = "ada@example.com"}), pksk::ConditionFailed);
  table.put(Account{.id = "2", .email = "grace@example.com"});

  std::vector<std::string> orders;
  for (int i = 0; i < 60; ++i) {
    std::string id = pksk::ulid();  // 26 chars, sortable, monotonic
    CHECK(id.size() == 26);
    table.put(Sale{.sku = "p1", .order = id, .amount = 1.0 * i});
    orders.push_back(std::move(id));
  }
  CHECK(std::is_sorted(orders.begin(), orders.end()));
  auto top = table.query_shards<Sale>(Sale{.sku = "p1"}, {.forward = false, .limit = 50});
  REQUIRE(top.size() == 50);
  for (std::size_t i = 0; i < top.size(); ++i) CHECK(top[i].order == orders[59 - i]);
}

// §8 in part: a time-bucketed entity with a time-to-live member, and table statistics.
namespace api8 {
struct Reading {
  std::string device;
  std::chrono::system_clock::time_point at;
  double value{};
  std::chrono::system_clock::time_point expires;
};
}  // namespace api8
template <>
struct pksk::Entity<api8::Reading> {  // time buckets (seed 000)
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}#{at:month}";  // at: time_point -> 2024-02
  static constexpr std::string_view sk = "{at}";
  static constexpr std::string_view ttl = "expires";  // time_point member; expired: never read
};

TEST_CASE("the documented usage, a ttl member and table statistics, as written") {
  using api8::Reading;
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "readings", {.ttl_attribute = "expires"}};
  const auto now = std::chrono::system_clock::now();
  const auto at = std::chrono::sys_days{std::chrono::year{2024} / 2 / 10};
  table.put(Reading{.device = "d1", .at = at, .value = 1, .expires = now + std::chrono::hours(1)});
  table.put(Reading{.device = "d1",
                    .at = at + std::chrono::hours(1),
                    .value = 2,
                    .expires = now - std::chrono::hours(1)});
  CHECK(table.get(Reading{.device = "d1", .at = at}));
  CHECK_FALSE(table.get(Reading{.device = "d1", .at = at + std::chrono::hours(1)}));
  pksk::TableStats stats = table.stats();  // per-collection counts and bytes
  CHECK(stats.items == 1);
  REQUIRE(stats.largest.size() == 1);
  CHECK(stats.largest[0].pk == "DEVICE#d1#2024-02");
}

// Features that compose: a booking hold both unique and expiring, and versioned, written in a
// transaction beside another entity's update; maintenance on the table.
namespace api10 {
struct Hold {
  std::string id;
  std::string slot;
  std::chrono::system_clock::time_point expires;
  int rev{};
};
struct Pet {
  std::string id;
  int visits{};
};
}  // namespace api10
template <>
struct pksk::Entity<api10::Hold> {  // a booking hold: unique and expiring
  static constexpr std::string_view type = "Hold";
  static constexpr std::string_view pk = "HOLD#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"slot"};
  static constexpr std::string_view ttl = "expires";
  static constexpr std::string_view version = "rev";
};
template <>
struct pksk::Entity<api10::Pet> {
  static constexpr std::string_view type = "Pet";
  static constexpr std::string_view pk = "PET#{id}";
  static constexpr std::string_view sk = "A";
};

TEST_CASE("the documented usage, features that compose, as written") {
  using api10::Hold;
  using api10::Pet;
  auto now = std::chrono::system_clock::now();
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{
      backend, "clinic", {.ttl_attribute = "expires", .ttl_clock = [&] { return now; }}};
  const Pet pet{.id = "rex"};
  table.put(pet);
  Hold hold{.id = "h1", .slot = "mon-9am", .expires = now + std::chrono::minutes(15)};
  table.transact()
      .put(hold)
      .update(pet, pksk::add(&Pet::visits, 1))
      .commit();  // unique in a transaction
  CHECK(hold.rev == 1);
  CHECK(table.get(Pet{.id = "rex"})->visits == 1);
  CHECK_THROWS_AS(
      table.put(Hold{.id = "h2", .slot = "mon-9am", .expires = now + std::chrono::hours(1)}),
      pksk::ConditionFailed);

  now += std::chrono::minutes(20);  // h1 expired: its slot can be held again
  table.put(Hold{.id = "h2", .slot = "mon-9am", .expires = now + std::chrono::hours(1)});
  auto m = pksk::maintenance(table);   // any backend, AnyBackend included
  CHECK(m.sweep_expired() == 1);       // SQLite: deletes expired items
  CHECK(m.sweep_guards() == 0);        // h1's guard was taken over by h2
  pksk::TableStats stats = m.stats();  // table.stats() keeps compiling
  CHECK(stats.items == table.stats().items);
}
