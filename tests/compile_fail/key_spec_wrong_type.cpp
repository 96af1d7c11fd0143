// SPDX-License-Identifier: BSL-1.0
// A time bucket on a member that is not a time: "{day:month}" on a string.
//
// expect: key_format_spec_does_not_apply_to_the_member_type<Reading,
// expect: {"DEVICE#{device}#{day:month}"}
// expect: {"day"}
// expect: {"month"}
#include <string>

#include <pksk/pksk.hpp>

struct Reading {
  std::string device;
  std::string day;
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}#{day:month}";
  static constexpr std::string_view sk = "R";
};

int main() {
  return static_cast<int>(pksk::partition(Reading{.device = "d1", .day = "x"}).value.size());
}
