// SPDX-License-Identifier: BSL-1.0
// An update sets a number member to a string. The one error names the entity, the member's type
// and the value's:
// expect: update_gives_a_member_a_value_of_another_type<Order, double, char
#include <pksk/sqlite.hpp>

#include "shop.hpp"

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.update(Order{.customer_id = "1", .order_id = "2020-12-06"},
               pksk::set(&Order::total, "100"));
}
