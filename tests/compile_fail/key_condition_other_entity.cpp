// SPDX-License-Identifier: BSL-1.0
// A typed key condition on Order names a member of Customer. The one error names the
// entity whose sort key the condition is on and the other:
// expect: key_condition_names_a_member_of_another_entity<Order, Customer>
#include "shop.hpp"

int main() {
  const pksk::KeyCondition c = pksk::sort_key_of<Order>::eq<&Customer::id>("1");
  return static_cast<int>(c.first.size());
}
