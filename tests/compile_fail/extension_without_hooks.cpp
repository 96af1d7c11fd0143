// SPDX-License-Identifier: BSL-1.0
// An extension in Entity<T>::extensions with no hook for the entity (a misspelt before_put).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: extension_has_neither_before_put_nor_update_parts_for_the_entity<Plant,
// expect: Watering>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Watering {
  template <class T>
  static void before_write(T& item, const pksk::WriteContext&) {
    ++item.waterings;
  }
};

struct Plant {
  std::string bed;
  std::string name;
  int waterings{};
};

template <>
struct pksk::Entity<Plant> {
  static constexpr std::string_view type = "Plant";
  static constexpr std::string_view pk = "BED#{bed}";
  static constexpr std::string_view sk = "PLANT#{name}";
  using extensions = pksk::Extensions<Watering>;
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "garden"};
  table.put(Plant{.bed = "b", .name = "fern"});
}
