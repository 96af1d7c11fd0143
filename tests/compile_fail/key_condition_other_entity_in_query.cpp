// SPDX-License-Identifier: BSL-1.0
// A typed key condition built for Shipment's sort key in a query of orders: its key text would
// select no Order. The one error names the query's result and the condition's entity:
// expect: sort_key_condition_built_for_an_entity_the_query_does_not_read<Order, Shipment>
#include <pksk/sqlite.hpp>

#include "shop.hpp"

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  auto orders =
      table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"},
                         {.sk = pksk::sort_key_of<Shipment>::ge<&Shipment::date>("2020-01-01")});
  return static_cast<int>(orders.size());
}
