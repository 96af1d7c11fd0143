// SPDX-License-Identifier: BSL-1.0
// Entity<T>::ttl names a member that is no time point: epoch seconds in an integer.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: ttl_member_must_be_a_system_clock_time_point<Reading,
// expect: {"expires"}, long
#include <chrono>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reading {
  std::string device;
  std::string at;
  long expires{};
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "{at}";
  static constexpr std::string_view ttl = "expires";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "readings", {.ttl_attribute = "expires"}};
  table.put(Reading{.device = "d", .at = "a"});
  (void)table.get(Reading{.device = "d", .at = "a"});
}
