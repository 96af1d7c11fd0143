// SPDX-License-Identifier: BSL-1.0
// Writes with DynamoDB's guarantees on the SQLite backend: conditions, updates, transactions,
// batches, optimistic locking, the item size limit.

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>
#include "support/forwarding_backend.hpp"
#include "support/numbered.hpp"

namespace {

enum class Priority { low, high };
struct Address {
  std::string city;
  int zip{};
};
struct LineItem {
  std::string sku;
  int qty{};
  double price{};
};
// One member of every kind a condition or an update can reach.
struct Account {
  std::string id;
  std::string name;
  long long balance{};
  double rate{};
  bool active{};
  Priority priority{};
  std::optional<std::string> note;
  std::vector<LineItem> items;
  std::vector<std::string> labels;
  std::map<std::string, int> counters;
  std::set<std::string> tags;
  Address address;
};
struct Cart {
  std::string id;
  int rev{};
  std::vector<std::string> skus;
};
struct Blob {
  std::string id;
  std::string data;
};
struct Counter {
  std::string id;
  long long hits{};
};
// Key members of each kind: a string, an enum, a signed integer.
struct Shipment {
  std::string customer;
  Priority priority{};
  int seq{};
  std::string status;
};

}  // namespace

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Cart> {
  static constexpr std::string_view type = "Cart";
  static constexpr std::string_view pk = "CART#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::string_view version = "rev";
};
template <>
struct pksk::Entity<Blob> {
  static constexpr std::string_view type = "Blob";
  static constexpr std::string_view pk = "B#{id}";
  static constexpr std::string_view sk = "B";
};
template <>
struct pksk::Entity<Shipment> {
  static constexpr std::string_view type = "Shipment";
  static constexpr std::string_view pk = "CUSTOMER#{customer}";
  static constexpr std::string_view sk = "SHIPMENT#{priority}#{seq}";
};
template <>
struct pksk::Entity<Counter> {
  static constexpr std::string_view type = "Counter";
  static constexpr std::string_view pk = "C#{id}";
  static constexpr std::string_view sk = "C";
};

namespace {

using pksk::attr;

Account sample() {
  return Account{.id = "1",
                 .name = "Ada Lovelace",
                 .balance = 100,
                 .rate = 2.5,
                 .active = true,
                 .priority = Priority::high,
                 .note = std::nullopt,
                 .items = {{"apple", 2, 0.5}, {"pear", 1, 0.75}},
                 .labels = {"x", "y"},
                 .counters = {{"a", 1}},
                 .tags = {"gold", "vip"},
                 .address = {"Paris", 75001}};
}

struct Fixture {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table<pksk::sqlite::Backend> table{backend, "t"};
  Fixture() { table.put(sample()); }

  // Every row of the table, byte for byte.
  std::string dump() {
    std::string out;
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(backend.native_handle(),
                       "SELECT pk, sk, type, body, size FROM t ORDER BY pk, sk", -1, &s, nullptr);
    while (sqlite3_step(s) == SQLITE_ROW) {
      for (int c = 0; c < 5; ++c) {
        out += reinterpret_cast<const char*>(sqlite3_column_text(s, c));
        out += '|';
      }
      out += '\n';
    }
    sqlite3_finalize(s);
    return out;
  }
};

struct TempFile {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               (support::numbered("pksk_writes_", ::getpid()) + ".db");
  TempFile() { remove(); }
  ~TempFile() { remove(); }
  void remove() {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  }
};

}  // namespace

// Every condition operator on each member kind is a case of the conformance suite
// (tests/conformance/cases.hpp), which runs it on this backend and on DynamoDB Local.

TEST_CASE("conditions typed by the member; bad operands are ValidationErrors", "[writes]") {
  // attr(&Account::balance) == "x" does not compile: one error naming Account, the member's
  // type and the value's (tests/compile_fail/filter_value_wrong_type.cpp and
  // condition_value_wrong_type.cpp). Any number compares with a number member, as given.
  const auto value = [](const pksk::Expr<Account>& e) { return e.node.operands.at(1).value; };
  CHECK(value(attr(&Account::balance) == 5) == pksk::AttributeValue::from_number("5"));
  CHECK(value(attr(&Account::balance) < 2.5) == pksk::AttributeValue::from_number("2.5"));
  CHECK(value(attr(&Account::rate) >= 2u) == pksk::AttributeValue::from_number("2"));
  CHECK(value(attr(&Account::name) == std::string_view{"Ada"}) ==
        pksk::AttributeValue::from_string("Ada"));
  CHECK(value(attr(&Account::priority) == Priority::high) ==
        pksk::AttributeValue::from_string("high"));
  CHECK(value(attr(&Account::active) == true) == pksk::AttributeValue::from_bool(true));
  CHECK_THROWS_AS(pksk::between(attr(&Account::balance), 5, 4), pksk::ValidationError);
  CHECK_THROWS_AS(pksk::between(attr(&Account::name), "b", "a"), pksk::ValidationError);
  CHECK_THROWS_AS(pksk::in(attr(&Account::balance), {}), pksk::ValidationError);
}

