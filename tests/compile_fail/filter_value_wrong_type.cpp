// SPDX-License-Identifier: BSL-1.0
// A filter compares a number member with a string: no stored number ever equals or orders with
// a string (DynamoDB's typed comparison), so it is refused where it is written. The one error
// names the entity, the member, its type and the value's:
// expect: condition_compares_a_member_with_a_value_of_another_type<Order,
// expect: {"total"}, double, char
#include <pksk/sqlite.hpp>

#include "shop.hpp"

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  auto big = table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"},
                                {.filter = pksk::attr(&Order::total) > "100"});
  return static_cast<int>(big.size());
}
