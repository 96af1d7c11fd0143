// SPDX-License-Identifier: BSL-1.0
// A projection names a member of an entity the query does not read: query<Order> with
// pksk::members(&Customer::name). The one error names the query's result and the entity:
// expect: select_names_a_member_of_an_entity_the_query_does_not_read<Order, Customer>
#include <pksk/sqlite.hpp>

#include "shop.hpp"

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  auto orders = table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"},
                                   {.select = pksk::members(&Customer::name)});
  return static_cast<int>(orders.size());
}
