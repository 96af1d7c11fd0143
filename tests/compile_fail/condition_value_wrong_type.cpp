// SPDX-License-Identifier: BSL-1.0
// A write condition compares a string member with a number. The one error names the entity, the
// member (with the other members of its type: compile time knows attr()'s member by its type
// only), the member's type (a std::string, spelled by each compiler its own way) and the
// value's:
// expect: condition_compares_a_member_with_a_value_of_another_type<Order,
// expect: {"customer_id|order_id|status"}, std::
// expect: basic_string<char>, int>
#include <pksk/sqlite.hpp>

#include "shop.hpp"

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  const Order order{.customer_id = "1", .order_id = "2020-12-06", .status = "shipped"};
  table.put(order, pksk::when(pksk::attr(&Order::status) == 1));
}
