// SPDX-License-Identifier: BSL-1.0
// The conformance cases at the edges, included by cases.hpp: an item collection read on an
// index, an index made sparse per item by an optional member, and what a single write returns
// (the item it replaced or removed; the stored item a failed condition was evaluated on).

#include <thread>

#include "edges.hpp"

namespace conformance {

using AttendeePasses = pksk::ItemCollection<Attendee, Pass>;

// An exception whose what() contains every text: for CHECK_THROWS_MATCHES(expr, E, ...).
template <class E>
struct WhatContains : Catch::MatcherBase<E> {
  std::vector<std::string> texts;
  explicit WhatContains(std::initializer_list<std::string> t) : texts(t) {}
  bool match(const E& e) const override {
    const std::string what = e.what();
    for (const std::string& t : texts) {
      if (what.find(t) == std::string::npos) return false;
    }
    return true;
  }
  std::string describe() const override {
    std::string out = "has a message containing";
    for (const std::string& t : texts) out += " \"" + t + "\"";
    return out;
  }
};

template <class Store>
auto make_ticketing_table(Store& store) {
  return pksk::Table{store.backend, fresh_table_name(), {.indexes = {"tix", "refunds"}}};
}

template <class Table>
std::vector<std::string> refunds_of(Table& table, std::string_view event) {
  std::vector<std::string> passes;
  const auto pk = pksk::partition<"refunds">(Pass{.event = std::string(event)});
  for (const Pass& p : table.index("refunds").template query<Pass>(pk)) passes.push_back(p.pass);
  return passes;
}

}  // namespace conformance

TEST_CASE("an item collection is read on an index where its members share partitions",
          "[conformance]") {
  Store store;
  auto table = make_ticketing_table(store);
  table.put(Attendee{.attendee = "ada", .name = "Ada"});
  table.put(Pass{.event = "e1", .pass = "p1", .attendee = "ada", .price = 10});
  table.put(Pass{.event = "e2", .pass = "p2", .attendee = "ada", .price = 20});
  table.put(Pass{.event = "e1", .pass = "p3", .attendee = "bob", .price = 30});
  auto tix = table.index("tix");
  const pksk::PartitionKey ada = pksk::partition<"tix">(Attendee{.attendee = "ada"});
  CHECK(ada.value == "ATTENDEE#ada");

  const AttendeePasses all = tix.query<AttendeePasses>(ada);
  REQUIRE(all.size() == 3);
  REQUIRE(all.first<Attendee>() != nullptr);
  CHECK(all.first<Attendee>()->name == "Ada");
  REQUIRE(all.count<Pass>() == 2);
  CHECK(all.items<Pass>().front().pass == "p1");  // "PASS#p1" < "PASS#p2" < "PROFILE"
  CHECK(all.unknown().empty());

  std::size_t read = 0;
  auto page = tix.query_page<AttendeePasses>(ada, {.limit = 1});
  for (int pages_read = 0;; ++pages_read) {
    REQUIRE(pages_read < 1000);  // a cursor that never ends
    read += page.items.size();
    if (!page.next) break;
    page = tix.query_page<AttendeePasses>(ada, {.limit = 1, .start = *page.next});
  }
  CHECK(read == 3);
  std::size_t each = 0;
  for (const auto& item : tix.each<AttendeePasses>(ada)) each += item.index() < 2 ? 1 : 0;
  CHECK(each == 3);

  // In "refunds" only passes are: the collection's members in an index must share partitions
  // there, and those that are not in it are simply not read.
  const AttendeePasses refunded =
      table.index("refunds").query<AttendeePasses>(pksk::PartitionKey{"REFUNDS#e1"});
  CHECK(refunded.size() == 0);
  CHECK(refunded.unknown().empty());
  // An event's passes and sessions share the table's partitions; in "tix" their sort keys
  // would collide, so the collection cannot be read there.
  using EventProgramme = pksk::ItemCollection<Pass, Session>;
  table.put(Session{.event = "e1", .session = "s1", .speaker = "ada"});
  CHECK(table.query<EventProgramme>(pksk::partition(Pass{.event = "e1"})).size() == 3);
  CHECK_THROWS_MATCHES(
      tix.query<EventProgramme>(ada), pksk::ValidationError,
      WhatContains<pksk::ValidationError>({"'Pass' and 'Session'", "the same shape", "'tix'"}));
  // A partition key the members' template in the index cannot produce.
  CHECK_THROWS_MATCHES(
      tix.query<AttendeePasses>(pksk::PartitionKey{"ATTENDEE#"}), pksk::ValidationError,
      WhatContains<pksk::ValidationError>({"ATTENDEE#{attendee}", "pksk::partition<\"tix\">("}));
  CHECK_THROWS_MATCHES(tix.query<Pass>(pksk::PartitionKey{"ATTENDEE#"}), pksk::ValidationError,
                       WhatContains<pksk::ValidationError>(
                           {"on index 'tix'", "pksk::partition<\"tix\">(x), x a Pass"}));
  // On the table, the table's form.
  CHECK_THROWS_MATCHES(table.query<Pass>(pksk::PartitionKey{"EVENT#"}), pksk::ValidationError,
                       WhatContains<pksk::ValidationError>({"pksk::partition(x), x a Pass"}));
}