TEST_CASE("put conditions: if_absent, exists, when; a failed one writes nothing", "[writes]") {
  Fixture f;
  const std::string before = f.dump();
  Account changed = sample();
  changed.name = "Grace";
  try {
    f.table.put(changed, pksk::if_absent);
    FAIL("if_absent put over an existing item");
  } catch (const pksk::ConditionFailed& e) {
    CHECK_THAT(e.what(), Catch::Contains("pksk table 't' (sqlite), put of pk 'ACCOUNT#1'") &&
                             Catch::Contains("attribute_not_exists(pk)"));
  }
  CHECK_THROWS_AS(f.table.put(changed, pksk::when(attr(&Account::balance) > 1000)),
                  pksk::ConditionFailed);
  CHECK(f.dump() == before);
  CHECK_THROWS_AS(f.table.put(Account{.id = "2"}, pksk::exists), pksk::ConditionFailed);
  CHECK_FALSE(f.table.get(Account{.id = "2"}));
  f.table.put(Account{.id = "2"}, pksk::if_absent);
  f.table.put(changed, pksk::exists, pksk::when(attr(&Account::balance) == 100));
  CHECK(f.table.get(Account{.id = "1"})->name == "Grace");
  // A condition on an absent item sees no attributes at all.
  CHECK_THROWS_AS(f.table.put(Account{.id = "3"}, pksk::when(attr(&Account::balance) == 0)),
                  pksk::ConditionFailed);
  CHECK(f.table.erase(Account{.id = "2"}, pksk::when(attr(&Account::balance) == 0)));
  CHECK_THROWS_AS(f.table.erase(Account{.id = "1"}, pksk::when(attr(&Account::balance) == 0)),
                  pksk::ConditionFailed);
  CHECK(f.table.get(Account{.id = "1"}));
}

TEST_CASE("every update action on each member kind, absent members included", "[writes]") {
  Fixture f;
  const Account key{.id = "1"};
  Account a =
      f.table.update(key, pksk::set(&Account::name, "Grace"), pksk::add(&Account::balance, 25LL),
                     pksk::add(&Account::rate, 0.25), pksk::set(&Account::active, false),
                     pksk::set(&Account::priority, Priority::low));
  CHECK(a.name == "Grace");
  CHECK(a.balance == 125);
  CHECK(a.rate == 2.75);
  CHECK_FALSE(a.active);
  CHECK(a.priority == Priority::low);

  // Optional: set, then remove; if_not_exists only fills what is absent.
  a = f.table.update(key, pksk::if_not_exists(&Account::note, "first"));
  CHECK(a.note == "first");
  a = f.table.update(key, pksk::if_not_exists(&Account::note, "second"));
  CHECK(a.note == "first");
  a = f.table.update(key, pksk::remove(&Account::note));
  CHECK_FALSE(a.note);
  CHECK(f.dump().find("note") == std::string::npos);  // absent, not null

  // Lists: append one, append many, set and remove an element, a nested member.
  a = f.table.update(key, pksk::append(&Account::items, LineItem{"fig", 3, 1.0}));
  REQUIRE(a.items.size() == 3);
  CHECK(a.items[2].sku == "fig");
  a = f.table.update(key, pksk::append(&Account::labels, std::vector<std::string>{"z", "w"}));
  CHECK(a.labels == std::vector<std::string>{"x", "y", "z", "w"});
  // A braced list of two literals is the list, not one std::string made from two iterators.
  a = f.table.update(key, pksk::append(&Account::labels, {"v", "u"}));
  CHECK(a.labels == std::vector<std::string>{"x", "y", "z", "w", "v", "u"});
  f.table.update(key, pksk::remove(attr(&Account::labels)[4]));
  a = f.table.update(key, pksk::remove(attr(&Account::labels)[4]));
  CHECK(a.labels == std::vector<std::string>{"x", "y", "z", "w"});
  a = f.table.update(key, pksk::set(attr(&Account::items)[0]->*&LineItem::qty, 7),
                     pksk::remove(attr(&Account::labels)[0]));
  CHECK(a.items[0].qty == 7);
  CHECK(a.labels == std::vector<std::string>{"y", "z", "w"});

  // Sets: add unites; numbers in maps and nested records.
  a = f.table.update(key, pksk::add(&Account::tags, std::set<std::string>{"new", "vip"}));
  CHECK(a.tags == std::set<std::string>{"gold", "new", "vip"});
  a = f.table.update(key, pksk::set(&Account::counters, std::map<std::string, int>{{"b", 2}}),
                     pksk::set(attr(&Account::address, &Address::city), "Lyon"));
  CHECK(a.counters == std::map<std::string, int>{{"b", 2}});
  CHECK(a.address.city == "Lyon");
  CHECK(a.address.zip == 75001);

  // The returned item is what is stored.
  CHECK(pksk::structurally_equal(*f.table.get(key), a));
}

