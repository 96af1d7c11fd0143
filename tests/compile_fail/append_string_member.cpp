// SPDX-License-Identifier: BSL-1.0
// append on a string member: DynamoDB's list_append takes lists only. Without the rule the
// call failed to deduce append's arguments, 104 lines naming neither the entity nor the member.
// One error naming the rule, the entity and the member (see update_key_member_argument.cpp
// for how each compiler says it).
// expect-gcc: pksk::diagnostics::update_action_appends_to_a_member_that_is_not_a_list()
// expect-gcc: with Entity = Order
// expect-gcc: {"status"}
// expect-clang: call to consteval function 'pksk::detail::MemberRefusing<Order,
// expect-clang-source: pksk::append(&Order::status
// expect-clang-note: update_action_appends_to_a_member_that_is_not_a_list<Order,
// expect-clang-note: {"status"}>
#include <string>

#include "shop.hpp"

int main() {
  auto fine = pksk::append(&Order::items, std::string("sku-1"));  // a list: fine
  auto action = pksk::append(&Order::status, std::string("-late"));
  (void)fine;
  (void)action;
}