TEST_CASE("an optional member of an index key keeps each item out of the index while empty",
          "[conformance]") {
  Store store;
  auto table = make_ticketing_table(store);
  table.put(Pass{.event = "e1", .pass = "p1", .attendee = "ada", .price = 10});
  table.put(
      Pass{.event = "e1", .pass = "p2", .attendee = "bob", .price = 10, .refund = "2024-05-01"});
  CHECK(refunds_of(table, "e1") == std::vector<std::string>{"p2"});
  // The table and the other index hold both.
  CHECK(table.query<Pass>(pksk::partition(Pass{.event = "e1"})).size() == 2);

  // An update that gives the member a value puts the item in (with every member of the index's
  // keys, as any update of an index key); one that removes it takes it out, nothing else asked.
  CHECK_THROWS_AS(table.update(Pass{.event = "e1", .pass = "p1"},
                               pksk::set(&Pass::refund, std::string("2024-06-01"))),
                  pksk::ValidationError);
  table.update(Pass{.event = "e1", .pass = "p1"},
               pksk::set(&Pass::refund, std::string("2024-06-01")),
               pksk::set(&Pass::attendee, std::string("ada")));
  CHECK(refunds_of(table, "e1") == std::vector<std::string>{"p2", "p1"});
  const Pass out = table.update(Pass{.event = "e1", .pass = "p2"}, pksk::remove(&Pass::refund));
  CHECK_FALSE(out.refund.has_value());
  CHECK(refunds_of(table, "e1") == std::vector<std::string>{"p1"});
  // A transaction's put and a get-modify-put keep to the same rule.
  table.transact()
      .put(Pass{.event = "e1", .pass = "p3", .attendee = "cy", .price = 5, .refund = "2024-04-30"})
      .commit();
  Pass p1 = *table.get(Pass{.event = "e1", .pass = "p1"});
  p1.refund.reset();
  table.put(p1);
  CHECK(refunds_of(table, "e1") == std::vector<std::string>{"p3"});

  // Typed conditions take the optional member's value type.
  using RefundKey = pksk::sort_key_of<Pass, "refunds">;
  table.put(
      Pass{.event = "e1", .pass = "p4", .attendee = "di", .price = 5, .refund = "2024-05-02"});
  const auto may =
      table.index("refunds").query<Pass>(pksk::partition<"refunds">(Pass{.event = "e1"}),
                                         {.sk = RefundKey::begins_with<&Pass::refund>("2024-05")});
  REQUIRE(may.size() == 1);
  CHECK(may[0].pass == "p4");
  const auto forged = [] { return RefundKey::eq<&Pass::refund, &Pass::attendee>("2024#05", "di"); };
  CHECK_THROWS_AS(forged(), pksk::KeyError);
}