TEST_CASE("updates of absent items and attributes follow DynamoDB", "[writes]") {
  Fixture f;
  // add on an absent number starts from 0; on an absent set creates it; append creates the list.
  Account a = f.table.update(Account{.id = "new"}, pksk::add(&Account::balance, 5LL),
                             pksk::add(&Account::tags, std::set<std::string>{"a"}),
                             pksk::append(&Account::labels, std::string("l")));
  CHECK(a.balance == 5);
  CHECK(a.tags == std::set<std::string>{"a"});
  CHECK(a.labels == std::vector<std::string>{"l"});
  CHECK(a.name.empty());
  CHECK(a.id == "new");
  // The created item has only its key, its type, what the update wrote and its key members.
  const std::string rows = f.dump();
  CHECK_THAT(rows, Catch::Contains("ACCOUNT#new|A|Account|{\"id\":\"new\",\"balance\":5,"
                                   "\"tags\":[\"a\"],\"labels\":[\"l\"]}|"));
  // Exact decimal arithmetic, as DynamoDB's numbers.
  f.table.update(Account{.id = "new"}, pksk::set(&Account::rate, 59.98));
  CHECK(f.table.update(Account{.id = "new"}, pksk::add(&Account::rate, 5.0)).rate == 64.98);
  // exists refuses to create; a nested path needs its parent.
  CHECK_THROWS_AS(
      f.table.update(Account{.id = "ghost"}, pksk::set(&Account::name, "x"), pksk::exists),
      pksk::ConditionFailed);
  CHECK_FALSE(f.table.get(Account{.id = "ghost"}));
  CHECK_THROWS_AS(f.table.update(Account{.id = "ghost"},
                                 pksk::set(attr(&Account::address, &Address::city), "x")),
                  pksk::ValidationError);
  CHECK_FALSE(f.table.get(Account{.id = "ghost"}));
  // A key member cannot be updated: that would move the item. pksk::set(&Account::id, "2") is a
  // compile-time error (tests/compile_fail/); a path made by attr(), which conditions on key
  // members use too, is refused when the update is made.
  CHECK_THROWS_WITH(f.table.update(Account{.id = "1"}, pksk::set(attr(&Account::id), "2")),
                    Catch::Contains("the member 'id' is part of the item's key"));
  // An update with a condition on the stored item.
  CHECK_THROWS_AS(f.table.update(Account{.id = "1"}, pksk::set(&Account::name, "x"),
                                 pksk::when(attr(&Account::balance) > 1000)),
                  pksk::ConditionFailed);
  CHECK(f.table.get(Account{.id = "1"})->name == "Ada Lovelace");
}

