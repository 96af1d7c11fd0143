// SPDX-License-Identifier: BSL-1.0
// An update of a member the item's key is built from, with the member as an argument: refused
// at compile time as with the member as a template argument (update_key_member.cpp). The member
// is checked in the conversion of the argument, evaluated at compile time: g++'s one error
// names the rule, the entity and the member; clang's names the conversion with the entity,
// quotes the call with the member under it, and its first note names the rule and the member.
// expect-gcc: pksk::diagnostics::update_action_targets_a_member_of_the_items_key()
// expect-gcc: with Entity = Order
// expect-gcc: {"order_id"}
// expect-clang: call to consteval function 'pksk::detail::NonKeyMember<Order,
// expect-clang-source: pksk::set(&Order::order_id, "2020-12-07")
// expect-clang-note: update_action_targets_a_member_of_the_items_key<Order,
// expect-clang-note: {"order_id"}>
#include "shop.hpp"

int main() {
  auto action = pksk::set(&Order::order_id, "2020-12-07");
  (void)action;
}
