// SPDX-License-Identifier: BSL-1.0
// A condition on seq without the date before it in "#SHIP#{date}#{seq}": the key text of a
// seq cannot be placed without the date. The one error names the field due and the one given:
// expect: key_condition_members_are_not_the_key_templates_first_fields_in_order<Shipment,
// expect: {"#SHIP#{date}#{seq}"}
// expect: {"date"}
// expect: {"seq"}>
#include "shop.hpp"

int main() {
  const pksk::KeyCondition c = pksk::sort_key_of<Shipment>::between<&Shipment::seq>(5, 200);
  return static_cast<int>(c.first.size());
}
