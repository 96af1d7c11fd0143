// SPDX-License-Identifier: BSL-1.0
// The conformance cases on stored attribute names (Entity<T>::attribute_case and renames,
// pksk::Attributes<T> for a nested record), included by cases.hpp: every path that writes or
// reads an attribute name uses the stored one, on both backends.

#include "names.hpp"

namespace conformance {

// The item as stored: read back raw, as an item of no type a collection of Customers knows.
template <class Table>
std::string stored_text(Table& table, const pksk::PartitionKey& pk, std::string_view sk) {
  const auto raw = table.template query<pksk::ItemCollection<Customer>>(pk);
  for (const pksk::RawItem& item : raw.unknown()) {
    if (item.sk == sk) return item.json;
  }
  FAIL("no item with sort key " << sk);
  return {};
}

}  // namespace conformance

TEST_CASE("stored names: an item is written and read under its stored attribute names",
          "[conformance][names]") {
  Store store;
  auto table = make_classic_table(store);
  ClassicOrder o = classic_order("2020-12-06", 59.98);
  table.put(o);
  CHECK(o.rev == 1);
  CHECK(table.get(ClassicOrder{.customer_id = "123", .order_id = "2020-12-06"}) == o);

  const std::string text =
      stored_text(table, pksk::PartitionKey{"CUSTOMER#123"}, "#ORDER#2020-12-06");
  for (const std::string_view name :
       {R"("CustomerId")", R"("OrderId")", R"("Status")", R"("Total")", R"("Gift \"Note\"")",
        R"("tracking.ids")", R"("LineCounts")", R"("SalesRep")", R"("Price")", R"("currencyCode")",
        R"("cents")", R"("Rev")"}) {
    INFO(name);
    CHECK(text.find(name) != std::string::npos);
  }
  for (const std::string_view name :
       {R"("customer_id")", R"("amount")", R"("gift_note")", R"("currency_code")", R"("rev")"}) {
    INFO(name);
    CHECK(text.find(name) == std::string::npos);
  }

  // A collection query decodes it, and an absent optional stays absent.
  o.gift_note.reset();
  o.order_id = "2020-12-07";
  o.rev = 0;
  table.put(o);
  const auto orders = table.query<ClassicOrder>(pksk::PartitionKey{"CUSTOMER#123"});
  REQUIRE(orders.size() == 2);
  CHECK(orders[0].gift_note == "with love");
  CHECK_FALSE(orders[1].gift_note);
  CHECK(orders[1] == o);
}

TEST_CASE("stored names: filters and conditions name the stored attributes",
          "[conformance][names]") {
  Store store;
  auto table = make_classic_table(store);
  for (int i = 1; i <= 4; ++i) table.put(classic_order(numbered("2020-12-0", i), 10.0 * i));
  table.put(classic_order("2020-12-05", 99), pksk::if_absent);
  using pksk::attr;
  const pksk::PartitionKey pk{"CUSTOMER#123"};
  CHECK(table.query<ClassicOrder>(pk, {.filter = attr(&ClassicOrder::amount) > 25.0}).size() == 3);
  CHECK(table
            .query<ClassicOrder>(pk, {.filter = attr(&ClassicOrder::gift_note) == "with love" &&
                                                attr(&ClassicOrder::amount) <= 20.0})
            .size() == 2);
  CHECK(table
            .query<ClassicOrder>(
                pk, {.filter = attr(&ClassicOrder::price, &Price::currency_code) == "EUR" &&
                               attr(&ClassicOrder::price, &Price::minor_units) == 5998 &&
                               pksk::contains(attr(&ClassicOrder::tracking), "t1") &&
                               pksk::exists(attr(&ClassicOrder::line_counts))})
            .size() == 5);
  CHECK(table
            .query<ClassicOrder>(pk,
                                 {.filter = pksk::begins_with(attr(&ClassicOrder::status), "pend")})
            .size() == 5);

  ClassicOrder current = *table.get(ClassicOrder{.customer_id = "123", .order_id = "2020-12-01"});
  CHECK_THROWS_AS(table.put(current, pksk::when(attr(&ClassicOrder::amount) > 50.0)),
                  pksk::ConditionFailed);
  table.put(current, pksk::when(attr(&ClassicOrder::amount) == 10.0 &&
                                attr(&ClassicOrder::gift_note) == "with love"));
  CHECK(current.rev == 2);
}

