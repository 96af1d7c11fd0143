// SPDX-License-Identifier: BSL-1.0
// A filter on a member of an entity the query does not read: query<Order> filtered on
// Customer::name, which would hold for no Order (no Order has a Customer's attributes). The one
// error names the query's result and the filter's entity:
// expect: filter_names_a_member_of_an_entity_the_query_does_not_read<Order, Customer>
#include <pksk/sqlite.hpp>

#include "shop.hpp"

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  auto orders = table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"},
                                   {.filter = pksk::attr(&Customer::name) == "Ada"});
  return static_cast<int>(orders.size());
}
