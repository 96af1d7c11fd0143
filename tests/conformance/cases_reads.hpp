// SPDX-License-Identifier: BSL-1.0
// The conformance cases of count<R> (DynamoDB's Select=COUNT) and transact_get (DynamoDB's
// TransactGetItems), included by cases.hpp: a count equals the size of the query it stands
// for, over a matrix of options and across pages; a transactional read answers per key, and
// refuses what DynamoDB refuses.

#include <tuple>

namespace conformance_reads {

// Under Order's keys, with another type: what get and transact_get of an Order refuse.
struct Impostor {
  std::string customer_id;
  std::string order_id;
};

}  // namespace conformance_reads

template <>
struct pksk::Entity<conformance_reads::Impostor> {
  static constexpr std::string_view type = "Impostor";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

namespace conformance_reads {

using namespace conformance;
using Orders = pksk::ItemCollection<Customer, Order>;

// A customer, nine orders (totals 1 to 9, every other one shipped) and two invoices, which are
// neither Orders nor members of Orders, and sort before the orders.
template <class Table>
void fill_customer(Table& table) {
  table.put(Customer{.id = "c1", .name = "Ada", .email = "ada@example.com"});
  for (int day = 1; day <= 9; ++day) {
    table.put(order(numbered("2024-01-0", day), day % 2 ? "shipped" : "pending", day));
  }
  table.put(Invoice{.customer_id = "c1", .number = "1", .amount = 10});
  table.put(Invoice{.customer_id = "c1", .number = "2", .amount = 20});
}

}  // namespace conformance_reads

TEST_CASE("count<R> is query<R>'s size over a matrix of options", "[conformance][count]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_table(store);
  fill_customer(table);
  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "c1"});

  const std::vector<std::optional<pksk::KeyCondition>> conditions{
      std::nullopt,
      pksk::between("#ORDER#2024-01-03", "#ORDER#2024-01-07"),
      pksk::begins_with("#ORDER#2024-01-0"),
      pksk::gt("#ORDER#2024-01-05"),  // and the customer, "A"
      pksk::lt("#ORDER#2024-01-04"),  // and the invoices
  };
  // The sort-key filter is one DynamoDB's FilterExpression cannot take: on DynamoDB it is
  // applied by the client, to items that must come back to be counted.
  const std::vector<pksk::Filter> filters{
      {},
      pksk::Filter(pksk::attr(&Order::total) > 4.0),
      pksk::Filter(pksk::contains(pksk::sort_key, "-0")),
      pksk::type_is<Customer>() || pksk::attr(&Order::status) == "shipped",
  };
  std::size_t nonzero = 0;
  for (std::size_t c = 0; c < conditions.size(); ++c) {
    for (const bool forward : {true, false}) {
      for (const std::size_t limit : {0, 1, 4, 100}) {
        for (std::size_t f = 0; f < filters.size(); ++f) {
          INFO("condition " << c << ", forward " << forward << ", limit " << limit << ", filter "
                            << f);
          const pksk::QueryOptions options{
              .sk = conditions[c], .forward = forward, .limit = limit, .filter = filters[f]};
          const std::size_t orders = table.query<Order>(pk, options).size();
          CHECK(table.count<Order>(pk, options) == orders);
          const std::size_t all = table.query<Orders>(pk, options).size();
          CHECK(table.count<Orders>(pk, options) == all);
          nonzero += orders != 0 ? 1 : 0;
        }
      }
    }
  }
  CHECK(nonzero > 50);  // the matrix is not a matrix of empty answers
  CHECK(table.count<Order>(pk) == 9);
  CHECK(table.count<Orders>(pk) == 10);  // the invoices are unknown(): not in size()
  CHECK(table.count<Order>(pk, {.filter = pksk::attr(&Order::status) == "shipped"}) == 5);

  // From a cursor: what the query from there would return.
  const auto first = table.query_page<Orders>(pk, {.limit = 4});
  REQUIRE(first.next);
  const pksk::QueryOptions rest{.start = *first.next};
  CHECK(table.count<Orders>(pk, rest) == table.query<Orders>(pk, rest).size());
  CHECK(table.count<Orders>(pk, rest) == 8);  // the page read both invoices
}

TEST_CASE("count of an empty partition is 0, on the table and on an index",
          "[conformance][count]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_indexed_table(store);
  fill_customer(table);
  const pksk::PartitionKey nobody = pksk::partition(Customer{.id = "nobody"});
  CHECK(table.count<Order>(nobody) == 0);
  CHECK(table.count<Orders>(nobody) == 0);
  CHECK(table.count<Order>(nobody, {.filter = pksk::contains(pksk::sort_key, "x")}) == 0);
  CHECK(table.index("gsi1").count<Membership>(pksk::PartitionKey{"USER#nobody"}) == 0);
  // A partition that holds only items of other types.
  table.put(Invoice{.customer_id = "c2", .number = "1", .amount = 1});
  CHECK(table.count<Orders>(pksk::partition(Customer{.id = "c2"})) == 0);
}