TEST_CASE("stored names: every update action, a projection and the version",
          "[conformance][names]") {
  Store store;
  auto table = make_classic_table(store);
  table.put(classic_order("2020-12-06", 59.98));
  using pksk::attr;
  const ClassicOrder key{.customer_id = "123", .order_id = "2020-12-06", .rev = 1};
  ClassicOrder o =
      table.update(key, pksk::set(&ClassicOrder::status, "shipped"),
                   pksk::add(&ClassicOrder::amount, 5.0), pksk::remove(&ClassicOrder::gift_note),
                   pksk::append(&ClassicOrder::tracking, std::string("t2")),
                   pksk::set(attr(&ClassicOrder::price, &Price::minor_units), 6498LL));
  CHECK(o.status == "shipped");
  CHECK(o.amount == 64.98);
  CHECK_FALSE(o.gift_note);
  CHECK(o.tracking == std::vector<std::string>{"t1", "t2"});
  CHECK(o.price == Price{"EUR", 6498});
  CHECK(o.rev == 2);
  o = table.update(o, pksk::if_not_exists(&ClassicOrder::gift_note, std::string("again")),
                   pksk::set(&ClassicOrder::line_counts,
                             std::map<std::string, int>{{"sku-1", 2}, {"sku-2", 1}}));
  CHECK(o.gift_note == "again");
  CHECK(o.line_counts == std::map<std::string, int>{{"sku-1", 2}, {"sku-2", 1}});
  CHECK(o.rev == 3);
  CHECK(table.get(key) == o);

  // The version is checked under its stored name: a stale copy is refused.
  CHECK_THROWS_AS(table.update(key, pksk::set(&ClassicOrder::status, "lost")),
                  pksk::ConditionFailed);
  CHECK_THROWS_AS(table.put(classic_order("2020-12-06", 1)), pksk::ConditionFailed);

  // A transaction's writes and checks name the same attributes.
  ClassicOrder other = classic_order("2020-12-09", 2);
  table.put(other);
  table.transact()
      .put(classic_order("2020-12-08", 1))
      .update(o, pksk::add(&ClassicOrder::amount, 1.0))
      .check(other, pksk::when(attr(&ClassicOrder::gift_note) == "with love" &&
                               attr(&ClassicOrder::amount) == 2.0))
      .commit();
  CHECK(table.get(ClassicOrder{.customer_id = "123", .order_id = "2020-12-08"})->rev == 1);
  o = *table.get(key);
  CHECK(o.amount == 65.98);
  CHECK(o.rev == 4);
  CHECK_THROWS_AS(table.transact()
                      .update(o, pksk::set(&ClassicOrder::status, "x"))
                      .check(other, pksk::when(attr(&ClassicOrder::amount) > 2.0))
                      .commit(),
                  pksk::TransactionCanceled);
  table.erase(ClassicOrder{.customer_id = "123", .order_id = "2020-12-08", .rev = 1});
  table.erase(other);

  // Only the selected members are read, by their stored names.
  const auto slim = table.query<ClassicOrder>(
      pksk::PartitionKey{"CUSTOMER#123"},
      {.select =
           pksk::members(&ClassicOrder::amount, &ClassicOrder::gift_note, &ClassicOrder::price)});
  REQUIRE(slim.size() == 1);
  CHECK(slim[0].amount == 65.98);
  CHECK(slim[0].gift_note == "again");
  CHECK(slim[0].price == Price{"EUR", 6498});
  CHECK(slim[0].status.empty());
  CHECK(slim[0].tracking.empty());
}

