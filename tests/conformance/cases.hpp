// SPDX-License-Identifier: BSL-1.0
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
    table.put(order(numbered("2024-01-0", day), day % 2 ? "shipped" : "pending", day));
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
  for (int pages_read = 0;; ++pages_read) {
    REQUIRE(pages_read < 1000);  // a cursor that never ends
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
  for (int day = 1; day <= 5; ++day) table.put(order(numbered("2024-01-0", day), "s", day));
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

TEST_CASE("typed key conditions, on one field and on two", "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(Customer{.id = "c1", .name = "Ada", .email = "ada@example.com"});
  for (int day = 1; day <= 5; ++day) table.put(order(numbered("2024-01-0", day), "s", day));
  const std::vector<long long> ns{-300, -5, 0, 5, 200, 201, 9000000000};
  for (const std::string day : {"mon", "tue"}) {
    for (const long long n : ns) table.put(Reading{.sensor = "s1", .day = day, .n = n});
  }
  const auto ids = [&](pksk::KeyCondition condition) {
    std::vector<std::string> out;
    for (const Order& o : table.query<Order>(pksk::PartitionKey{"CUSTOMER#c1"}, {.sk = condition}))
      out.push_back(o.order_id);
    return out;
  };
  using Pairs = std::vector<std::pair<std::string, long long>>;
  const auto readings = [&](pksk::KeyCondition condition) {
    Pairs out;
    for (const Reading& r :
         table.query<Reading>(pksk::PartitionKey{"SENSOR#s1"}, {.sk = condition}))
      out.emplace_back(r.day, r.n);
    return out;
  };
  using OrderKey = pksk::sort_key_of<Order>;
  using V = std::vector<std::string>;
  CHECK(ids(OrderKey::between<&Order::order_id>("2024-01-02", "2024-01-03")) ==
        V{"2024-01-02", "2024-01-03"});
  CHECK(ids(OrderKey::begins_with<&Order::order_id>("2024-01-0")).size() == 5);
  CHECK(ids(OrderKey::gt<&Order::order_id>("2024-01-04")) == V{"2024-01-05"});
  CHECK(ids(OrderKey::le<&Order::order_id>("2024-01-02")) == V{"2024-01-01", "2024-01-02"});

  using Key = pksk::sort_key_of<Reading>;
  CHECK(readings(Key::between<&Reading::day, &Reading::n>({"mon", -5}, {"mon", 200})) ==
        Pairs{{"mon", -5}, {"mon", 0}, {"mon", 5}, {"mon", 200}});
  CHECK(readings(Key::eq<&Reading::day>("tue")).size() == ns.size());
  CHECK(readings(Key::le<&Reading::day>("mon")).size() == ns.size());
  CHECK(readings(Key::gt<&Reading::day>("mon")) == readings(Key::eq<&Reading::day>("tue")));
  CHECK(readings(Key::ge<&Reading::day, &Reading::n>("tue", 201)) ==
        Pairs{{"tue", 201}, {"tue", 9000000000}});
  CHECK(readings(Key::lt<&Reading::day, &Reading::n>("mon", 0)) ==
        Pairs{{"mon", -300}, {"mon", -5}});
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

TEST_CASE("an item an update creates has its key members", "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Order key{.customer_id = "c9", .order_id = "o9"};
  const Order created = table.update(key, pksk::set(&Order::status, "new"));
  CHECK(created.customer_id == "c9");
  CHECK(created.order_id == "o9");
  CHECK(created.status == "new");
  const std::optional<Order> read = table.get(key);
  REQUIRE(read);
  CHECK(*read == created);
  // In a transaction too; an update of an existing item keeps them.
  table.transact()
      .update(Order{.customer_id = "c9", .order_id = "o10"}, pksk::set(&Order::status, "new"))
      .commit();
  CHECK(table.get(Order{.customer_id = "c9", .order_id = "o10"})->order_id == "o10");
  CHECK(table.update(key, pksk::add(&Order::count, 1LL)).order_id == "o9");
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
  for (int i = 0; i < 130; ++i) orders.push_back(order(numbered("o", 1000 + i), "s", i));
  table.put_all(orders);
  std::vector<Order> keys;
  for (int i = 0; i < 130; i += 1)
    keys.push_back(Order{.customer_id = "c1", .order_id = numbered("o", 1000 + i)});
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

TEST_CASE("optimistic locking on every write: put, update, erase, in and out of transactions",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  using Catch::Contains;
  const Cart key{.id = "k1"};
  Cart cart{.id = "k1", .skus = {"a"}};
  table.put(cart);  // version 0: a new item
  REQUIRE(cart.rev == 1);

  SECTION("a blind put (version 0 on an item that exists) says the version is missing") {
    Cart blind{.id = "k1", .skus = {"x"}};
    CHECK_THROWS_AS(table.put(blind), pksk::ConditionFailed);
    CHECK_THROWS_WITH(table.put(blind), Contains("put Cart: the version is missing") &&
                                            Contains("'rev' is 0") &&
                                            Contains("optimistic locking"));
    CHECK(blind.rev == 0);  // not written back: nothing was written
    CHECK(table.get(key)->skus == std::vector<std::string>{"a"});
  }
  SECTION("a stale put says the version was stale, and which it expected") {
    Cart stale = cart;
    table.put(cart);
    try {
      table.put(stale);
      FAIL("a stale put went through");
    } catch (const pksk::ConditionFailed& e) {
      CHECK(e.code() == pksk::errc::condition_failed);
      CHECK_THAT(e.what(), Contains("stale version: the stored 'rev' is not 1"));
      CHECK(e.cause() != nullptr);  // the backend's own error
    }
    CHECK(stale.rev == 1);
  }
  SECTION("update: a blind one and a stale one fail; the current one increments") {
    CHECK_THROWS_WITH(table.update(key, pksk::set(&Cart::skus, std::vector<std::string>{"u"})),
                      Contains("update Cart: the version is missing"));
    Cart at_one = cart;
    const Cart updated =
        table.update(at_one, pksk::set(&Cart::skus, std::vector<std::string>{"u"}));
    CHECK(updated.rev == 2);
    CHECK_THROWS_WITH(table.update(at_one, pksk::set(&Cart::skus, std::vector<std::string>{"v"})),
                      Contains("update Cart: stale version"));
    CHECK(table.get(key)->skus == std::vector<std::string>{"u"});
    // A path compile time cannot see (attr) to the version member is refused at run time.
    CHECK_THROWS_AS(table.update(updated, pksk::set(pksk::attr(&Cart::rev), 9)),
                    pksk::ValidationError);
    CHECK(table.get(key)->rev == 2);
  }
  SECTION("erase checks the version the key carries") {
    CHECK_THROWS_WITH(table.erase(key), Contains("erase Cart: the version is missing"));
    Cart stale = cart;
    table.put(cart);  // rev 2
    CHECK_THROWS_AS(table.erase(stale), pksk::ConditionFailed);
    CHECK(table.get(key));
    CHECK(table.erase(cart));  // the version stored
    CHECK_FALSE(table.get(key));
    CHECK_FALSE(table.erase(Cart{.id = "k1"}));  // version 0 of an absent item: nothing to do
  }
  SECTION("a transaction's erase checks the version; its message names the stale action") {
    Cart stale = cart;
    table.put(cart);
    try {
      table.transact().put(order("o3", "a", 1)).erase(stale).commit();
      FAIL("a stale erase went through");
    } catch (const pksk::TransactionCanceled& e) {
      using R = pksk::CancellationReason;
      CHECK(e.reasons() == std::vector<R>{R::none, R::condition_failed});
      CHECK_THAT(e.what(), Contains("action 1, a write of the Cart: stale version"));
    }
    CHECK(table.get(key));
    table.transact().erase(cart).commit();
    CHECK_FALSE(table.get(key));
  }
  SECTION("a transaction's put writes the new version back once it commits") {
    table.transact().put(cart).commit();
    CHECK(cart.rev == 2);
    table.transact().put(cart).commit();  // not stale: the copy has the stored version
    CHECK(cart.rev == 3);
    CHECK(table.get(key)->rev == 3);
    Cart stale{.id = "k1", .rev = 1};
    CHECK_THROWS_AS(table.transact().put(stale).commit(), pksk::TransactionCanceled);
    CHECK(stale.rev == 1);  // canceled: not written back
  }
}

TEST_CASE("an update never creates an item a put refuses; if_exists", "[conformance]") {
  Store store;
  auto table = make_indexed_table(store);
  // gsi2's keys are STATUS#{status} and OPENED#{opened}: an update of an absent ticket that
  // does not set them would create one whose status is empty, which a put refuses.
  try {
    table.update(Ticket{.id = "t9"}, pksk::set(&Ticket::title, "nine"));
    FAIL("the update created an item a put refuses");
  } catch (const pksk::ValidationError& e) {
    CHECK_THAT(e.what(), Catch::Contains("the item does not exist") &&
                             Catch::Contains("'status'") && Catch::Contains("'gsi2'"));
  }
  CHECK_FALSE(table.get(Ticket{.id = "t9"}));
  CHECK_THROWS_AS(table.put(Ticket{.id = "t9", .title = "nine"}), pksk::KeyError);

  // Given the index's members, it creates the item; of an item that exists, it changes it.
  const Ticket made = table.update(Ticket{.id = "t9"}, pksk::set(&Ticket::status, "open"),
                                   pksk::set(&Ticket::opened, 3));
  CHECK(made == Ticket{"t9", "open", 3, ""});
  CHECK(table.update(Ticket{.id = "t9"}, pksk::set(&Ticket::title, "nine")).title == "nine");
  table.put(table.get(Ticket{.id = "t9"}).value());  // what an update made, a put writes back

  // if_exists: the write never creates.
  CHECK_THROWS_AS(table.put(order("o7", "a", 1), pksk::if_exists), pksk::ConditionFailed);
  CHECK_FALSE(table.get(Order{.customer_id = "c1", .order_id = "o7"}));
  table.put(order("o7", "a", 1));
  table.put(order("o7", "b", 2), pksk::if_exists);
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "o7"})->status == "b");
  CHECK_THROWS_AS(table.update(Order{.customer_id = "c1", .order_id = "o8"},
                               pksk::set(&Order::status, "x"), pksk::if_exists),
                  pksk::ConditionFailed);
}