TEST_CASE("put and erase return the item they replaced or removed with return_old",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Customer ada{.id = "c1", .name = "Ada", .email = "ada@example.com"};
  std::optional<Customer> old = table.put(ada, pksk::return_old);
  CHECK_FALSE(old);
  Customer renamed = ada;
  renamed.name = "Ada L.";
  old = table.put(renamed, pksk::return_old);
  REQUIRE(old);
  CHECK(*old == ada);
  // With a condition too; a failed one returns nothing and writes nothing.
  CHECK_THROWS_AS(table.put(ada, pksk::if_absent, pksk::return_old), pksk::ConditionFailed);
  CHECK(table.get(Customer{.id = "c1"})->name == "Ada L.");

  std::optional<Customer> gone = table.erase(Customer{.id = "c1"}, pksk::return_old);
  REQUIRE(gone);
  CHECK(*gone == renamed);
  gone = table.erase(Customer{.id = "c1"}, pksk::return_old);
  CHECK_FALSE(gone);
  CHECK_FALSE(table.get(Customer{.id = "c1"}));
}

TEST_CASE("a failed condition carries the stored item with return_stored_on_failure",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Order stored = order("2024-01-01", "shipped", 5);
  table.put(stored);
  const auto stored_of = [](const pksk::ConditionFailed& e) -> std::optional<Order> {
    if (e.stored() == nullptr) return std::nullopt;
    CHECK(e.stored()->type == "Order");
    CHECK(e.stored()->sk == "#ORDER#2024-01-01");
    return pksk::decode_body<Order>(*e.stored());
  };
  const auto failure = [](auto&& write) -> pksk::ConditionFailed {
    try {
      write();
    } catch (const pksk::ConditionFailed& e) {
      return e;
    }
    FAIL("the condition did not fail");
    return pksk::ConditionFailed("unreachable");
  };

  Order changed = stored;
  changed.status = "lost";
  pksk::ConditionFailed e =
      failure([&] { table.put(changed, pksk::if_absent, pksk::return_stored_on_failure); });
  CHECK(stored_of(e) == stored);
  e = failure([&] {
    table.update(Order{.customer_id = "c1", .order_id = "2024-01-01"},
                 pksk::set(&Order::status, std::string("paid")),
                 pksk::when(pksk::attr(&Order::status) == "pending"),
                 pksk::return_stored_on_failure);
  });
  CHECK(stored_of(e) == stored);
  e = failure([&] {
    table.erase(Order{.customer_id = "c1", .order_id = "2024-01-01"},
                pksk::when(pksk::attr(&Order::total) > 100.0), pksk::return_stored_on_failure);
  });
  CHECK(stored_of(e) == stored);
  // No item under the key: nothing to carry. Not asked: nothing either.
  e = failure([&] {
    table.erase(Order{.customer_id = "c1", .order_id = "absent"}, pksk::if_exists,
                pksk::return_stored_on_failure);
  });
  CHECK(e.stored() == nullptr);
  e = failure([&] { table.put(changed, pksk::if_absent); });
  CHECK(e.stored() == nullptr);
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "2024-01-01"}) == stored);

  // A stale versioned write says so, and carries the newer item to retry from.
  Cart cart{.id = "k1", .rev = 0, .skus = {"a"}};
  table.put(cart);
  Cart other = cart;
  other.skus.push_back("b");
  table.put(other);
  e = failure([&] { table.put(cart, pksk::return_stored_on_failure); });
  CHECK_THAT(e.what(), Catch::Matchers::Contains("stale version"));
  REQUIRE(e.stored() != nullptr);
  const Cart newer = pksk::decode_body<Cart>(*e.stored());
  CHECK(newer.rev == 2);
  CHECK(newer.skus == std::vector<std::string>{"a", "b"});
}