TEST_CASE("stored names: index upkeep reads and writes the stored key members",
          "[conformance][names]") {
  Store store;
  auto table = make_classic_table(store);
  table.put(classic_order("2020-12-06", 59.98));
  table.put(classic_order("2020-12-07", 10));
  const auto by_rep = [&](std::string rep) {
    return table.index("gsi1").query<ClassicOrder>(pksk::PartitionKey{"REP#" + rep});
  };
  REQUIRE(by_rep("ada").size() == 2);
  CHECK(by_rep("ada")[0].amount == 59.98);
  const ClassicOrder moved =
      table.update(ClassicOrder{.customer_id = "123", .order_id = "2020-12-07", .rev = 1},
                   pksk::set(&ClassicOrder::sales_rep, "grace"));
  CHECK(moved.sales_rep == "grace");
  CHECK(by_rep("ada").size() == 1);
  REQUIRE(by_rep("grace").size() == 1);
  CHECK(by_rep("grace")[0] == moved);
}

TEST_CASE("stored names: a member stored under a key or type attribute's name is refused",
          "[conformance][names]") {
  Store store;
  auto table = make_classic_table(store);
  try {
    table.put(Clash{.id = "1", .type = "x"});
    FAIL("a member stored as the type attribute was written");
  } catch (const pksk::ValidationError& e) {
    const std::string message = e.what();
    CHECK(message.find("'type' (stored as 'Type')") != std::string::npos);
  }
  // On a table whose type attribute is named otherwise, the same entity is fine.
  auto plain = make_table(store);
  plain.put(Clash{.id = "1", .type = "x"});
  CHECK(plain.get(Clash{.id = "1"})->type == "x");
}

TEST_CASE("stored names: the 400 KB limit counts the stored name's bytes", "[conformance][names]") {
  Store store;
  auto table = make_classic_table(store);
  // PK "WIDE#x", SK "W", Type "Wide": 2+6 + 2+1 + 4+4 = 19 bytes, "id" + 1, and text's
  // 300-byte stored name.
  const std::size_t overhead = 19 + 2 + 1 + wide_name.size();
  Wide wide{.id = "x", .text = std::string(pksk::max_item_bytes - overhead, 'a')};
  REQUIRE(pksk::item_size({"PK", "WIDE#x", "SK", "W", "Type", "Wide"}, wide) ==
          pksk::max_item_bytes);
  table.put(wide);
  CHECK(table.get(Wide{.id = "x"})->text.size() == wide.text.size());
  // One byte more is over, though it would fit under the member's C++ name.
  wide.text += 'a';
  CHECK_THROWS_AS(table.put(Wide{.id = "y", .text = wide.text}), pksk::ItemTooLarge);
  CHECK_THROWS_AS(table.update(Wide{.id = "x"}, pksk::set(&Wide::text, wide.text)),
                  pksk::ItemTooLarge);
  CHECK(table.get(Wide{.id = "x"})->text.size() == wide.text.size() - 1);
}

TEST_CASE("stored names: a Hana-adapted entity", "[conformance][names]") {
  Store store;
  auto table = make_classic_table(store);
  HanaOrder h;
  h.customer_id = "123";
  h.order_id = "h1";
  h.item_count = 3;
  table.put(h);
  HanaOrder key;
  key.customer_id = "123";
  key.order_id = "h1";
  CHECK(table.get(key) == h);
  const std::string text = stored_text(table, pksk::PartitionKey{"CUSTOMER#123"}, "#HANA#h1");
  CHECK(text.find(R"("customerId")") != std::string::npos);
  CHECK(text.find(R"("Items #")") != std::string::npos);
  CHECK(text.find(R"("item_count")") == std::string::npos);
  using pksk::attr;
  CHECK(table
            .query<HanaOrder>(pksk::PartitionKey{"CUSTOMER#123"},
                              {.filter = attr(&HanaOrder::item_count) == 3})
            .size() == 1);
  const HanaOrder changed = table.update(key, pksk::add(&HanaOrder::item_count, 2),
                                         pksk::set(&HanaOrder::gift_note, std::string("n")));
  CHECK(changed.item_count == 5);
  CHECK(changed.gift_note == "n");
}