TEST_CASE("an item an update creates has its key members", "[writes]") {
  Fixture f;
  const Shipment key{.customer = "c1", .priority = Priority::high, .seq = -7};
  const Shipment created = f.table.update(key, pksk::set(&Shipment::status, "new"));
  CHECK(created.customer == "c1");
  CHECK(created.priority == Priority::high);
  CHECK(created.seq == -7);
  CHECK(created.status == "new");
  const std::optional<Shipment> read = f.table.get(key);
  REQUIRE(read);
  CHECK(read->customer == "c1");
  CHECK(read->priority == Priority::high);
  CHECK(read->seq == -7);
  CHECK(read->status == "new");
  // An update of the stored item keeps them; one in a transaction creates an item with them too.
  CHECK(f.table.update(key, pksk::set(&Shipment::status, "sent")).seq == -7);
  const Shipment other{.customer = "c1", .priority = Priority::low, .seq = 3};
  f.table.transact().update(other, pksk::set(&Shipment::status, "new")).commit();
  const std::optional<Shipment> in_transaction = f.table.get(other);
  REQUIRE(in_transaction);
  CHECK(in_transaction->customer == "c1");
  CHECK(in_transaction->priority == Priority::low);
  CHECK(in_transaction->seq == 3);
  // Queried back, as a query decodes them from the bodies.
  const auto all = f.table.query<Shipment>(pksk::partition(key));
  REQUIRE(all.size() == 2);
  CHECK(all[0].priority == Priority::high);
  CHECK(all[1].seq == 3);

  // A stored item without its key members (an update created it before they were written) gets
  // them from its next update, as DynamoDB's if_not_exists gives them; one that has them, even
  // under an escaped name, keeps them and gets no second copy.
  sqlite3* db = f.backend.native_handle();
  REQUIRE(sqlite3_exec(db,
                       "UPDATE t SET body = '{\"balance\":3}' WHERE pk = 'ACCOUNT#1';"
                       "UPDATE t SET body = '{\"\\u0073eq\":3,\"status\":\"old\"}' "
                       "WHERE pk = 'CUSTOMER#c1' AND body LIKE '%\"seq\":3%'",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  CHECK(f.table.update(Account{.id = "1"}, pksk::set(&Account::name, "Ada")).id == "1");
  CHECK_THAT(f.dump(), Catch::Contains("{\"balance\":3,\"id\":\"1\",\"name\":\"Ada\"}"));
  f.table.update(other, pksk::set(&Shipment::status, "sent"));
  const std::string rows = f.dump();
  CHECK_THAT(rows, Catch::Contains("{\"\\u0073eq\":3,\"status\":\"sent\",\"customer\":\"c1\","));
  CHECK_THAT(rows, !Catch::Contains("\"seq\":3"));
}

TEST_CASE("a transaction is all or nothing, with a reason per action", "[writes]") {
  Fixture f;
  f.table.put(Account{.id = "2", .balance = 10});
  f.table.put(Account{.id = "5"});
  const std::string before = f.dump();
  try {
    f.table.transact()
        .put(Account{.id = "3"})
        .update(Account{.id = "1"}, pksk::add(&Account::balance, -50LL))
        .erase(Account{.id = "2"})
        .check(Account{.id = "9"}, pksk::exists)
        .commit();
    FAIL("the transaction went through");
  } catch (const pksk::TransactionCanceled& e) {
    using R = pksk::CancellationReason;
    CHECK(e.reasons() == std::vector<R>{R::none, R::none, R::none, R::condition_failed});
    CHECK_THAT(e.what(), Catch::Contains("condition failed"));
  }
  CHECK(f.dump() == before);  // every item byte-identical

  f.table.transact()
      .put(Account{.id = "3"}, pksk::if_absent)
      .update(Account{.id = "1"}, pksk::add(&Account::balance, -50LL),
              pksk::when(attr(&Account::balance) >= 50))
      .erase(Account{.id = "2"})
      .check(Account{.id = "5"}, pksk::exists)
      .commit();
  CHECK(f.table.get(Account{.id = "3"}));
  CHECK(f.table.get(Account{.id = "1"})->balance == 50);
  CHECK_FALSE(f.table.get(Account{.id = "2"}));
}

TEST_CASE("101 actions and two actions on one item are refused, nothing written", "[writes]") {
  Fixture f;
  const std::string before = f.dump();
  auto t = f.table.transact();
  for (int i = 0; i < 101; ++i) t.put(Account{.id = support::numbered("n", i)});
  CHECK_THROWS_AS(t.commit(), pksk::ValidationError);
  CHECK_THROWS_AS(f.table.transact()
                      .put(Account{.id = "x"})
                      .update(Account{.id = "x"}, pksk::set(&Account::name, "y"))
                      .commit(),
                  pksk::ValidationError);
  CHECK_THROWS_AS(f.table.transact().commit(), pksk::ValidationError);
  CHECK(f.dump() == before);
  auto hundred = f.table.transact();
  for (int i = 0; i < 100; ++i) hundred.put(Account{.id = support::numbered("n", i)});
  hundred.commit();
  CHECK(f.table.get(Account{.id = "n99"}));
}

TEST_CASE("a failure inside a transaction leaves no partial write", "[writes]") {
  Fixture f;
  // A fault injected by SQLite itself, after the first write of the transaction is made.
  REQUIRE(sqlite3_exec(f.backend.native_handle(),
                       "CREATE TRIGGER boom BEFORE INSERT ON t WHEN NEW.pk = 'ACCOUNT#boom' "
                       "BEGIN SELECT RAISE(ABORT, 'injected fault'); END",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  const std::string before = f.dump();
  CHECK_THROWS_AS(f.table.transact()
                      .put(Account{.id = "ok"})
                      .update(Account{.id = "1"}, pksk::add(&Account::balance, 1LL))
                      .put(Account{.id = "boom"})
                      .commit(),
                  pksk::BackendError);
  CHECK(f.dump() == before);
  // An update that fails as it is applied (ADD to a string) cancels the whole too.
  try {
    f.table.transact()
        .put(Account{.id = "ok"})
        .update(Account{.id = "1"}, pksk::add(&Account::tags, std::set<std::string>{"x"}))
        .commit();
    f.table.update(Account{.id = "1"}, pksk::set(&Account::name, "n"));
    f.table.transact()
        .put(Account{.id = "ok2"})
        .update(Account{.id = "1"}, pksk::add(attr(&Account::items)[0]->*&LineItem::qty, 1))
        .commit();
  } catch (const pksk::TransactionCanceled&) {
    FAIL("valid transactions canceled");
  }
  const std::string middle = f.dump();
  REQUIRE(sqlite3_exec(f.backend.native_handle(),
                       "UPDATE t SET body = '{\"tags\":\"text\"}' WHERE pk = 'ACCOUNT#ok'", nullptr,
                       nullptr, nullptr) == SQLITE_OK);
  const std::string with_text = f.dump();
  try {
    f.table.transact()
        .put(Account{.id = "later"})
        .update(Account{.id = "ok"}, pksk::add(&Account::tags, std::set<std::string>{"x"}))
        .commit();
    FAIL("ADD of a set to a string went through");
  } catch (const pksk::TransactionCanceled& e) {
    using R = pksk::CancellationReason;
    CHECK(e.reasons() == std::vector<R>{R::none, R::validation});
  }
  CHECK(f.dump() == with_text);
  CHECK(middle != with_text);
}

TEST_CASE("put_all of 10,000 items and get_all of 1,000 keys with some missing", "[writes]") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "t"};
  std::vector<Account> items;
  for (int i = 0; i < 10000; ++i) items.push_back(Account{.id = std::to_string(i), .balance = i});
  table.put_all(items);
  std::vector<Account> keys;
  for (int i = 0; i < 1000; ++i)
    keys.push_back(Account{.id = std::to_string(i % 3 == 0 ? 20000 + i : i * 7)});
  const std::vector<Account> got = table.get_all(keys);
  std::vector<long long> expected;
  for (int i = 0; i < 1000; ++i) {
    if (i % 3 != 0) expected.push_back(i * 7);
  }
  std::vector<long long> balances;
  for (const Account& a : got) balances.push_back(a.balance);
  CHECK(balances == expected);  // found items, in the order of the keys

  // Two items with one key in a batch of 25 are refused, as DynamoDB refuses them.
  std::vector<Account> dup{Account{.id = "d"}, Account{.id = "d"}};
  CHECK_THROWS_AS(table.put_all(dup), pksk::ValidationError);
  CHECK_FALSE(table.get(Account{.id = "d"}));
  std::vector<Account> doomed(items.begin(), items.begin() + 5000);
  table.erase_all(doomed);
  CHECK_FALSE(table.get(Account{.id = "4999"}));
  CHECK(table.get(Account{.id = "5000"}));
}

namespace {

// A Backend that answers its first `throttled` batch requests as a throttled DynamoDB may: the
// first half of each is done, the rest handed back unprocessed.
class ThrottlingBackend : public support::ForwardingBackend {
 public:
  explicit ThrottlingBackend(pksk::sqlite::Backend& inner, int throttled)
      : ForwardingBackend(inner), throttled_(throttled) {}

  int batch_requests = 0;

  void batch_write(TableHandle t, std::span<const pksk::backend::WriteRequest> w,
                   std::vector<std::size_t>& unprocessed) {
    const std::size_t done = done_now(w.size());
    inner().batch_write(t, w.first(done), unprocessed);
    for (std::size_t i = done; i < w.size(); ++i) unprocessed.push_back(i);
  }
  void batch_get(TableHandle t, std::span<const pksk::backend::ItemKey> k,
                 pksk::backend::IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed) {
    const std::size_t done = done_now(k.size());
    inner().batch_get(t, k.first(done), visit, unprocessed);
    for (std::size_t i = done; i < k.size(); ++i) unprocessed.push_back(i);
  }

 private:
  std::size_t done_now(std::size_t asked) {
    ++batch_requests;
    if (throttled_ == 0) return asked;
    --throttled_;
    return asked / 2;
  }

  int throttled_;
};
static_assert(pksk::Backend<ThrottlingBackend>);

}  // namespace

TEST_CASE("unprocessed batch items are retried with backoff, through an injected sleep",
          "[writes]") {
  using std::chrono::milliseconds;
  const pksk::BatchRetry defaults;
  CHECK(defaults.retries == 8);
  CHECK(defaults.first_delay == milliseconds(25));
  CHECK(defaults.backoff_factor == 2);

  pksk::sqlite::Backend store{":memory:"};
  std::vector<milliseconds> slept;
  const auto record = [&](milliseconds delay) { slept.push_back(delay); };
  std::vector<Account> items;
  for (int i = 0; i < 60; ++i) items.push_back(Account{.id = std::to_string(i), .balance = i});

  SECTION("put_all and get_all end with every item, after the default backoff") {
    ThrottlingBackend backend{store, 3};
    pksk::Table table{backend, "t", {}, pksk::BatchRetry{.sleep = record}};
    table.put_all(items);
    CHECK(slept ==
          std::vector<milliseconds>{milliseconds(25), milliseconds(50), milliseconds(100)});
    CHECK(backend.batch_requests == 4);  // 60 asked, then 30, 15 and 8 handed back
    CHECK(table.scan<Account>().size() == 60);

    ThrottlingBackend reader{store, 2};
    pksk::Table again{reader, "t", {}, pksk::BatchRetry{.sleep = record}};
    slept.clear();
    const std::vector<Account> got = again.get_all(items);
    CHECK(slept == std::vector<milliseconds>{milliseconds(25), milliseconds(50)});
    REQUIRE(got.size() == 60);
    for (int i = 0; i < 60; ++i) CHECK(got[i].balance == i);  // in the order of the keys
  }

  SECTION("a policy's retries and backoff; then BackendError") {
    ThrottlingBackend backend{store, 1000};
    pksk::Table table{
        backend,
        "t",
        {},
        pksk::BatchRetry{
            .retries = 2, .first_delay = milliseconds(10), .backoff_factor = 3, .sleep = record}};
    CHECK_THROWS_AS(table.put_all(items), pksk::BackendError);
    CHECK(slept == std::vector<milliseconds>{milliseconds(10), milliseconds(30)});
    CHECK(backend.batch_requests == 3);
  }
}

namespace {

// A Backend that checks each batch write as DynamoDB does (requests of 25, none naming one item
// twice: ValidationError) and hands back, from its first request only, the writes `hand_back`
// picks.
class HandingBackBackend : public support::ForwardingBackend {
 public:
  HandingBackBackend(pksk::sqlite::Backend& inner, std::function<bool(std::size_t)> hand_back)
      : ForwardingBackend(inner), hand_back_(std::move(hand_back)) {}

  void batch_write(TableHandle t, std::span<const pksk::backend::WriteRequest> w,
                   std::vector<std::size_t>& unprocessed) {
    for (std::size_t start = 0; start < w.size(); start += 25) {
      const auto request = w.subspan(start, std::min<std::size_t>(25, w.size() - start));
      for (std::size_t i = 0; i < request.size(); ++i) {
        for (std::size_t j = i + 1; j < request.size(); ++j) {
          if (pksk::backend::key_of(request[i]) == pksk::backend::key_of(request[j])) {
            throw pksk::ValidationError("Provided list of item keys contains duplicates");
          }
        }
      }
    }
    ++requests;
    unprocessed.clear();
    std::vector<pksk::backend::WriteRequest> done;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (requests == 1 && hand_back_(i)) {
        unprocessed.push_back(i);
      } else {
        done.push_back(w[i]);
      }
    }
    std::vector<std::size_t> none;
    inner().batch_write(t, done, none);
  }
  int requests = 0;

 private:
  std::function<bool(std::size_t)> hand_back_;
};
static_assert(pksk::Backend<HandingBackBackend>);

}  // namespace

TEST_CASE("a batch retry sends each item once, its last write", "[writes]") {
  pksk::sqlite::Backend store{":memory:"};
  const auto no_sleep = [](std::chrono::milliseconds) {};
  // Two writes of Account "10", in two requests of 25: the second is the one that stays.
  std::vector<Account> items;
  for (int i = 0; i < 50; ++i) items.push_back(Account{.id = std::to_string(i), .balance = i});
  items[30] = Account{.id = "10", .balance = 999};

  SECTION("both handed back: the retry does not name the item twice in one request") {
    HandingBackBackend backend{store, [](std::size_t i) { return i >= 8; }};
    pksk::Table table{backend, "t", {}, pksk::BatchRetry{.sleep = no_sleep}};
    table.put_all(items);
    CHECK(backend.requests == 2);
    CHECK(table.get(Account{.id = "10"})->balance == 999);
    CHECK(table.scan<Account>().size() == 49);
  }
  SECTION("the first handed back, the second written: the first is not written after it") {
    HandingBackBackend backend{store, [](std::size_t i) { return i == 10 || i == 11; }};
    pksk::Table table{backend, "t", {}, pksk::BatchRetry{.sleep = no_sleep}};
    table.put_all(items);
    CHECK(table.get(Account{.id = "10"})->balance == 999);
    CHECK(table.get(Account{.id = "11"})->balance == 11);
  }
}

TEST_CASE("optimistic locking: a stale copy fails in put, update and a transaction", "[writes]") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "t"};
  Cart cart{.id = "c"};
  table.put(cart);  // new: version 0 means "must not exist"
  CHECK(cart.rev == 1);
  Cart stale = cart;
  cart.skus = {"a"};
  table.put(cart);
  CHECK(cart.rev == 2);
  CHECK(table.get(Cart{.id = "c"})->rev == 2);

  stale.skus = {"lost"};
  CHECK_THROWS_AS(table.put(stale), pksk::ConditionFailed);
  CHECK(stale.rev == 1);  // not written, not incremented
  CHECK_THROWS_AS(table.put(Cart{.id = "c"}), pksk::ConditionFailed);  // "new" over an existing one

  CHECK_THROWS_AS(table.update(stale, pksk::append(&Cart::skus, std::string("x"))),
                  pksk::ConditionFailed);
  const Cart updated = table.update(cart, pksk::append(&Cart::skus, std::string("b")));
  CHECK(updated.rev == 3);
  CHECK(updated.skus == std::vector<std::string>{"a", "b"});

  try {
    table.transact()
        .put(Cart{.id = "other"})
        .update(cart, pksk::append(&Cart::skus, std::string("c")))
        .commit();
    FAIL("a stale update in a transaction went through");
  } catch (const pksk::TransactionCanceled& e) {
    using R = pksk::CancellationReason;
    CHECK(e.reasons() == std::vector<R>{R::none, R::condition_failed});
  }
  CHECK_FALSE(table.get(Cart{.id = "other"}));
  table.transact().update(updated, pksk::append(&Cart::skus, std::string("c"))).commit();
  CHECK(table.get(Cart{.id = "c"})->rev == 4);
}