TEST_CASE("a fan-out over time buckets returns exactly the items in range, in order",
          "[conformance]") {
  using namespace std::chrono;
  Store store;
  auto table = make_table(store);
  const sys_days jan1{year{2024} / 1 / 1};
  std::vector<Meter> all;  // every 20 hours for 5 months: Jan to May
  for (int i = 0; i < 180; ++i) {
    all.push_back(Meter{.device = "d1", .at = jan1 + hours{20 * i}, .value = i});
    table.put(all.back());
  }
  table.put(Meter{.device = "d2", .at = jan1 + days{40}, .value = -1});  // another device
  const auto from = sys_days{year{2024} / 1 / 20} + hours{3};
  const auto to = sys_days{year{2024} / 4 / 10};  // three months and a bit: four buckets
  std::vector<Meter> expected;
  for (const Meter& m : all) {
    if (from <= m.at && m.at <= to) expected.push_back(m);
  }
  REQUIRE(expected.size() > 90);
  CHECK(table.query_buckets<Meter>(Meter{.device = "d1"}, from, to) == expected);
  // Newest first, with a limit over the whole.
  const auto newest =
      table.query_buckets<Meter>(Meter{.device = "d1"}, from, to, {.forward = false, .limit = 10});
  CHECK(newest == std::vector<Meter>(expected.rbegin(), expected.rbegin() + 10));
  // A filter: pages of 30 items evaluated hold fewer, so buckets are read in several pages.
  const auto late = table.query_buckets<Meter>(
      Meter{.device = "d1"}, from, to, {.limit = 30, .filter = pksk::attr(&Meter::value) >= 80});
  std::vector<Meter> expected_late;
  for (const Meter& m : expected) {
    if (m.value >= 80 && expected_late.size() < 30) expected_late.push_back(m);
  }
  REQUIRE(expected_late.size() == 30);
  CHECK(late == expected_late);
  // Bounds the wrong way round are a mistake, as a reversed between is, not an empty range.
  CHECK_THROWS_MATCHES(
      table.query_buckets<Meter>(Meter{.device = "d1"}, to, from), pksk::ValidationError,
      WhatContains<pksk::ValidationError>(
          {"query_buckets Meter", "2024-04-10T00:00:00", "2024-01-20T03:00:00", "after"}));
  CHECK_THROWS_MATCHES(table.query_buckets_page<Meter>(Meter{.device = "d1"}, to, from),
                       pksk::ValidationError,
                       WhatContains<pksk::ValidationError>({"query_buckets_page Meter"}));
  // One moment: its one bucket.
  CHECK(table.query_buckets<Meter>(Meter{.device = "d1"}, all[3].at, all[3].at) ==
        std::vector<Meter>{all[3]});

  // Pages of 7, each resuming the fan-out with the last one's cursor, both ways: together
  // exactly the items in range, in order, across pages and buckets.
  for (const bool forward : {true, false}) {
    std::vector<Meter> paged;
    std::optional<pksk::Cursor> start;
    int pages = 0;
    do {
      auto page = table.query_buckets_page<Meter>(Meter{.device = "d1"}, from, to,
                                                  {.forward = forward, .limit = 7, .start = start});
      CHECK(page.items.size() <= 7);
      paged.insert(paged.end(), page.items.begin(), page.items.end());
      start = page.next;
      ++pages;
    } while (start && pages < 100);
    CHECK(paged == (forward ? expected : std::vector<Meter>(expected.rbegin(), expected.rend())));
    CHECK(pages >= static_cast<int>(expected.size() / 7));
  }
  // The rest after one page, through query_buckets; a cursor of the round trip as text.
  const auto first = table.query_buckets_page<Meter>(Meter{.device = "d1"}, from, to, {.limit = 5});
  REQUIRE(first.next);
  const auto rest = table.query_buckets<Meter>(
      Meter{.device = "d1"}, from, to, {.start = pksk::Cursor::parse(first.next->to_string())});
  CHECK(rest == std::vector<Meter>(expected.begin() + 5, expected.end()));
  // A cursor of another read is refused.
  const auto plain = table.query_page<Meter>(pksk::partition(all.front()), {.limit = 2});
  REQUIRE(plain.next);
  CHECK_THROWS_AS(
      table.query_buckets<Meter>(Meter{.device = "d1"}, from, to, {.start = plain.next}),
      pksk::ValidationError);
}

