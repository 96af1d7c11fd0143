// SPDX-License-Identifier: BSL-1.0
// Entity<T>::extensions names an extension itself, not a pksk::Extensions<...> list.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: entity_extensions_is_not_a_pksk_Extensions_list<Plant,
// expect: Watering>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Watering {};
struct Unused {
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
  using extensions = Watering;
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "garden"};
  table.put(Plant{.bed = "b", .name = "fern"});
}