TEST_CASE("item size by DynamoDB's measure", "[writes]") {
  // Attribute names plus values: strings by UTF-8 bytes, numbers 1 byte per two significant
  // digits plus 1, booleans 1, lists and maps 3 plus 1 per element, sets their elements.
  struct Sized {
    std::string s;                   // 1 + 6 ("héllo" is 6 bytes)
    int n{};                         // 1 + (5 digits: 3 + 1)
    double d{};                      // 1 + (0.125: 3 digits: 2 + 1)
    bool b{};                        // 1 + 1
    std::optional<int> absent;       // 0
    std::vector<int> list;           // 4 + 3 + (1 + 2) * 2
    std::map<std::string, int> map;  // 3 + 3 + (1 + 1 + 2)
    std::set<std::string> set;       // 3 + 2 + 1
    std::set<std::string> empty;     // 0: DynamoDB has no empty sets
    Address nested;                  // 6 + 3 + (1 + 4 + 1) + (1 + 3 + 2)
  };
  const Sized v{"h\xC3\xA9llo", 12345,       0.125,       true, std::nullopt,
                {1, 2},         {{"a", 10}}, {"ab", "c"}, {},   {"x", 0}};
  const std::size_t expected =
      (1 + 6) + (1 + 4) + (1 + 3) + (1 + 1) + (4 + 3 + 6) + (3 + 3 + 4) + (3 + 3) + (6 + 3 + 6 + 6);
  CHECK(pksk::attributes_size(v) == expected);
  // The tree measure (the SQLite update path) agrees with the codec's.
  CHECK(pksk::attributes_size(pksk::to_attribute_value(v)) == expected);
  CHECK(pksk::number_size("-0.00100") == 2);  // 1 significant digit
  CHECK(pksk::number_size("12345678901234567890") == 11);
}