TEST_CASE("count on an index: key condition, filter, collection", "[conformance][count]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_indexed_table(store);
  for (const char* org : {"acme", "globex", "initech", "umbrella"}) {
    table.put(Organisation{org, org});
    table.put(Membership{org, "ada", std::string(org) == "globex" ? "owner" : "member"});
  }
  table.put(Membership{"acme", "bob", "admin"});
  auto gsi1 = table.index("gsi1");
  const pksk::PartitionKey ada{"USER#ada"};
  const std::vector<pksk::QueryOptions> matrix{
      {},
      {.sk = pksk::between("ORG#b", "ORG#j")},
      {.sk = pksk::begins_with("ORG#")},
      {.forward = false, .limit = 2},
      {.filter = pksk::attr(&Membership::role) == "owner"},
      {.sk = pksk::gt("ORG#acme"), .filter = pksk::attr(&Membership::role) != "owner"},
  };
  for (std::size_t i = 0; i < matrix.size(); ++i) {
    INFO("options " << i);
    CHECK(gsi1.count<Membership>(ada, matrix[i]) == gsi1.query<Membership>(ada, matrix[i]).size());
  }
  CHECK(gsi1.count<Membership>(ada) == 4);
  CHECK(gsi1.count<Membership>(ada, matrix[1]) == 2);
  CHECK(gsi1.count<Membership>(ada, matrix[4]) == 1);
  using Members = pksk::ItemCollection<Organisation, Membership>;
  CHECK(gsi1.count<Members>(ada) == gsi1.query<Members>(ada).size());
  CHECK(gsi1.count<Members>(pksk::PartitionKey{"USER#bob"}) == 1);
}

