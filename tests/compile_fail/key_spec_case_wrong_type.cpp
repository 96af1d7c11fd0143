// SPDX-License-Identifier: BSL-1.0
// A case spec on a member that has no letters to change: "{n:lower}" on an integer.
//
// expect: key_format_spec_does_not_apply_to_the_member_type<Ticket,
// expect: {"TICKET#{n:lower}"}
// expect: {"n"}
// expect: {"lower"}
#include <pksk/pksk.hpp>

struct Ticket {
  int n{};
};

template <>
struct pksk::Entity<Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "TICKET#{n:lower}";
  static constexpr std::string_view sk = "T";
};

int main() {
  return static_cast<int>(pksk::partition(Ticket{.n = 1}).value.size());
}