TEST_CASE("the 400 KB boundary on both sides", "[writes]") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "t"};
  // pk "B#x", sk "B", type "Blob": 2+3 + 2+1 + 4+4 = 16 bytes, plus "id" + 1 and "data" + data.
  const std::size_t overhead = 16 + 2 + 1 + 4;
  Blob blob{.id = "x", .data = std::string(pksk::max_item_bytes - overhead, 'a')};
  table.put(blob);
  CHECK(table.get(Blob{.id = "x"})->data.size() == blob.data.size());
  blob.data += 'a';
  try {
    table.put(Blob{.id = "y", .data = blob.data});
    FAIL("an item over 400 KB was written");
  } catch (const pksk::ItemTooLarge& e) {
    CHECK_THAT(e.what(), Catch::Contains("409601") && Catch::Contains("B#y"));
  }
  CHECK_FALSE(table.get(Blob{.id = "y"}));
  // An update that would cross it is refused too, the stored item unchanged.
  CHECK_THROWS_AS(table.update(Blob{.id = "x"}, pksk::set(&Blob::data, blob.data)),
                  pksk::ItemTooLarge);
  CHECK(table.get(Blob{.id = "x"})->data.size() == pksk::max_item_bytes - overhead);
  // A number DynamoDB cannot hold is refused before anything is written.
  struct Huge {
    std::string id;
    double x{};
  };
  CHECK_THROWS_AS(pksk::attributes_size(Huge{"h", 1e300}), pksk::EncodeError);
}

