// SPDX-License-Identifier: BSL-1.0
// A value of a type pksk cannot store (a std::list) given alone, outside any entity: to
// to_attribute_value. The one error names the type.
//
// expect: value_type_is_not_one_pksk_can_store<std::
// expect: list<int
#include <list>

#include <pksk/pksk.hpp>

int main() {
  const std::list<int> lines{1, 2, 3};
  const pksk::AttributeValue stored = pksk::to_attribute_value(lines);
  return static_cast<int>(stored.text.size());
}
