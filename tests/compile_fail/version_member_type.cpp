// SPDX-License-Identifier: BSL-1.0
// Entity<T>::version naming a std::string member: the version is a number, compared and
// incremented by every write. Without the rule: five errors inside the locking code.
//
// expect: entity_version_member_must_be_an_integer<Seat,
// expect: {"version"}>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Seat {
  std::string hall;
  std::string seat;
  std::string version;
  std::string holder;
};

template <>
struct pksk::Entity<Seat> {
  static constexpr std::string_view type = "Seat";
  static constexpr std::string_view pk = "HALL#{hall}";
  static constexpr std::string_view sk = "SEAT#{seat}";
  static constexpr std::string_view version = "version";
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "seats");
  Seat seat{.hall = "h", .seat = "1"};
  table.put(seat);
  table.update(seat, pksk::set(&Seat::holder, "ada"));
  table.erase(seat);
  table.transact().put(seat).commit();
}