TEST_CASE("a member named as a key attribute is refused", "[writes]") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "t", {.pk_attribute = "id"}};
  CHECK_THROWS_AS(table.put(Blob{.id = "x"}), pksk::ValidationError);
  pksk::Table other{
      backend, "t2", {.pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "entity"}};
  other.put(Blob{.id = "x", .data = "d"});
  CHECK(other.get(Blob{.id = "x"})->data == "d");
}

TEST_CASE("4 threads, each on its own connection, add 1,000 times each: 4,000",
          "[writes][threads]") {
  TempFile file;
  {
    pksk::sqlite::Backend backend{file.path.string()};
    pksk::Table table{backend, "t"};
    table.put(Counter{.id = "c"});
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      pksk::sqlite::Backend backend{file.path.string()};
      pksk::Table table{backend, "t"};
      for (int i = 0; i < 1000; ++i)
        table.update(Counter{.id = "c"}, pksk::add(&Counter::hits, 1LL));
    });
  }
  for (auto& t : threads) t.join();
  pksk::sqlite::Backend backend{file.path.string()};
  pksk::Table table{backend, "t"};
  CHECK(table.get(Counter{.id = "c"})->hits == 4000);
}

TEST_CASE(
    "an update rewrites only what it names: the rest of the body is kept byte for byte, "
    "and the stored size is the item's size",
    "[writes]") {
  Fixture f;
  const Account key{.id = "1"};
  // The stored size column and body of the one item.
  const auto stored = [&] {
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(f.backend.native_handle(), "SELECT body, size FROM t", -1, &s, nullptr);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    std::pair<std::string, long long> out{reinterpret_cast<const char*>(sqlite3_column_text(s, 0)),
                                          sqlite3_column_int64(s, 1)};
    sqlite3_finalize(s);
    return out;
  };
  // What a put of the same entity stores as its size: computed from the whole item.
  const auto size_of = [&](const Account& a) {
    pksk::sqlite::Backend other{":memory:"};
    pksk::Table<pksk::sqlite::Backend> t{other, "t"};
    t.put(a);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(other.native_handle(), "SELECT size FROM t", -1, &s, nullptr);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    const long long size = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return size;
  };

  Account a = f.table.update(key, pksk::set(&Account::name, "Grace Hopper"));
  CHECK(stored().second == size_of(a));
  // Members the update does not name are the text they were.
  CHECK_THAT(
      stored().first,
      Catch::Matchers::Contains(
          R"("items":[{"sku":"apple","qty":2,"price":0.5},{"sku":"pear","qty":1,"price":0.75}])"));

  a = f.table.update(key, pksk::add(&Account::balance, 123456789LL),
                     pksk::append(&Account::items, LineItem{"fig", 3, 1.25}),
                     pksk::set(&Account::labels, {"z"}), pksk::set(&Account::note, "a note"),
                     pksk::add(&Account::tags, std::set<std::string>{"new"}),
                     pksk::when(attr(&Account::active) == true && attr(&Account::rate) > 1.0));
  CHECK(a.balance == 123456889);
  CHECK(a.items.size() == 3);
  CHECK(a.labels == std::vector<std::string>{"z"});
  CHECK(a.note == "a note");
  CHECK(stored().second == size_of(a));
  const std::optional<Account> read = f.table.get(key);
  REQUIRE(read);
  CHECK(read->balance == a.balance);
  CHECK(read->tags == std::set<std::string>{"gold", "new", "vip"});

  // A condition naming a member the actions do not touch still sees it.
  CHECK_THROWS_AS(f.table.update(key, pksk::set(&Account::name, "x"),
                                 pksk::when(attr(&Account::address, &Address::city) == "Rome")),
                  pksk::ConditionFailed);
  CHECK(f.table.get(key)->name == "Grace Hopper");
}

