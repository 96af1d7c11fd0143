// SPDX-License-Identifier: BSL-1.0
// The conformance cases of upsert, included by cases.hpp: every member the entity declares is
// written, and the attributes it does not declare (what another service or tool keeps in the
// same item) are left as they are, where put would replace the whole item.

namespace conformance {

// What a service that knows more of an order writes: Order's type and keys, and members the
// conformance Order does not declare.
struct WiderOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  long long loyalty_points{};
  std::optional<std::string> courier;
  friend bool operator==(const WiderOrder&, const WiderOrder&) = default;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::WiderOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

TEST_CASE("upsert: declared members are written, undeclared attributes kept",
          "[conformance][upsert]") {
  Store store;
  auto table = make_table(store);
  table.put(WiderOrder{.customer_id = "c1",
                       .order_id = "o1",
                       .status = "new",
                       .total = 5,
                       .loyalty_points = 40,
                       .courier = "DHL"});

  Order order{.customer_id = "c1", .order_id = "o1", .status = "shipped", .total = 7.5};
  order.count = 3;
  order.note = "leave at the door";
  order.tags = {"gift"};
  const Order stored = table.upsert(order);
  CHECK(stored == order);
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "o1"}) == order);

  // The other service's members survive; a put would have removed them.
  const auto wider = table.get(WiderOrder{.customer_id = "c1", .order_id = "o1"});
  REQUIRE(wider);
  CHECK(wider->status == "shipped");
  CHECK(wider->total == 7.5);
  CHECK(wider->loyalty_points == 40);
  CHECK(wider->courier == "DHL");

  // An empty optional and an empty set are removed, as a put leaves them out.
  order.note.reset();
  order.tags.clear();
  CHECK(table.upsert(order) == order);
  CHECK(table.get(Order{.customer_id = "c1", .order_id = "o1"}) == order);
  CHECK(table.get(WiderOrder{.customer_id = "c1", .order_id = "o1"})->loyalty_points == 40);

  // A put replaces the item: the undeclared members go.
  table.put(order);
  CHECK(table.get(WiderOrder{.customer_id = "c1", .order_id = "o1"})->loyalty_points == 0);
  CHECK_FALSE(table.get(WiderOrder{.customer_id = "c1", .order_id = "o1"})->courier);
}

TEST_CASE("upsert: an absent item is created whole; conditions and versions as update's",
          "[conformance][upsert]") {
  Store store;
  auto table = make_table(store);
  const Order fresh{.customer_id = "c2", .order_id = "o9", .status = "new", .total = 1};
  CHECK(table.upsert(fresh, pksk::if_absent) == fresh);
  CHECK(table.get(Order{.customer_id = "c2", .order_id = "o9"}) == fresh);
  CHECK_THROWS_AS(table.upsert(fresh, pksk::if_absent), pksk::ConditionFailed);

  // A versioned entity: the item's version is checked and incremented, as update does.
  Cart cart{.id = "k1", .rev = 0, .skus = {"a"}};
  const Cart first = table.upsert(cart);
  CHECK(first.rev == 1);
  CHECK_THROWS_AS(table.upsert(cart), pksk::ConditionFailed);  // stale: rev 0
  cart = first;
  cart.skus = {"a", "b"};
  CHECK(table.upsert(cart).rev == 2);
  CHECK(table.get(Cart{.id = "k1"})->skus == std::vector<std::string>{"a", "b"});
}

TEST_CASE("upsert in a transaction keeps undeclared attributes too", "[conformance][upsert]") {
  Store store;
  auto table = make_table(store);
  table.put(WiderOrder{.customer_id = "c3", .order_id = "o1", .loyalty_points = 7});
  table.put(WiderOrder{.customer_id = "c3", .order_id = "o2", .loyalty_points = 8});
  table.transact()
      .upsert(Order{.customer_id = "c3", .order_id = "o1", .status = "paid", .total = 2})
      .upsert(Order{.customer_id = "c3", .order_id = "o2", .status = "paid", .total = 3})
      .commit();
  const auto orders = table.query<WiderOrder>(pksk::PartitionKey{"CUSTOMER#c3"});
  REQUIRE(orders.size() == 2);
  CHECK(orders[0].status == "paid");
  CHECK(orders[0].loyalty_points == 7);
  CHECK(orders[1].total == 3);
  CHECK(orders[1].loyalty_points == 8);
}

TEST_CASE("upsert stores a compressed member as put does", "[conformance][upsert]") {
  Store store;
  auto table = make_table(store);
  const Reply r = long_reply("2024-02-02");
  CHECK(table.upsert(r).message == r.message);
  const pksk::RawItem raw = stored_reply(table, "REPLY#2024-02-02");
  const std::string binary =
      raw.format == pksk::BodyFormat::attribute_value ? R"({"B":"KLUv)" : R"({"":"KLUv)";
  CHECK(raw.json.find(R"("message":)" + binary) != std::string::npos);
  CHECK(raw.json.size() < 20'000);
  CHECK(table.get(Reply{.thread = r.thread, .at = r.at})->message == r.message);
}