TEST_CASE("a count follows every page past 1 MB, on the table and on an index",
          "[conformance][count]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_indexed_table(store);
  table.put(Customer{.id = "c1", .name = "Ada"});
  // About 100 KB an item: 25 of them are three pages of 1 MB.
  for (int i = 10; i < 35; ++i) {
    Order o = order(numbered("o", i), i % 3 == 0 ? "shipped" : "pending", i);
    o.note = std::string(100'000, 'n');
    table.put(o);
  }
  const pksk::PartitionKey pk{"CUSTOMER#c1"};
  REQUIRE(table.query_page<Order>(pk).next);  // more than one page indeed
  CHECK(table.count<Order>(pk) == 25);
  CHECK(table.count<Orders>(pk) == 26);
  const std::vector<pksk::QueryOptions> matrix{
      {.limit = 12},  // past the first page's 11 items
      {.forward = false, .limit = 23},
      {.filter = pksk::attr(&Order::status) == "shipped"},
      {.filter = pksk::contains(pksk::sort_key, "o2")},  // the client's filter on DynamoDB
      {.sk = pksk::between("#ORDER#o12", "#ORDER#o31"), .limit = 15},
  };
  for (std::size_t i = 0; i < matrix.size(); ++i) {
    INFO("options " << i);
    CHECK(table.count<Order>(pk, matrix[i]) == table.query<Order>(pk, matrix[i]).size());
    CHECK(table.count<Orders>(pk, matrix[i]) == table.query<Orders>(pk, matrix[i]).size());
  }
  CHECK(table.count<Order>(pk, matrix[0]) == 12);

  // An index: 30 tickets of about 50 KB in one index partition.
  for (int i = 0; i < 30; ++i) {
    table.put(Ticket{
        .id = numbered("t", i), .status = "open", .opened = i, .title = std::string(50'000, 't')});
  }
  const pksk::PartitionKey open{"STATUS#open"};
  auto gsi2 = table.index("gsi2");
  REQUIRE(gsi2.query_page<Ticket>(open).next);
  CHECK(gsi2.count<Ticket>(open) == 30);
  CHECK(gsi2.count<Ticket>(open, {.limit = 25}) == 25);
  const pksk::QueryOptions late{.filter = pksk::attr(&Ticket::opened) >= 20};
  CHECK(gsi2.count<Ticket>(open, late) == 10);
  CHECK(gsi2.count<Ticket>(open, late) == gsi2.query<Ticket>(open, late).size());
}

TEST_CASE("count refuses what it cannot mean; it counts an item that would not decode",
          "[conformance][count]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_table(store);
  fill_customer(table);
  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "c1"});
  CHECK_THROWS_AS(table.count<Order>(pk, {.select = pksk::members(&Order::total)}),
                  pksk::ValidationError);
  CHECK_THROWS_WITH(table.count<Orders>(pk, {.select = pksk::members(&Order::total)}),
                    Catch::Contains("a count reads none"));
  CHECK_THROWS_AS(table.count<Order>(pk, {.keep_undecodable = true}), pksk::ValidationError);
  CHECK_THROWS_AS(table.count<Order>(pk, {.segment = 1, .segments = 2}), pksk::ValidationError);
  CHECK_THROWS_AS(table.count<Order>(pksk::PartitionKey{"CUSTOMER#"}), pksk::ValidationError);

  // Nothing is decoded: an Order whose body an Order does not decode still counts, where a read
  // with keep_undecodable sets it aside in unknown().
  table.put(MistypedOrder{.customer_id = "c1", .order_id = "2024-01-05", .total = "lots"});
  CHECK(table.count<Order>(pk) == 9);
  CHECK(table.count<Orders>(pk) == 10);
  CHECK(table.query<Orders>(pk, {.keep_undecodable = true}).size() == 9);
}

TEST_CASE("transact_get reads several types at once; a missing key is nullopt",
          "[conformance][transact_get]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_table(store);
  fill_customer(table);
  Cart cart{.id = "k1", .skus = {"a", "b"}};
  table.put(cart);

  auto [customer, shipped, missing, stored_cart] =
      table.transact_get(Customer{.id = "c1"}, Order{.customer_id = "c1", .order_id = "2024-01-03"},
                         Order{.customer_id = "c1", .order_id = "2030-01-01"}, Cart{.id = "k1"});
  static_assert(std::is_same_v<decltype(customer), std::optional<Customer>>);
  REQUIRE(customer);
  CHECK(customer->name == "Ada");
  REQUIRE(shipped);
  CHECK(*shipped == order("2024-01-03", "shipped", 3));
  CHECK_FALSE(missing);
  REQUIRE(stored_cart);
  CHECK(*stored_cart == cart);  // its version as written: 1

  const auto [nothing] = table.transact_get(Customer{.id = "nobody"});
  CHECK_FALSE(nothing);

  // A range of one entity: an optional per key, in the order of the keys.
  const std::vector<Order> keys{Order{.customer_id = "c1", .order_id = "2024-01-09"},
                                Order{.customer_id = "c2", .order_id = "2024-01-09"},
                                Order{.customer_id = "c1", .order_id = "2024-01-01"}};
  const std::vector<std::optional<Order>> found = table.transact_get(keys);
  REQUIRE(found.size() == 3);
  REQUIRE(found[0]);
  CHECK(found[0]->total == 9);
  CHECK_FALSE(found[1]);
  REQUIRE(found[2]);
  CHECK(found[2]->total == 1);
  CHECK(table.transact_get(std::vector<Order>{}).empty());
}

TEST_CASE("transact_get takes up to 100 keys, each item once", "[conformance][transact_get]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_table(store);
  std::vector<Order> orders;
  for (int i = 0; i < 101; ++i) orders.push_back(order(numbered("o", 1000 + i), "s", i));
  table.put_all(orders);

  std::vector<Order> keys(orders.begin(), orders.begin() + 100);
  std::reverse(keys.begin(), keys.end());
  const std::vector<std::optional<Order>> hundred = table.transact_get(keys);
  REQUIRE(hundred.size() == 100);
  for (std::size_t i = 0; i < hundred.size(); ++i) {
    INFO("key " << i);
    REQUIRE(hundred[i]);
    CHECK(hundred[i]->order_id == keys[i].order_id);
  }

  CHECK_THROWS_AS(table.transact_get(orders), pksk::ValidationError);
  CHECK_THROWS_WITH(table.transact_get(orders), Catch::Contains("not 101"));

  // One item twice: refused, naming the item, as DynamoDB refuses the request.
  const std::vector<Order> twice{orders[3], orders[7], orders[3]};
  CHECK_THROWS_AS(table.transact_get(twice), pksk::ValidationError);
  CHECK_THROWS_WITH(
      table.transact_get(twice),
      Catch::Contains("keys 0 and 2") && Catch::Contains("pk 'CUSTOMER#c1', sk '#ORDER#o1003'"));
  CHECK_THROWS_AS(
      table.transact_get(Order{.customer_id = "c1", .order_id = "o1001"}, Customer{.id = "c9"},
                         Order{.customer_id = "c1", .order_id = "o1001"}),
      pksk::ValidationError);
}

TEST_CASE("transact_get of a key holding another type fails as get does",
          "[conformance][transact_get]") {
  using namespace conformance_reads;
  Store store;
  auto table = make_table(store);
  table.put(Customer{.id = "c1", .name = "Ada"});
  table.put(Impostor{.customer_id = "c1", .order_id = "o1"});
  const Order key{.customer_id = "c1", .order_id = "o1"};
  CHECK_THROWS_AS(table.get(key), pksk::DecodeError);
  CHECK_THROWS_AS(table.transact_get(Customer{.id = "c1"}, key), pksk::DecodeError);
  CHECK_THROWS_WITH(table.transact_get(std::vector<Order>{key}),
                    Catch::Contains("transact_get") && Catch::Contains("'Impostor'"));
}