TEST_CASE("a fan-out read touching more partitions than max_partitions is refused",
          "[conformance]") {
  using namespace std::chrono;
  Store store;
  auto table = make_table(store);
  table.put(Meter{.device = "d1", .at = sys_days{year{2024} / 2 / 1}, .value = 1});
  const auto from = sys_days{year{2024} / 1 / 20};
  const auto to = sys_days{year{2024} / 4 / 10};  // four monthly buckets
  CHECK(table.query_buckets<Meter>(Meter{.device = "d1"}, from, to, {.max_partitions = 4}).size() ==
        1);
  CHECK_THROWS_MATCHES(
      table.query_buckets<Meter>(Meter{.device = "d1"}, from, to, {.max_partitions = 3}),
      pksk::ValidationError,
      WhatContains<pksk::ValidationError>(
          {"query_buckets Meter", "4 partitions", "max_partitions (3)", "QueryOptions"}));
  // Two centuries of months by default: refused before a single request.
  const auto distant = sys_days{year{2200} / 1 / 1};
  CHECK_THROWS_MATCHES(
      table.query_buckets_page<Meter>(Meter{.device = "d1"}, from, distant), pksk::ValidationError,
      WhatContains<pksk::ValidationError>(
          {"query_buckets_page Meter", "2113 partitions", "max_partitions (1000)"}));
  // 0: no bound.
  CHECK(table.query_buckets<Meter>(Meter{.device = "d1"}, from, distant, {.max_partitions = 0})
            .size() == 1);
  // Shards: eight partitions, whatever the items.
  table.put(Sale{.sku = "p1", .order = "o1"});
  CHECK(table.query_shards<Sale>(Sale{.sku = "p1"}, {.max_partitions = 8}).size() == 1);
  CHECK_THROWS_MATCHES(table.query_shards<Sale>(Sale{.sku = "p1"}, {.max_partitions = 7}),
                       pksk::ValidationError,
                       WhatContains<pksk::ValidationError>(
                           {"query_shards Sale", "8 partitions", "max_partitions (7)"}));
  CHECK_THROWS_MATCHES(table.query_shards_page<Sale>(Sale{.sku = "p1"}, {.max_partitions = 7}),
                       pksk::ValidationError,
                       WhatContains<pksk::ValidationError>({"query_shards_page Sale"}));
}

