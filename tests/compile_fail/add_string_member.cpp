// SPDX-License-Identifier: BSL-1.0
// add on a string member: DynamoDB's ADD takes a number or a set. Without the rule the call
// failed to deduce add's arguments, 73 lines naming neither the entity nor the member.
// One error naming the rule, the entity and the member (see update_key_member_argument.cpp
// for how each compiler says it).
// expect-gcc: pksk::diagnostics::update_action_adds_to_a_member_that_is_not_a_number_or_a_set()
// expect-gcc: with Entity = Order
// expect-gcc: {"status"}
// expect-clang: call to consteval function 'pksk::detail::MemberRefusing<Order,
// expect-clang-source: pksk::add(&Order::status
// expect-clang-note: update_action_adds_to_a_member_that_is_not_a_number_or_a_set<Order,
// expect-clang-note: {"status"}>
#include <string>

#include "shop.hpp"

int main() {
  auto fine = pksk::add(&Order::total, 1.5);  // a number: fine
  auto action = pksk::add(&Order::status, std::string("-late"));
  (void)fine;
  (void)action;
}
