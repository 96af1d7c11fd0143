// SPDX-License-Identifier: BSL-1.0
// A number sort key of a member that is not an integer: "{seq:number}" on a string.
//
// expect: key_format_spec_does_not_apply_to_the_member_type<Reading,
// expect: {"{seq:number}"}
// expect: {"seq"}
// expect: {"number"}
#include <string>

#include <pksk/pksk.hpp>

struct Reading {
  std::string device;
  std::string seq;
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "{seq:number}";
};

int main() {
  return static_cast<int>(pksk::sort_key(Reading{.device = "d1", .seq = "x"}).size());
}
