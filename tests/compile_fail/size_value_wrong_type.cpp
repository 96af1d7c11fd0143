// SPDX-License-Identifier: BSL-1.0
// A filter compares the size of a member, which is a number, with a string: a size never equals
// or orders with a string, so it is refused where it is written. The one error names the entity
// and the value's type:
// expect: condition_compares_a_size_with_a_value_that_is_not_a_number<Order, char
#include <pksk/sqlite.hpp>

#include "shop.hpp"

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  auto big = table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"},
                                {.filter = pksk::size(pksk::attr(&Order::items)) > "2"});
  return static_cast<int>(big.size());
}
