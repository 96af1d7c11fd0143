// SPDX-License-Identifier: BSL-1.0
// Seed 004's collection with the ordered ids its authors recommend over dates: each order's id
// is a ULID (pksk::ulid(): 26 characters, sortable by time, monotonic within a millisecond), so
// "the customer and the newest N orders" is one query read backwards from the customer's "A"
// record, even for orders placed in the same millisecond.
//
//   PK              | SK                                 | Type
//   CUSTOMER#123    | #ORDER#01JDX3E5ZK8M2Q4R6T8V0W2Y4A  | Order
//   CUSTOMER#123    | A                                  | Customer

#include <algorithm>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Customer {
  std::string customer_id;
  std::string name;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string item;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

using CustomerOrders = pksk::ItemCollection<Customer, Order>;

int main(int argc, char** argv) {
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "orders.db"};
  pksk::Table table{
      backend, "orders", {.pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "Type"}};
  table.put(Customer{"123", "Ada"});
  // Ten orders in a burst: most share a millisecond, and their ids still sort as placed.
  std::vector<std::string> placed;
  for (int i = 1; i <= 10; ++i) {
    placed.push_back(pksk::ulid());
    table.put(Order{"123", placed.back(), "item " + std::to_string(i)});
  }
  std::printf("first id: %s (%zu characters)\n", placed.front().c_str(), placed.front().size());
  std::printf("ids sort as placed: %s\n", std::ranges::is_sorted(placed) ? "yes" : "no");

  // The customer and the 3 newest orders: backwards from "A", 4 items.
  const auto newest = table.query<CustomerOrders>(pksk::partition(Customer{.customer_id = "123"}),
                                                  {.forward = false, .limit = 4});
  for (const auto& item : newest) {
    if (const auto* c = std::get_if<Customer>(&item)) std::printf("customer %s\n", c->name.c_str());
    if (const auto* o = std::get_if<Order>(&item)) {
      const auto at = std::ranges::find(placed, o->order_id) - placed.begin() + 1;
      std::printf("%s, placed %tdth\n", o->item.c_str(), at);
    }
  }
}
