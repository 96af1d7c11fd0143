// SPDX-License-Identifier: BSL-1.0
// A typed key condition names a member that is not a field of the sort-key template
// ("#ORDER#{order_id}" has no status). The one error names the entity, template and member:
// expect: key_condition_names_a_member_that_is_not_a_field_of_the_key_template<Order,
// expect: {"#ORDER#{order_id}"}
// expect: {"status"}>
#include "shop.hpp"

int main() {
  const pksk::KeyCondition c = pksk::sort_key_of<Order>::eq<&Order::status>("new");
  return static_cast<int>(c.first.size());
}
