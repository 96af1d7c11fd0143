// SPDX-License-Identifier: BSL-1.0
// begins_with on an integer field: sort keys pad integers to a fixed width, so a part of a
// number is no prefix of its key text. The one error names the field and its type:
// expect: key_condition_begins_with_on_a_field_that_is_not_a_string<Shipment,
// expect: {"#SHIP#{date}#{seq}"}
// expect: {"seq"}, unsigned int>
#include "shop.hpp"

int main() {
  const pksk::KeyCondition c =
      pksk::sort_key_of<Shipment>::begins_with<&Shipment::date, &Shipment::seq>("2020-01-02", 1);
  return static_cast<int>(c.first.size());
}
