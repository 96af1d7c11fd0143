// SPDX-License-Identifier: BSL-1.0
// An update of a member the item's key is built from: it would move the item, and DynamoDB
// refuses to update key attributes. With the member as a template argument the compiler sees
// which member it is, and the one error names the entity and the member:
// expect: update_changes_a_member_of_the_items_key<Order,
// expect: {"order_id"}>
#include "shop.hpp"

int main() {
  auto action = pksk::set<&Order::order_id>("2020-12-07");
  (void)action;
}