TEST_CASE("typed index keys; a partition key no template produces is refused", "[conformance]") {
  Store store;
  auto table = make_indexed_table(store);
  table.put(Ticket{"t1", "open", 3, "three"});
  const pksk::PartitionKey open = pksk::partition<"gsi2">(Ticket{.status = "open"});
  CHECK(open.value == "STATUS#open");
  CHECK(table.index("gsi2").query<Ticket>(open).size() == 1);
  table.put(Ticket{"t2", "open", 7, "seven"});
  table.put(Ticket{"t3", "open", 12, "twelve"});
  // sort_key_of<T, "index">: conditions on T's sort key in that index, from its members.
  using OpenedKey = pksk::sort_key_of<Ticket, "gsi2">;
  const auto titles = [](const std::vector<Ticket>& tickets) {
    std::vector<std::string> out;
    for (const Ticket& t : tickets) out.push_back(t.title);
    return out;
  };
  CHECK(
      titles(table.index("gsi2").query<Ticket>(open, {.sk = OpenedKey::ge<&Ticket::opened>(7)})) ==
      std::vector<std::string>{"seven", "twelve"});
  CHECK(titles(table.index("gsi2").query<Ticket>(
            open, {.sk = OpenedKey::between<&Ticket::opened>(3, 7)})) ==
        std::vector<std::string>{"three", "seven"});
  // DynamoDB refuses an empty range on an index as on a table.
  CHECK_THROWS_AS(
      table.index("gsi2").query<Ticket>(open, {.sk = OpenedKey::between<&Ticket::opened>(7, 3)}),
      pksk::ValidationError);
  CHECK_THROWS_AS(pksk::partition<"gsi2">(Ticket{.status = "a#b"}), pksk::KeyError);
  CHECK_THROWS_AS(pksk::partition<"gsi2">(Ticket{}), pksk::KeyError);  // empty status

  // Keys written by hand that the queried type's template cannot produce: an empty field, a
  // field holding the delimiter. Each would find nothing; each is a ValidationError instead.
  for (const char* wrong : {"STATUS#", "STATUS#open#x", "STATE#open"}) {
    INFO(wrong);
    CHECK_THROWS_AS(table.index("gsi2").query<Ticket>(pksk::PartitionKey{wrong}),
                    pksk::ValidationError);
  }
  CHECK_THROWS_WITH(table.index("gsi2").query<Ticket>(pksk::PartitionKey{"STATUS#"}),
                    Catch::Contains("'STATUS#'") && Catch::Contains("'STATUS#{status}'") &&
                        Catch::Contains("'gsi2'"));
  CHECK_THROWS_AS(table.query<Ticket>(pksk::PartitionKey{"TICKET#"}), pksk::ValidationError);
  CHECK_THROWS_AS(table.query<CustomerOrders>(pksk::PartitionKey{"CUSTOMER#c1#x"}),
                  pksk::ValidationError);
  CHECK(table.query<Ticket>(pksk::PartitionKey{"TICKET#t1"}).size() == 1);
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
    table.put(order(numbered("2024-01-0", day), day % 2 ? "shipped" : "pending", day));
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

TEST_CASE("every condition operator, true and false, on each member kind") {
  Store store;
  auto table = make_table(store);
  table.put(sample_account());
  using pksk::attr;
  struct Case {
    const char* what;
    pksk::Expr<Account> condition;
    bool expected;
  };
  const Case cases[] = {
      {"string ==", attr(&Account::name) == "Ada Lovelace", true},
      {"string == other", attr(&Account::name) == "Ada", false},
      {"string !=", attr(&Account::name) != "Ada", true},
      {"string < (bytes)", attr(&Account::name) < "Adb", true},
      {"string <= equal", attr(&Account::name) <= "Ada Lovelace", true},
      {"string > false", attr(&Account::name) > "B", false},
      {"string >=", attr(&Account::name) >= "Ada", true},
      {"begins_with", pksk::begins_with(attr(&Account::name), "Ada "), true},
      {"begins_with false", pksk::begins_with(attr(&Account::name), "Lovelace"), false},
      {"contains substring", pksk::contains(attr(&Account::name), "Love"), true},
      {"contains substring false", pksk::contains(attr(&Account::name), "love"), false},
      {"string between", pksk::between(attr(&Account::name), "A", "B"), true},
      {"string between false", pksk::between(attr(&Account::name), "B", "C"), false},
      {"string in", pksk::in(attr(&Account::name), {"x", "Ada Lovelace"}), true},
      {"string in false", pksk::in(attr(&Account::name), {"x", "y"}), false},
      {"size of string", pksk::size(attr(&Account::name)) == 12u, true},
      {"integer ==", attr(&Account::balance) == 100, true},
      {"integer > (numeric, not text)", attr(&Account::balance) > 20, true},
      {"integer <", attr(&Account::balance) < 20, false},
      {"integer between", pksk::between(attr(&Account::balance), 100, 200), true},
      {"integer between false", pksk::between(attr(&Account::balance), 101, 200), false},
      {"integer in", pksk::in(attr(&Account::balance), {1, 100}), true},
      {"double ==", attr(&Account::rate) == 2.5, true},
      {"double >=", attr(&Account::rate) >= 2.50, true},
      {"double <", attr(&Account::rate) < 2.25, false},
      {"bool ==", attr(&Account::active) == true, true},
      {"bool != ", attr(&Account::active) != true, false},
      {"enum ==", attr(&Account::priority) == Priority::high, true},
      {"enum == other", attr(&Account::priority) == Priority::low, false},
      {"absent ==", attr(&Account::note) == "x", false},
      {"absent !=", attr(&Account::note) != "x", true},
      {"absent <", attr(&Account::note) < "x", false},
      {"absent exists", pksk::exists(attr(&Account::note)), false},
      {"absent not_exists", pksk::not_exists(attr(&Account::note)), true},
      {"absent begins_with", pksk::begins_with(attr(&Account::note), ""), false},
      {"absent size", pksk::size(attr(&Account::note)) >= 0u, false},
      {"present exists", pksk::exists(attr(&Account::name)), true},
      {"list element member", (attr(&Account::items)[1]->*&LineItem::sku) == "pear", true},
      {"list element member >", (attr(&Account::items)[0]->*&LineItem::qty) > 2, false},
      {"list index past the end", (attr(&Account::items)[5]->*&LineItem::qty) == 0, false},
      {"list contains record", pksk::contains(attr(&Account::items), LineItem{"apple", 2, 0.5}),
       true},
      {"list contains other", pksk::contains(attr(&Account::items), LineItem{"apple", 3, 0.5}),
       false},
      {"size of list", pksk::size(attr(&Account::items)) == 2u, true},
      // The number is kept as written: a negative or fractional bound is not wrapped or cut.
      {"size > negative", pksk::size(attr(&Account::items)) > -1, true},
      {"size <= negative", pksk::size(attr(&Account::items)) <= -1, false},
      {"size < fraction", pksk::size(attr(&Account::items)) < 2.5, true},
      {"size > fraction", pksk::size(attr(&Account::items)) > 2.5, false},
      {"list of strings contains", pksk::contains(attr(&Account::labels), std::string("y")), true},
      {"list ==", attr(&Account::labels) == std::vector<std::string>{"x", "y"}, true},
      {"list == reordered", attr(&Account::labels) == std::vector<std::string>{"y", "x"}, false},
      {"map ==", attr(&Account::counters) == std::map<std::string, int>{{"a", 1}}, true},
      {"size of map", pksk::size(attr(&Account::counters)) > 1u, false},
      {"set contains", pksk::contains(attr(&Account::tags), "vip"), true},
      {"set contains false", pksk::contains(attr(&Account::tags), "vi"), false},
      {"set ==", attr(&Account::tags) == std::set<std::string>{"vip", "gold"}, true},
      {"set == other", attr(&Account::tags) == std::set<std::string>{"vip"}, false},
      {"size of set", pksk::size(attr(&Account::tags)) == 2u, true},
      {"nested member", attr(&Account::address, &Address::city) == "Paris", true},
      {"nested number", attr(&Account::address, &Address::zip) < 75000, false},
      {"record ==", attr(&Account::address) == Address{"Paris", 75001}, true},
      {"and", attr(&Account::balance) > 50 && attr(&Account::active) == true, true},
      {"and false", attr(&Account::balance) > 50 && attr(&Account::active) == false, false},
      {"or", attr(&Account::balance) > 500 || attr(&Account::active) == true, true},
      {"or false", attr(&Account::balance) > 500 || attr(&Account::active) == false, false},
      {"not", !(attr(&Account::balance) > 500), true},
      {"not false", !(attr(&Account::balance) == 100), false},
  };
  for (const Case& c : cases) {
    INFO(c.what << ": " << pksk::backend::describe(c.condition.node));
    bool held = true;
    try {
      table.put(sample_account(), pksk::when(c.condition));
    } catch (const pksk::ConditionFailed&) {
      held = false;
    }
    CHECK(held == c.expected);
  }
}

TEST_CASE("every update action on each member kind, absent members included") {
  Store store;
  auto table = make_table(store);
  table.put(sample_account());
  using pksk::attr;
  const Account key{.id = "1"};
  Account a =
      table.update(key, pksk::set(&Account::name, "Grace"), pksk::add(&Account::balance, 25LL),
                   pksk::add(&Account::rate, 0.25), pksk::set(&Account::active, false),
                   pksk::set(&Account::priority, Priority::low));
  CHECK(a.name == "Grace");
  CHECK(a.balance == 125);
  CHECK(a.rate == 2.75);
  CHECK_FALSE(a.active);
  CHECK(a.priority == Priority::low);

  a = table.update(key, pksk::if_not_exists(&Account::note, "first"));
  CHECK(a.note == "first");
  a = table.update(key, pksk::if_not_exists(&Account::note, "second"));
  CHECK(a.note == "first");
  a = table.update(key, pksk::remove(&Account::note));
  CHECK_FALSE(a.note);

  a = table.update(key, pksk::append(&Account::items, LineItem{"fig", 3, 1.0}));
  REQUIRE(a.items.size() == 3);
  CHECK(a.items[2].sku == "fig");
  a = table.update(key, pksk::append(&Account::labels, std::vector<std::string>{"z", "w"}));
  CHECK(a.labels == std::vector<std::string>{"x", "y", "z", "w"});
  a = table.update(key, pksk::set(attr(&Account::items)[0]->*&LineItem::qty, 7),
                   pksk::remove(attr(&Account::labels)[0]));
  CHECK(a.items[0].qty == 7);
  CHECK(a.labels == std::vector<std::string>{"y", "z", "w"});

  a = table.update(key, pksk::add(&Account::tags, std::set<std::string>{"new", "vip"}));
  CHECK(a.tags == std::set<std::string>{"gold", "new", "vip"});
  a = table.update(key, pksk::set(&Account::counters, std::map<std::string, int>{{"b", 2}}),
                   pksk::set(attr(&Account::address, &Address::city), "Lyon"));
  CHECK(a.counters == std::map<std::string, int>{{"b", 2}});
  CHECK(a.address == Address{"Lyon", 75001});
  CHECK(pksk::structurally_equal(*table.get(key), a));
}

TEST_CASE("updates of absent items and attributes") {
  Store store;
  auto table = make_table(store);
  table.put(sample_account());
  using pksk::attr;
  // add on an absent number starts from 0; on an absent set creates it; append creates the list.
  Account a = table.update(Account{.id = "new"}, pksk::add(&Account::balance, 5LL),
                           pksk::add(&Account::tags, std::set<std::string>{"a"}),
                           pksk::append(&Account::labels, std::string("l")));
  CHECK(a.balance == 5);
  CHECK(a.tags == std::set<std::string>{"a"});
  CHECK(a.labels == std::vector<std::string>{"l"});
  CHECK(a.name.empty());
  CHECK(a.id == "new");
  CHECK(table.get(Account{.id = "new"})->id == "new");
  // Exact decimal arithmetic, as DynamoDB's numbers.
  table.update(Account{.id = "new"}, pksk::set(&Account::rate, 59.98));
  CHECK(table.update(Account{.id = "new"}, pksk::add(&Account::rate, 5.0)).rate == 64.98);
  // exists refuses to create; a nested path needs its parent.
  CHECK_THROWS_AS(
      table.update(Account{.id = "ghost"}, pksk::set(&Account::name, "x"), pksk::exists),
      pksk::ConditionFailed);
  CHECK_FALSE(table.get(Account{.id = "ghost"}));
  CHECK_THROWS_AS(
      table.update(Account{.id = "ghost"}, pksk::set(attr(&Account::address, &Address::city), "x")),
      pksk::ValidationError);
  CHECK_FALSE(table.get(Account{.id = "ghost"}));
  CHECK_THROWS_AS(table.update(Account{.id = "1"}, pksk::set(&Account::name, "x"),
                               pksk::when(attr(&Account::balance) > 1000)),
                  pksk::ConditionFailed);
  CHECK(table.get(Account{.id = "1"})->name == "Ada Lovelace");
}

TEST_CASE("the 400 KB boundary on both sides") {
  Store store;
  auto table = make_table(store);
  // pk "BLOB#x", sk "B", type "Blob": 2+6 + 2+1 + 4+4 = 19 bytes, plus "id" + 1 and "data" + data.
  const std::size_t overhead = 19 + 2 + 1 + 4;
  Blob blob{.id = "x", .data = std::string(pksk::max_item_bytes - overhead, 'a')};
  REQUIRE(pksk::item_size({"pk", "BLOB#x", "sk", "B", "type", "Blob"}, blob) ==
          pksk::max_item_bytes);
  table.put(blob);
  CHECK(table.get(Blob{.id = "x"})->data.size() == blob.data.size());
  blob.data += 'a';
  CHECK_THROWS_AS(table.put(Blob{.id = "y", .data = blob.data}), pksk::ItemTooLarge);
  CHECK_FALSE(table.get(Blob{.id = "y"}));
  CHECK_THROWS_AS(table.update(Blob{.id = "x"}, pksk::set(&Blob::data, blob.data)),
                  pksk::ItemTooLarge);
  CHECK(table.get(Blob{.id = "x"})->data.size() == pksk::max_item_bytes - overhead);
  // In a transaction, the update past 400 KB is the reason at its own place.
  using R = pksk::CancellationReason;
  try {
    table.transact()
        .put(Blob{.id = "z"})
        .update(Blob{.id = "x"}, pksk::set(&Blob::data, blob.data))
        .commit();
    FAIL("an update past 400 KB was committed");
  } catch (const pksk::TransactionCanceled& e) {
    CHECK(e.reasons() == std::vector<R>{R::none, R::item_too_large});
  }
  CHECK_FALSE(table.get(Blob{.id = "z"}));
  CHECK(table.get(Blob{.id = "x"})->data.size() == pksk::max_item_bytes - overhead);
}

TEST_CASE("a page ends at 1 MB read, the item that crosses it included") {
  Store store;
  auto table = make_table(store);
  for (int i = 10; i < 25; ++i) {
    Order o = order(numbered("o", i), "s", i);
    o.note = std::string(100'000, 'n');
    table.put(o);
  }
  const pksk::PartitionKey pk{"CUSTOMER#c1"};
  // About 100 KB an item: ten fit within 1 MB, the eleventh crosses it.
  auto page = table.query_page<Order>(pk, {});
  CHECK(page.items.size() == 11);
  REQUIRE(page.next);
  page = table.query_page<Order>(pk, {.start = *page.next});
  CHECK(page.items.size() == 4);
  CHECK_FALSE(page.next);
  CHECK(table.query<Order>(pk).size() == 15);
}

TEST_CASE("items of types outside the collection are kept in unknown()") {
  Store store;
  auto table = make_table(store);
  table.put(Customer{.id = "c1", .name = "Ada"});
  table.put(Invoice{.customer_id = "c1", .number = "7", .amount = 3});
  table.put(order("o1", "s", 1));
  const auto all = table.query<CustomerOrders>(pksk::PartitionKey{"CUSTOMER#c1"});
  CHECK(all.size() == 2);
  REQUIRE(all.unknown().size() == 1);
  CHECK(all.unknown()[0].pk == "CUSTOMER#c1");
  CHECK(all.unknown()[0].sk == "#INVOICE#7");
  CHECK(all.unknown()[0].type == "Invoice");
  // Its text is kept in the backend's format (DynamoDB's answer hands it over live, and it is
  // only looked for then): it decodes as what was written.
  const pksk::RawItem& raw = all.unknown()[0];
  Invoice invoice;
  pksk::BodyDecoder decoder;
  if (raw.format == pksk::BodyFormat::json) {
    decoder.decode<pksk::BodyFormat::json>(raw.json, invoice);
  } else {
    decoder.decode<pksk::BodyFormat::attribute_value>(raw.json, invoice);
  }
  CHECK(invoice.number == "7");
  CHECK(invoice.amount == 3);
}

TEST_CASE("keep_undecodable reads around an item that does not decode", "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(Customer{.id = "c1", .name = "Ada"});
  table.put(order("o1", "s", 1));
  table.put(MistypedOrder{.customer_id = "c1", .order_id = "o2", .total = "lots"});
  table.put(order("o3", "s", 3));
  const pksk::PartitionKey pk{"CUSTOMER#c1"};

  // Strict by default: the read fails, naming the item.
  CHECK_THROWS_AS(table.query<CustomerOrders>(pk), pksk::DecodeError);
  CHECK_THROWS_WITH(table.query<CustomerOrders>(pk),
                    Catch::Contains("pk 'CUSTOMER#c1', sk '#ORDER#o2'"));

  const auto lenient = table.query<CustomerOrders>(pk, {.keep_undecodable = true});
  CHECK(lenient.size() == 3);
  CHECK(lenient.count<Order>() == 2);
  REQUIRE(lenient.unknown().size() == 1);
  const pksk::RawItem& bad = lenient.unknown()[0];
  CHECK(bad.sk == "#ORDER#o2");
  CHECK(bad.type == "Order");
  CHECK_THAT(bad.error, Catch::Contains("total") && Catch::Contains("'#ORDER#o2'"));
  // The paged and lazy reads set it aside alike; an unknown type keeps an empty error.
  table.put(Invoice{.customer_id = "c1", .number = "9", .amount = 1});
  const auto page = table.query_page<CustomerOrders>(pk, {.keep_undecodable = true});
  REQUIRE(page.items.unknown().size() == 2);  // in sort-key order: #INVOICE#9, #ORDER#o2
  CHECK(page.items.unknown()[0].type == "Invoice");
  CHECK(page.items.unknown()[0].error.empty());
  CHECK_FALSE(page.items.unknown()[1].error.empty());

  // A read of one entity type has no unknown() to keep it in.
  CHECK_THROWS_AS(table.query<Order>(pk, {.keep_undecodable = true}), pksk::ValidationError);
}

TEST_CASE("a filter on the sort key keeps what it matches, decoded whole", "[conformance]") {
  // DynamoDB refuses a FilterExpression on a key: the backend applies it to each item of the
  // answer before the decoder reads the same item.
  Store store;
  auto table = make_table(store);
  table.put(Customer{.id = "c1", .name = "Ada"});
  Order kept = order("o1", "shipped", 1);
  kept.items = {{"sku-1", 2, 9.5}};
  kept.note = "fragile";
  table.put(kept);
  table.put(order("x2", "pending", 2));
  const auto all = table.query<CustomerOrders>(pksk::PartitionKey{"CUSTOMER#c1"},
                                               {.filter = pksk::contains(pksk::sort_key, "#o")});
  REQUIRE(all.size() == 1);
  CHECK(*all.first<Order>() == kept);
}

TEST_CASE("a parallel scan's segments cover the table once; scan pages resume") {
  Store store;
  auto table = make_table(store);
  std::set<std::string> written;
  for (int c = 0; c < 4; ++c) {
    for (int i = 0; i < 10; ++i) {
      Order o = order(numbered("o", i), "s", i);
      o.customer_id = numbered("c", c);
      table.put(o);
      written.insert(o.customer_id + "/" + o.order_id);
    }
  }
  table.put(Customer{.id = "c0", .name = "Ada"});
  std::multiset<std::string> seen;
  for (std::size_t segment = 0; segment < 4; ++segment) {
    for (const Order& o : table.scan<Order>({.segment = segment, .segments = 4})) {
      seen.insert(o.customer_id + "/" + o.order_id);
    }
  }
  CHECK(seen == std::multiset<std::string>(written.begin(), written.end()));
  std::set<std::string> paged;
  auto page = table.scan_page<Order>({.limit = 7});
  for (int pages_read = 0;; ++pages_read) {
    REQUIRE(pages_read < 1000);  // a cursor that never ends
    for (const Order& o : page.items) paged.insert(o.customer_id + "/" + o.order_id);
    if (!page.next) break;
    page = table.scan_page<Order>({.limit = 7, .start = page.next});
  }
  CHECK(paged == written);
}

TEST_CASE("a projection reads only the members selected") {
  Store store;
  auto table = make_table(store);
  Order o = order("o1", "shipped", 12.5);
  o.note = "kept out";
  o.items = {{"sku", 1, 2.0}};
  table.put(o);
  const auto slim = table.query<Order>(pksk::PartitionKey{"CUSTOMER#c1"},
                                       {.select = pksk::members(&Order::order_id, &Order::total)});
  REQUIRE(slim.size() == 1);
  CHECK(slim[0].order_id == "o1");
  CHECK(slim[0].total == 12.5);
  CHECK(slim[0].customer_id.empty());  // a key member not selected is not read either
  CHECK(slim[0].status.empty());
  CHECK_FALSE(slim[0].note);
  CHECK(slim[0].items.empty());
}

TEST_CASE("transactions: two actions on one item are refused; versions are checked") {
  Store store;
  auto table = make_table(store);
  CHECK_THROWS_AS(
      table.transact()
          .put(order("o1", "a", 1))
          .update(Order{.customer_id = "c1", .order_id = "o1"}, pksk::set(&Order::status, "b"))
          .commit(),
      pksk::ValidationError);
  CHECK_FALSE(table.get(Order{.customer_id = "c1", .order_id = "o1"}));

  Cart cart{.id = "k1"};
  table.put(cart);
  Cart stale = cart;
  table.put(cart);
  try {
    table.transact().put(stale).put(order("o2", "a", 1)).commit();
    FAIL("a stale version went through");
  } catch (const pksk::TransactionCanceled& e) {
    using R = pksk::CancellationReason;
    CHECK(e.reasons() == std::vector<R>{R::condition_failed, R::none});
  }
  CHECK_FALSE(table.get(Order{.customer_id = "c1", .order_id = "o2"}));
  CHECK(table.get(Cart{.id = "k1"})->rev == 2);
}

TEST_CASE("one backend and one table shared by 4 threads") {
  Store store;
  auto table = make_table(store);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  std::mutex mutex;  // Catch2's macros are not for other threads: errors are kept for after
  std::vector<std::string> errors;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (int i = 0; i < 25; ++i) {
          Order o = order(numbered(numbered("t", t) + "-", 100 + i), "s", i);
          table.put(o);
          if (!(table.get(o) == o)) ++failures;
          table.update(Account{.id = "shared"}, pksk::add(&Account::balance, 1LL));
        }
        if (table
                .query<Order>(pksk::PartitionKey{"CUSTOMER#c1"},
                              {.sk = pksk::begins_with(numbered("#ORDER#t", t) + "-")})
                .size() != 25) {
          ++failures;
        }
      } catch (const std::exception& e) {
        const std::lock_guard lock(mutex);
        errors.push_back(numbered("thread ", t) + ": " + e.what());
        ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& error : errors) UNSCOPED_INFO(error);
  CHECK(failures == 0);
  CHECK(table.query<Order>(pksk::PartitionKey{"CUSTOMER#c1"}).size() == 100);
  CHECK(table.get(Account{.id = "shared"})->balance == 100);
}

// ------------------------------------------------------------------ secondary indexes (GSIs)

TEST_CASE("many-to-many through an inverted index; an entity that names no index is not in it",
          "[conformance]") {
  Store store;
  auto table = make_indexed_table(store);
  for (const char* org : {"acme", "globex", "initech"}) {
    table.put(Organisation{org, org});
  }
  table.put(Membership{"acme", "ada", "admin"});
  table.put(Membership{"acme", "bob", "member"});
  table.put(Membership{"globex", "ada", "member"});
  table.put(Membership{"initech", "ada", "owner"});

  using Members = pksk::ItemCollection<Organisation, Membership>;
  const auto acme = table.query<Members>(pksk::PartitionKey{"ORG#acme"});
  CHECK(acme.count<Organisation>() == 1);
  CHECK(acme.count<Membership>() == 2);

  // The other direction: ada's organisations, in index sort-key order, both ways.
  std::vector<std::string> orgs;
  for (const Membership& m :
       table.index("gsi1").query<Membership>(pksk::PartitionKey{"USER#ada"})) {
    orgs.push_back(m.org);
  }
  CHECK(orgs == std::vector<std::string>{"acme", "globex", "initech"});
  const auto last = table.index("gsi1").query<Membership>(pksk::PartitionKey{"USER#ada"},
                                                          {.forward = false, .limit = 1});
  REQUIRE(last.size() == 1);
  CHECK(last[0] == Membership{"initech", "ada", "owner"});
  const auto some = table.index("gsi1").query<Membership>(pksk::PartitionKey{"USER#ada"},
                                                          {.sk = pksk::between("ORG#b", "ORG#h")});
  REQUIRE(some.size() == 1);
  CHECK(some[0].org == "globex");
  const auto owners = table.index("gsi1").query<Membership>(
      pksk::PartitionKey{"USER#ada"}, {.filter = pksk::attr(&Membership::role) == "owner"});
  REQUIRE(owners.size() == 1);
  CHECK(owners[0].org == "initech");
  // Sparse: a collection query on the index meets memberships only.
  const auto through_index = table.index("gsi1").query<Members>(pksk::PartitionKey{"USER#bob"});
  CHECK(through_index.count<Organisation>() == 0);
  CHECK(through_index.count<Membership>() == 1);
  CHECK(through_index.unknown().empty());
}

TEST_CASE("consistent reads: the table's queries and scans; a global index refuses them",
          "[conformance]") {
  Store store;
  auto table = make_indexed_table(store);
  table.put(Organisation{"acme", "acme"});
  table.put(Membership{"acme", "ada", "admin"});
  using Members = pksk::ItemCollection<Organisation, Membership>;
  const auto acme = table.query<Members>(pksk::PartitionKey{"ORG#acme"}, {.consistent = true});
  CHECK(acme.count<Organisation>() == 1);
  CHECK(acme.count<Membership>() == 1);
  CHECK(table.scan<Membership>({.consistent = true}).size() == 1);
  CHECK(table.index("gsi1").query<Membership>(pksk::PartitionKey{"USER#ada"}).size() == 1);
  try {
    (void)table.index("gsi1").query<Membership>(pksk::PartitionKey{"USER#ada"},
                                                {.consistent = true});
    FAIL("a consistent query on a global secondary index was answered");
  } catch (const pksk::ValidationError& e) {
    INFO(e.what());
    CHECK(e.code() == pksk::errc::validation);
    CHECK_FALSE(e.retryable());
  }
}

TEST_CASE("an index follows puts, updates, transactions and erases", "[conformance]") {
  Store store;
  auto table = make_indexed_table(store);
  const auto titles = [&](const char* status) {
    std::vector<std::string> out;
    pksk::PartitionKey pk{"STATUS#"};
    pk.value += status;
    for (const Ticket& t : table.index("gsi2").query<Ticket>(pk)) {
      out.push_back(t.title);
    }
    return out;
  };
  table.put(Ticket{"t1", "open", 3, "three"});
  table.put(Ticket{"t2", "open", 1, "one"});
  table.put(Ticket{"t3", "open", 2, "two"});
  CHECK(titles("open") == std::vector<std::string>{"one", "two", "three"});

  const Ticket closed = table.update(Ticket{.id = "t2"}, pksk::set(&Ticket::status, "closed"),
                                     pksk::set(&Ticket::opened, 9));
  CHECK(closed.title == "one");
  CHECK(titles("open") == std::vector<std::string>{"two", "three"});
  CHECK(titles("closed") == std::vector<std::string>{"one"});

  // Changing opened alone would need the stored status: refused before anything is sent.
  CHECK_THROWS_AS(table.update(Ticket{.id = "t1"}, pksk::set(&Ticket::opened, 4)),
                  pksk::ValidationError);

  table.transact()
      .update(Ticket{.id = "t3"}, pksk::set(&Ticket::status, "closed"),
              pksk::set(&Ticket::opened, 0))
      .put(Ticket{"t4", "open", 5, "five"})
      .erase(Ticket{.id = "t1"})
      .commit();
  CHECK(titles("open") == std::vector<std::string>{"five"});
  CHECK(titles("closed") == std::vector<std::string>{"two", "one"});
  table.put(Ticket{"t4", "closed", 7, "five again"});  // replaced whole: out of "open"
  CHECK(titles("open").empty());
  CHECK(titles("closed") == std::vector<std::string>{"two", "five again", "one"});
}

TEST_CASE("an index query pages exactly when many items share one index key", "[conformance]") {
  Store store;
  auto table = make_indexed_table(store);
  std::vector<Ticket> tickets;
  for (int i = 0; i < 30; ++i)
    tickets.push_back(Ticket{numbered("t", i), "open", 0, numbered("#", i)});
  table.put_all(tickets);
  std::set<std::string> seen;
  std::optional<pksk::Cursor> start;
  int pages = 0;
  do {
    const auto page = table.index("gsi2").query_page<Ticket>(pksk::PartitionKey{"STATUS#open"},
                                                             {.limit = 4, .start = start});
    for (const Ticket& t : page.items) CHECK(seen.insert(t.id).second);
    start = page.next;
    ++pages;
  } while (start && pages < 100);
  CHECK(seen.size() == 30);
  CHECK(pages >= 8);
}

TEST_CASE("the raw API refuses a key that is empty or past DynamoDB's limits", "[conformance]") {
  Store store;
  const auto handle = store.backend.open_table(pksk::backend::TableSpec{fresh_table_name()});
  const auto put = [&](std::string_view pk, std::string_view sk) {
    store.backend.put(handle,
                      pksk::backend::PutRequest{
                          .item = {.pk = pk, .sk = sk, .type = "Raw", .body = "{}", .size = 0}});
  };
  const auto found = [&](std::string_view pk, std::string_view sk) {
    bool seen = false;
    const auto visit = [&](const pksk::backend::ItemView&) { seen = true; };
    store.backend.get(handle, pksk::backend::ItemKey{pk, sk}, pksk::backend::ItemVisitor(visit));
    return seen;
  };
  const std::string pk_at_limit(pksk::max_partition_key_size, 'p');
  const std::string sk_at_limit(pksk::max_sort_key_size, 's');
  put(pk_at_limit, sk_at_limit);  // at the limits: taken
  CHECK(found(pk_at_limit, sk_at_limit));

  const std::string pk_over = pk_at_limit + "p";
  const std::string sk_over = sk_at_limit + "s";
  CHECK_THROWS_AS(put(pk_over, "A"), pksk::ValidationError);
  CHECK_THROWS_AS(put("P", sk_over), pksk::ValidationError);
  CHECK_THROWS_AS(put("", "A"), pksk::ValidationError);
  CHECK_THROWS_AS(put("P", ""), pksk::ValidationError);
  CHECK_THROWS_AS(found("P", sk_over), pksk::ValidationError);
  CHECK_THROWS_AS(found("", "A"), pksk::ValidationError);
  CHECK_THROWS_AS(store.backend.erase(handle, pksk::backend::EraseRequest{.key = {"P", sk_over}}),
                  pksk::ValidationError);
  // A query's partition key too: DynamoDB refuses it rather than finding nothing.
  const auto query = [&](std::string_view pk) {
    std::size_t seen = 0;
    const auto visit = [&](const pksk::backend::ItemView&) { ++seen; };
    store.backend.query(handle, pksk::backend::RawQuery{.pk = pk},
                        pksk::backend::ItemVisitor(visit));
    return seen;
  };
  CHECK(query(pk_at_limit) == 1);
  CHECK_THROWS_AS(query(pk_over), pksk::ValidationError);
  CHECK_THROWS_AS(query(""), pksk::ValidationError);
  // A batch with one such key writes nothing.
  const std::vector<pksk::backend::WriteRequest> batch{
      pksk::backend::PutRequest{
          .item = {.pk = "P", .sk = "ok", .type = "Raw", .body = "{}", .size = 0}},
      pksk::backend::PutRequest{
          .item = {.pk = "P", .sk = sk_over, .type = "Raw", .body = "{}", .size = 0}}};
  std::vector<std::size_t> unprocessed;
  CHECK_THROWS_AS(store.backend.batch_write(handle, batch, unprocessed), pksk::ValidationError);
  CHECK_FALSE(found("P", "ok"));
}

// Errors are data: the same failure has the same code() on both backends, whatever the message.
TEST_CASE("errors carry their code, whether to retry, and the store's own answer",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const auto code_of = [](auto&& write) -> std::error_code {
    try {
      write();
    } catch (const pksk::Error& e) {
      return e.code();
    }
    return {};
  };

  table.put(order("o1", "pending", 10));
  try {
    table.put(order("o1", "x", 1), pksk::if_absent);
    FAIL("if_absent held on a present item");
  } catch (const pksk::ConditionFailed& e) {
    CHECK(e.code() == pksk::errc::condition_failed);
    CHECK(e.kind() == pksk::errc::condition_failed);
    CHECK_FALSE(e.retryable());
    CHECK(std::string(e.code().category().name()) == "pksk");
  }
  CHECK(code_of([&] {
          table.update(Order{.customer_id = "c1", .order_id = "o1"},
                       pksk::when(pksk::attr(&Order::status) == "shipped"),
                       pksk::set(&Order::total, 2.0));
        }) == pksk::errc::condition_failed);
  CHECK(code_of([&] {
          table.erase(Order{.customer_id = "c1", .order_id = "o1"},
                      pksk::when(pksk::attr(&Order::total) > 100.0));
        }) == pksk::errc::condition_failed);

  try {
    table.transact().put(order("o2", "paid", 1)).check(Customer{.id = "c9"}, pksk::exists).commit();
    FAIL("the transaction was not canceled");
  } catch (const pksk::TransactionCanceled& e) {
    CHECK(e.code() == pksk::errc::transaction_canceled);
    CHECK_FALSE(e.retryable());  // a condition failed: the same transaction fails again
    // DynamoDB says it as TransactionCanceledException; SQLite decides it in C++.
    if (e.native().origin == pksk::NativeError::Origin::dynamodb) {
      CHECK(e.native().type == "TransactionCanceledException");
      CHECK(e.native().code == 400);
    } else {
      CHECK(e.native().origin == pksk::NativeError::Origin::none);
    }
  }

  const auto pk = pksk::partition(Customer{.id = "c1"});
  CHECK(code_of([&] {
          (void)table.query<Order>(pk, {.sk = pksk::between("#ORDER#9", "#ORDER#1")});
        }) == pksk::errc::validation);
  CHECK(code_of([&] {
          auto tx = table.transact();
          for (int i = 0; i < 101; ++i) tx.put(order(numbered("t", i), "a", 1));
          tx.commit();
        }) == pksk::errc::validation);

  const std::string too_large(pksk::max_item_bytes, 'a');
  CHECK(code_of([&] { table.put(Blob{.id = "big", .data = too_large}); }) ==
        pksk::errc::item_too_large);
  table.put(Blob{.id = "small", .data = "a"});
  try {
    table.update(Blob{.id = "small"}, pksk::set(&Blob::data, too_large));
    FAIL("an update past 400 KB went through");
  } catch (const pksk::ItemTooLarge& e) {
    CHECK(e.code() == pksk::errc::item_too_large);
    CHECK_FALSE(e.retryable());
  }

  // A table that is absent, on a backend that does not create tables.
  Store::NoCreate no_create;
  try {
    pksk::Table absent{no_create.backend, fresh_table_name()};
    FAIL("an absent table was opened");
  } catch (const pksk::BackendError& e) {
    INFO(e.what());
    CHECK(e.code() == pksk::errc::missing_table);
    CHECK_FALSE(e.retryable());
  }
  // Codes compare with std::error_code as std::errc values do, and say themselves.
  CHECK(pksk::make_error_code(pksk::errc::throttled).message() == "throttled");
  CHECK(std::error_code(pksk::errc::missing_table) != std::error_code(pksk::errc::corrupt));
}

#include "cases_blob.hpp"
#include "cases_chunked.hpp"
#include "cases_compressed.hpp"
#include "cases_edges.hpp"
#include "cases_key_schemas.hpp"
#include "cases_keys.hpp"
#include "cases_members.hpp"
#include "cases_names.hpp"
#include "cases_reads.hpp"
#include "cases_stats.hpp"
#include "cases_ttl.hpp"
#include "cases_unique.hpp"
#include "cases_unique_owners.hpp"
#include "cases_unique_values.hpp"
#include "cases_upsert.hpp"
#include "cases_values.hpp"

// These use the entities of the cases above (cases_unique.hpp's Member, ...): they come last.
#include "cases_extensions.hpp"
#include "cases_try_writes.hpp"
