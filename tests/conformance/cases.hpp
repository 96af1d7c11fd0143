// The conformance cases, compiled once per backend: the including file defines `Store`, a type
// whose member `backend` is the backend under test (conformance.hpp).

using namespace conformance;
using CustomerOrders = pksk::ItemCollection<Customer, Order>;

TEST_CASE("put, get and erase round-trip every member kind", "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Order full{.customer_id = "c1",
                   .order_id = "2024-01-02",
                   .status = "shipped",
                   .total = 59.98,
                   .count = -3,
                   .date = "2024-01-02T03:04:05Z",
                   .items = {{"sku-1", 2, 9.99}, {"sku-\xC3\xA9", 1, 40}},
                   .note = "leave at the door",
                   .tags = {"gift", "rush"},
                   .size = {{"w", 3}, {"h", 4}}};
  table.put(full);
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "2024-01-02"}) == full);
  CHECK_FALSE(table.get(Order{.customer_id = "c1", .order_id = "absent"}));
  table.erase(Order{.customer_id = "c1", .order_id = "2024-01-02"});
  CHECK_FALSE(table.get(Order{.customer_id = "c1", .order_id = "2024-01-02"}));
}

TEST_CASE("a collection query in both directions, with a limit, paging to the end",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(Customer{.id = "c1", .name = "Ada", .email = "ada@example.com"});
  for (int day = 1; day <= 9; ++day) {
    table.put(order("2024-01-0" + std::to_string(day), day % 2 ? "shipped" : "pending", day));
  }
  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "c1"});

  const auto all = table.query<CustomerOrders>(pk);
  REQUIRE(all.size() == 10);
  CHECK(all.first<Customer>()->name == "Ada");
  CHECK(all.items<Order>().front().order_id == "2024-01-01");

  // "A" sorts after "#ORDER#...": backwards, the customer comes first, then the newest orders.
  const auto newest = table.query<CustomerOrders>(pk, {.forward = false, .limit = 4});
  CHECK(newest.first<Customer>() != nullptr);
  REQUIRE(newest.count<Order>() == 3);
  CHECK(newest.items<Order>().front().order_id == "2024-01-09");

  std::vector<std::string> paged;
  auto page = table.query_page<Order>(pk, {.limit = 2});
  for (;;) {
    for (const Order& o : page.items) paged.push_back(o.order_id);
    if (!page.next) break;
    page = table.query_page<Order>(pk, {.limit = 2, .start = *page.next});
  }
  CHECK(paged.size() == 9);
  CHECK(std::is_sorted(paged.begin(), paged.end()));
}

TEST_CASE("every key condition", "[conformance]") {
  Store store;
  auto table = make_table(store);
  for (int day = 1; day <= 5; ++day) table.put(order("2024-01-0" + std::to_string(day), "s", day));
  const pksk::PartitionKey pk{"CUSTOMER#c1"};
  const auto ids = [&](pksk::KeyCondition condition) {
    std::vector<std::string> out;
    for (const Order& o : table.query<Order>(pk, {.sk = condition})) out.push_back(o.order_id);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(ids(pksk::eq("#ORDER#2024-01-03")) == V{"2024-01-03"});
  CHECK(ids(pksk::lt("#ORDER#2024-01-03")) == V{"2024-01-01", "2024-01-02"});
  CHECK(ids(pksk::le("#ORDER#2024-01-02")) == V{"2024-01-01", "2024-01-02"});
  CHECK(ids(pksk::gt("#ORDER#2024-01-04")) == V{"2024-01-05"});
  CHECK(ids(pksk::ge("#ORDER#2024-01-04")) == V{"2024-01-04", "2024-01-05"});
  CHECK(ids(pksk::between("#ORDER#2024-01-02", "#ORDER#2024-01-03")) ==
        V{"2024-01-02", "2024-01-03"});
  CHECK(ids(pksk::begins_with("#ORDER#2024-01-0")).size() == 5);
}

TEST_CASE("conditions: a failed one is ConditionFailed and writes nothing", "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Order first = order("o1", "pending", 10);
  table.put(first, pksk::if_absent);
  CHECK_THROWS_AS(table.put(order("o1", "other", 1), pksk::if_absent), pksk::ConditionFailed);
  CHECK_THROWS_AS(
      table.put(order("o1", "other", 1), pksk::when(pksk::attr(&Order::status) == "shipped")),
      pksk::ConditionFailed);
  CHECK(table.get(first) == first);
  table.put(order("o1", "shipped", 11),
            pksk::when(pksk::attr(&Order::status) == "pending" && pksk::attr(&Order::total) > 5.0));
  CHECK(table.get(first)->status == "shipped");
}

TEST_CASE("updates: set, add, remove; the new item comes back", "[conformance]") {
  Store store;
  auto table = make_table(store);
  Order o = order("o1", "pending", 10);
  o.note = "fragile";
  table.put(o);
  const Order updated = table.update(
      Order{.customer_id = "c1", .order_id = "o1"}, pksk::set(&Order::status, "shipped"),
      pksk::add(&Order::total, 5.5), pksk::remove(&Order::note), pksk::add(&Order::count, 2LL));
  CHECK(updated.status == "shipped");
  CHECK(updated.total == 15.5);
  CHECK(updated.count == 2);
  CHECK_FALSE(updated.note);
  CHECK(table.get(o) == updated);
}

TEST_CASE("a canceled transaction has a reason per action and writes nothing", "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(Customer{.id = "c1", .name = "Ada"});
  try {
    table.transact().put(order("o1", "paid", 1)).check(Customer{.id = "c2"}, pksk::exists).commit();
    FAIL("the transaction was not canceled");
  } catch (const pksk::TransactionCanceled& e) {
    using R = pksk::CancellationReason;
    CHECK(e.reasons() == std::vector<R>{R::none, R::condition_failed});
  }
  CHECK_FALSE(table.get(Order{.customer_id = "c1", .order_id = "o1"}));
  table.transact().put(order("o1", "paid", 1)).check(Customer{.id = "c1"}, pksk::exists).commit();
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "o1"}));
}

