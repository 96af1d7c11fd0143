// SPDX-License-Identifier: BSL-1.0
// An entity with a member of a type pksk cannot store (a std::list), written, read and queried
// alone and in a collection: each writer and reader would meet it, and still the one error
// names the entity, the member and its type:
// expect: member_type_is_not_one_pksk_can_store<Order,
// expect: {"lines"}
// expect: list<int
#include <list>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Order {
  std::string customer_id;
  std::string order_id;
  std::list<int> lines;
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(Order{.customer_id = "1", .order_id = "2", .lines = {3}});
  const auto one = table.get(Order{.customer_id = "1", .order_id = "2"});
  const auto orders = table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"});
  const auto all = table.query<pksk::ItemCollection<Order>>(pksk::PartitionKey{"CUSTOMER#1"});
  return static_cast<int>(orders.size() + all.size() + (one ? 1 : 0));
}
