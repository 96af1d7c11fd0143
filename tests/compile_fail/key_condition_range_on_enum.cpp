// SPDX-License-Identifier: BSL-1.0
// A range on an enum field: keys hold enumerator names, so it would follow the names' byte
// order, not the values'. The one error names the field and its type:
// expect: key_condition_orders_an_enum_field_whose_keys_sort_by_enumerator_name<Task,
// expect: {"#TASK#{status}#{name}"}
// expect: {"status"}, Status>
#include "shop.hpp"

int main() {
  const pksk::KeyCondition c = pksk::sort_key_of<Task>::lt<&Task::status>(Status::closed);
  return static_cast<int>(c.first.size());
}
