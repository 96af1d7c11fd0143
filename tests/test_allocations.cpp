// SPDX-License-Identifier: BSL-1.0
// The hot read path allocates nothing per item beyond the decoded struct's own members, and
// nothing per query beyond the result (docs/design.md). Counted with a replaced operator new.
#include <catch2/catch.hpp>

#include <string>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "support/counting_allocator.hpp"
#include "support/shop.hpp"

using namespace shop;

namespace {

constexpr std::size_t orders_per_customer = 500;

// The result vector grows geometrically: about log2(n) allocations, whatever the items.
constexpr std::size_t result_growth_allowance = 24;

struct Fixture {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table<pksk::sqlite::Backend> table{backend, "shop"};
  const pksk::PartitionKey short_pk{"CUSTOMER#1"};
  const pksk::PartitionKey long_pk{"CUSTOMER#2"};

  Fixture() {
    table.put(Customer{.id = "1", .name = "Ada", .email = "a@b.c"});
    table.put(Customer{.id = "2", .name = "Bob", .email = "b@b.c"});
    for (std::size_t i = 0; i < orders_per_customer; ++i) {
      char id[32];
      std::snprintf(id, sizeof id, "%09zu", i);  // sk "#ORDER#" + 9: past the SSO
      // Short strings only (within the small-string buffer) and no vector: no member allocates.
      table.put(Order{.customer_id = "1", .order_id = id, .status = "paid", .total = 1.5});
      // Heap-held members: one long string, a vector of line items, a long note.
      table.put(
          Order{.customer_id = "2",
                .order_id = id,
                .status = "waiting for the courier to pick it up",
                .total = 2.5,
                .items = {{.sku = "A", .qty = 1}, {.sku = "B", .qty = 2}, {.sku = "C", .qty = 3}},
                .note = std::string("a note long enough to live on the heap")});
    }
  }
};

}  // namespace

TEST_CASE("a warm collection query allocates only the result") {
  Fixture f;
  // Warm up: statements prepared, decoder buffers grown.
  (void)f.table.query<CustomerOrders>(f.short_pk);
  (void)f.table.query<CustomerOrders>(f.long_pk);

  CustomerOrders result;
  const std::size_t short_items =
      counting::allocations_during([&] { result = f.table.query<CustomerOrders>(f.short_pk); });
  REQUIRE(result.size() == orders_per_customer + 1);
  CAPTURE(short_items);
  CHECK(short_items <= result_growth_allowance);

  // Each long order owns exactly three heap blocks: status, note and the items vector (the
  // line items' skus are short). A decoder that grew the vector element by element, or
  // copied a row, would exceed that.
  const std::size_t long_items =
      counting::allocations_during([&] { result = f.table.query<CustomerOrders>(f.long_pk); });
  REQUIRE(result.count<Order>() == orders_per_customer);
  CAPTURE(long_items);
  CHECK(long_items <= 3 * orders_per_customer + result_growth_allowance);
}

TEST_CASE("a warm reverse query with a limit allocates only the result") {
  Fixture f;
  const pksk::QueryOptions newest{.forward = false, .limit = 11};
  (void)f.table.query<CustomerOrders>(f.short_pk, newest);
  CustomerOrders result;
  // The page ends at its limit on a long sort key: copying it out as a cursor that nobody
  // reads would be one allocation per query beyond the result.
  const std::size_t allocations = counting::allocations_during(
      [&] { result = f.table.query<CustomerOrders>(f.short_pk, newest); });
  REQUIRE(result.size() == 11);
  CHECK(allocations <= 5);  // the result's vector: 1, 2, 4, 8, 16
}

TEST_CASE("a warm type-only query and a warm get allocate only the result") {
  Fixture f;
  (void)f.table.query<Order>(f.short_pk);
  (void)f.table.get(Order{.customer_id = "1", .order_id = "000000007"});

  const std::size_t query = counting::allocations_during([&] {
    const auto orders = f.table.query<Order>(f.short_pk);
    REQUIRE(orders.size() == orders_per_customer);
  });
  CHECK(query <= result_growth_allowance);

  const Order key{.customer_id = "1", .order_id = "000000007"};
  const std::size_t get = counting::allocations_during([&] {
    const auto found = f.table.get(key);
    REQUIRE(found);
  });
  CHECK(get == 0);
}

TEST_CASE("a warm put allocates nothing") {
  Fixture f;
  Order order{.customer_id = "1", .order_id = "999999", .status = "paid", .total = 3};
  f.table.put(order);
  const std::size_t put = counting::allocations_during([&] { f.table.put(order); });
  CHECK(put == 0);
}