// Entities with unique members, whose single writes are one transaction with their guards:
// their errors must name the caller's call, not the transaction's steps.
struct Owner {
  std::string id;
  std::string email;
};
struct Pet {
  std::string id;
  std::string name;
  std::string tag{};
};
template <>
struct pksk::Entity<Owner> {
  static constexpr std::string_view type = "Owner";
  static constexpr std::string_view pk = "OWNER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email"};
};
template <>
struct pksk::Entity<Pet> {
  static constexpr std::string_view type = "Pet";
  static constexpr std::string_view pk = "PET#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"tag"};
};

TEST_CASE("errors of a single write of an entity with unique members name the caller's call",
          "[writes]") {
  pksk::sqlite::Backend backend(":memory:");
  pksk::Table table(backend, "shop");
  const std::string long_id(3000, 'x');
  const auto error_of = [](auto&& write) -> std::string {
    try {
      write();
    } catch (const pksk::Error& e) {
      return e.what();
    }
    FAIL("no error");
    return {};
  };
  using Catch::Matchers::Contains;
  using Catch::Matchers::StartsWith;
  // A bad key.
  CHECK_THAT(error_of([&] { table.put(Owner{.id = long_id, .email = "a"}); }),
             StartsWith("pksk table 'shop', put Owner: ") && Contains("partition key"));
  CHECK_THAT(error_of([&] { table.put(Owner{.id = "", .email = "a"}); }),
             StartsWith("pksk table 'shop', put Owner: ") && Contains("must not be empty"));
  CHECK_THAT(error_of([&] {
               table.update(Owner{.id = long_id, .email = ""},
                            pksk::set(&Owner::email, std::string("b")));
             }),
             StartsWith("pksk table 'shop', update Owner: "));
  CHECK_THAT(error_of([&] { table.upsert(Owner{.id = long_id, .email = "c"}); }),
             StartsWith("pksk table 'shop', upsert Owner: "));
  CHECK_THAT(error_of([&] { table.erase(Owner{.id = long_id, .email = ""}); }),
             StartsWith("pksk table 'shop', erase Owner: "));
  // An EncodeError.
  const std::string not_utf8("\xff");
  CHECK_THAT(error_of([&] { table.put(Pet{.id = "1", .name = not_utf8}); }),
             StartsWith("pksk table 'shop', put Pet: ") && Contains("not valid UTF-8"));
  CHECK_THROWS_AS(table.put(Pet{.id = "1", .name = not_utf8}), pksk::EncodeError);
  // Inside a transaction of the caller's, the transaction's wording stays.
  CHECK_THAT(error_of([&] { table.transact().put(Owner{.id = long_id, .email = "a"}).commit(); }),
             StartsWith("pksk table 'shop', transaction put Owner: "));
  CHECK_THAT(error_of([&] { table.transact().put(Pet{.id = "1", .name = not_utf8}).commit(); }),
             StartsWith("pksk table 'shop', transaction put Pet: "));
  CHECK_THAT(error_of([&] {
               table.transact()
                   .update(Owner{.id = long_id, .email = ""},
                           pksk::set(&Owner::email, std::string("b")))
                   .commit();
             }),
             StartsWith("pksk table 'shop', transaction update Owner: "));
  CHECK_THAT(error_of([&] { table.transact().erase(Owner{.id = long_id, .email = ""}).commit(); }),
             StartsWith("pksk table 'shop', transaction erase Owner: "));
}

namespace {

// A backend that leaves out what the contract lets a backend leave out: it never reports a
// condition's failure in place (backend::WriteReturns::failure) and throws it instead.
class ThrowingConditionsBackend : public support::ForwardingBackend {
 public:
  using ForwardingBackend::ForwardingBackend;
  void put(TableHandle t, pksk::backend::PutRequest r) {
    r.returns.failure = nullptr;
    inner().put(t, r);
  }
  void update(TableHandle t, pksk::backend::UpdateRequest r, pksk::backend::ItemVisitor visit) {
    r.returns.failure = nullptr;
    inner().update(t, r, visit);
  }
  bool erase(TableHandle t, pksk::backend::EraseRequest r) {
    r.returns.failure = nullptr;
    return inner().erase(t, r);
  }
};

}  // namespace

TEST_CASE("try_ writes return a failure the backend threw rather than reported", "[writes]") {
  pksk::sqlite::Backend sqlite{":memory:"};
  ThrowingConditionsBackend backend{sqlite};
  pksk::Table table{backend, "t"};
  Cart cart{.id = "c"};
  REQUIRE(table.try_put(cart));
  Cart stale = cart;
  REQUIRE(table.try_put(cart));  // now at version 2

  const pksk::WriteResult<void> put = table.try_put(stale);
  REQUIRE_FALSE(put);
  CHECK(std::string(put.error().what()).find("stale version") != std::string::npos);
  CHECK(stale.rev == 1);
  const pksk::WriteResult<Cart> updated =
      table.try_update(stale, pksk::append(&Cart::skus, std::vector<std::string>{"a"}));
  REQUIRE_FALSE(updated);
  CHECK(std::string(updated.error().what()).find("stale version") != std::string::npos);
  const pksk::WriteResult<bool> erased = table.try_erase(stale);
  REQUIRE_FALSE(erased);
  CHECK(table.get(Cart{.id = "c"})->rev == 2);
}