TEST_CASE("a fan-out read in parallel pages exactly as one partition at a time does",
          "[conformance]") {
  using namespace std::chrono;
  Store store;
  auto table = make_table(store);
  const sys_days jan1{year{2024} / 1 / 1};
  for (int i = 0; i < 150; ++i) {  // every 58 hours for a year: twelve monthly buckets
    table.put(Meter{.device = "d1", .at = jan1 + hours{58 * i}, .value = i % 13});
  }
  const system_clock::time_point from = jan1;
  const system_clock::time_point to = sys_days{year{2024} / 12 / 31};
  // Every page and cursor of a read, resumed from the cursor of the page before.
  const auto pages = [&](std::size_t parallel, bool forward) {
    std::vector<pksk::Page<std::vector<Meter>>> out;
    std::optional<pksk::Cursor> start;
    do {
      out.push_back(table.query_buckets_page<Meter>(Meter{.device = "d1"}, from, to,
                                                    {.forward = forward,
                                                     .limit = 11,
                                                     .start = start,
                                                     .filter = pksk::attr(&Meter::value) >= 3,
                                                     .parallel = parallel}));
      start = out.back().next;
    } while (start && out.size() < 100);
    return out;
  };
  for (const bool forward : {true, false}) {
    const auto sequential = pages(1, forward);
    REQUIRE(sequential.size() > 10);
    for (const std::size_t parallel : {std::size_t{0}, std::size_t{4}, std::size_t{12}}) {
      const auto parallel_pages = pages(parallel, forward);
      REQUIRE(parallel_pages.size() == sequential.size());
      for (std::size_t i = 0; i < sequential.size(); ++i) {
        CHECK(parallel_pages[i].items == sequential[i].items);
        CHECK(parallel_pages[i].next.has_value() == sequential[i].next.has_value());
        if (parallel_pages[i].next && sequential[i].next) {
          CHECK(parallel_pages[i].next->to_string() == sequential[i].next->to_string());
        }
      }
    }
  }
  // A cursor of a parallel read resumes a sequential one.
  const auto all = table.query_buckets<Meter>(Meter{.device = "d1"}, from, to);
  REQUIRE(all.size() == 150);
  const auto first = table.query_buckets_page<Meter>(Meter{.device = "d1"}, from, to,
                                                     {.limit = 20, .parallel = 8});
  REQUIRE(first.next);
  CHECK(table.query_buckets<Meter>(Meter{.device = "d1"}, from, to,
                                   {.start = first.next, .parallel = 1}) ==
        std::vector<Meter>(all.begin() + 20, all.end()));
  // Shards too, with a table shared by threads that each fan out at once.
  for (int i = 0; i < 60; ++i) table.put(Sale{.sku = "p2", .order = numbered("2024-", 1000 + i)});
  const auto expected = table.query_shards<Sale>(Sale{.sku = "p2"}, {.parallel = 1});
  REQUIRE(expected.size() == 60);
  std::vector<std::vector<Sale>> seen(3);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back(
        [&, t] { seen[t] = table.query_shards<Sale>(Sale{.sku = "p2"}, {.parallel = 4}); });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& s : seen) CHECK(s == expected);
}

TEST_CASE("a fan-out over shards with a limit equals the unsharded query's first items",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  for (int i = 0; i < 120; ++i) {
    const std::string order = numbered("2024-", 1000 + i);
    table.put(Sale{.sku = "p1", .order = order, .qty = i});
    table.put(Tally{.sku = "p1", .order = order, .qty = i});
  }
  const pksk::PartitionKey tally = pksk::partition(Tally{.sku = "p1"});
  for (const bool forward : {true, false}) {
    for (const std::size_t limit : {std::size_t{1}, std::size_t{7}, std::size_t{50}}) {
      std::vector<std::string> sharded, plain;
      for (const Sale& s :
           table.query_shards<Sale>(Sale{.sku = "p1"}, {.forward = forward, .limit = limit})) {
        sharded.push_back(s.order);
      }
      for (const Tally& t : table.query<Tally>(tally, {.forward = forward, .limit = limit})) {
        plain.push_back(t.order);
      }
      CHECK(sharded == plain);
    }
  }
  CHECK(table.query_shards<Sale>(Sale{.sku = "p1"}).size() == 120);
  // Paged, with a filter: the pages resume the merge of all eight shards.
  std::vector<std::string> paged, filtered;
  for (const Tally& t : table.query<Tally>(tally)) {
    if (t.qty >= 40) filtered.push_back(t.order);
  }
  std::optional<pksk::Cursor> start;
  int pages_read = 0;
  do {
    REQUIRE(++pages_read <= 1000);  // a cursor that never ends
    auto page = table.query_shards_page<Sale>(
        Sale{.sku = "p1"}, {.limit = 9, .start = start, .filter = pksk::attr(&Sale::qty) >= 40});
    for (const Sale& s : page.items) paged.push_back(s.order);
    start = page.next;
  } while (start);
  CHECK(paged == filtered);
  // The shards are really eight partitions.
  std::size_t in_one = 0;
  for (unsigned shard = 0; shard < 8; ++shard) {
    const pksk::PartitionKey pk{numbered("PRODUCT#p1#", shard)};
    const std::size_t n = table.query<Sale>(pk).size();
    CHECK(n < 40);
    in_one += n;
  }
  CHECK(in_one == 120);
}
