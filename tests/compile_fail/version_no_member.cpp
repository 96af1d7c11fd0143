// SPDX-License-Identifier: BSL-1.0
// Entity<T>::version naming no member of the entity (a typo: the member is `version`). Without
// the rule the locking code failed inside Boost.PFR: six errors, the first naming no entity.
//
// expect: entity_version_names_no_member_of_the_entity<Seat,
// expect: {"revision"}>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Seat {
  std::string hall;
  std::string seat;
  int version{};
};

template <>
struct pksk::Entity<Seat> {
  static constexpr std::string_view type = "Seat";
  static constexpr std::string_view pk = "HALL#{hall}";
  static constexpr std::string_view sk = "SEAT#{seat}";
  static constexpr std::string_view version = "revision";
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "seats");
  Seat seat{.hall = "h", .seat = "1"};
  table.put(seat);
  table.update(seat, pksk::set(&Seat::version, 2));
  table.erase(seat);
  table.transact().put(seat).commit();
}
