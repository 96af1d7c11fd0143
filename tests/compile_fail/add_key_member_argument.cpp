// SPDX-License-Identifier: BSL-1.0
// add on an integer member of the item's key, with the member as an argument: one error naming
// the rule, the entity and the member (see update_key_member_argument.cpp for how each compiler
// says it).
// expect-gcc: pksk::diagnostics::update_action_targets_a_member_of_the_items_key()
// expect-gcc: with Entity = Reading
// expect-gcc: {"seq"}
// expect-clang: call to consteval function 'pksk::detail::NonKeyMember<Reading,
// expect-clang-source: pksk::add(&Reading::seq, 1)
// expect-clang-note: update_action_targets_a_member_of_the_items_key<Reading,
// expect-clang-note: {"seq"}>
#include <cstdint>
#include <string>

#include <pksk/pksk.hpp>

struct Reading {
  std::string sensor;
  std::uint32_t seq = 0;
  double value = 0;
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "SENSOR#{sensor}";
  static constexpr std::string_view sk = "SEQ#{seq}";
};

int main() {
  auto counted = pksk::add(&Reading::value, 1.5);  // not a key member: fine
  auto action = pksk::add(&Reading::seq, 1);
  (void)counted;
  (void)action;
}