TEST_CASE("batches past 25 writes and 100 reads", "[conformance]") {
  Store store;
  auto table = make_table(store);
  std::vector<Order> orders;
  for (int i = 0; i < 130; ++i) orders.push_back(order("o" + std::to_string(1000 + i), "s", i));
  table.put_all(orders);
  std::vector<Order> keys;
  for (int i = 0; i < 130; i += 1)
    keys.push_back(Order{.customer_id = "c1", .order_id = "o" + std::to_string(1000 + i)});
  keys.push_back(Order{.customer_id = "c1", .order_id = "absent"});
  const std::vector<Order> got = table.get_all(keys);
  CHECK(got.size() == 130);
  CHECK(table.query<Order>(pksk::PartitionKey{"CUSTOMER#c1"}).size() == 130);
}

TEST_CASE("optimistic locking: a stale copy fails", "[conformance]") {
  Store store;
  auto table = make_table(store);
  Cart cart{.id = "k1", .skus = {"a"}};
  table.put(cart);
  CHECK(cart.rev == 1);
  Cart stale = cart;
  cart.skus.push_back("b");
  table.put(cart);
  CHECK(cart.rev == 2);
  stale.skus.push_back("c");
  CHECK_THROWS_AS(table.put(stale), pksk::ConditionFailed);
  CHECK(table.get(Cart{.id = "k1"})->skus == std::vector<std::string>{"a", "b"});
}

TEST_CASE("keys sort by UTF-8 bytes", "[conformance]") {
  Store store;
  auto table = make_table(store);
  // U+00E9 (C3 A9) < U+20AC (E2 82 AC) < U+1F600 (F0 9F 98 80) by bytes; "Z" < "a" < "~".
  for (const char* id : {"\xF0\x9F\x98\x80", "a", "\xE2\x82\xAC", "Z", "~", "\xC3\xA9"}) {
    table.put(order(id, "s", 1));
  }
  std::vector<std::string> ids;
  for (const Order& o : table.query<Order>(pksk::PartitionKey{"CUSTOMER#c1"})) {
    ids.push_back(o.order_id);
  }
  CHECK(ids ==
        std::vector<std::string>{"Z", "a", "~", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"});
}

TEST_CASE("filters count toward the limit before filtering", "[conformance]") {
  Store store;
  auto table = make_table(store);
  for (int day = 1; day <= 6; ++day) {
    table.put(order("2024-01-0" + std::to_string(day), day % 2 ? "shipped" : "pending", day));
  }
  const pksk::PartitionKey pk{"CUSTOMER#c1"};
  const auto page =
      table.query_page<Order>(pk, {.limit = 3, .filter = pksk::attr(&Order::status) == "shipped"});
  CHECK(page.items.size() == 2);  // 3 read, 2 kept
  REQUIRE(page.next);
  const auto big = table.query<Order>(
      pk, {.filter = pksk::attr(&Order::total) > 3.0 && pksk::attr(&Order::status) != "pending"});
  REQUIRE(big.size() == 1);
  CHECK(big.front().order_id == "2024-01-05");
}
