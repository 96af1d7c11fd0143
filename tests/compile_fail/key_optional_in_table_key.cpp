// SPDX-License-Identifier: BSL-1.0
// An optional member in the table's key template: only an index's key may be sparse (an item
// without the member is then not in that index); every item has its table key.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below:
// expect: key_field_must_be_a_string_an_integer_or_an_enum<Seat,
// expect: {"SEAT#{row}"}
// expect: {"row"}, std::optional<int>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>

struct Seat {
  std::string hall;
  std::optional<int> row;
};

template <>
struct pksk::Entity<Seat> {
  static constexpr std::string_view type = "Seat";
  static constexpr std::string_view pk = "HALL#{hall}";
  static constexpr std::string_view sk = "SEAT#{row}";
};

int main() {
  return static_cast<int>(pksk::sort_key(Seat{.hall = "1", .row = 3}).size());
}
