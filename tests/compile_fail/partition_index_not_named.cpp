// SPDX-License-Identifier: BSL-1.0
// A typed index key for an index the entity is not in: Order names no index "gsi1". The one
// error names the entity and the index:
// expect: entity_is_not_in_the_index<Order,
// expect: {"gsi1"}>
#include "shop.hpp"

int main() {
  const pksk::PartitionKey key = pksk::partition<"gsi1">(Order{.customer_id = "c1"});
  (void)key;
}
