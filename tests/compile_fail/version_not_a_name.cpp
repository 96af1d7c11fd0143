// SPDX-License-Identifier: BSL-1.0
// Entity<T>::version given as a member pointer instead of the member's name: the entity would
// otherwise be written without optimistic locking, silently.
//
// expect: entity_version_must_be_the_name_of_its_version_member<Seat>
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
  static constexpr auto version = &Seat::version;
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "seats");
  table.put(Seat{.hall = "h", .seat = "1"});
}
