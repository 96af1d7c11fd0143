// SPDX-License-Identifier: BSL-1.0
// Entity<T>::ttl names no member (a typo of "expires").
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: ttl_names_no_member_of_the_entity<Reading,
// expect: {"expire"}>
#include <chrono>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reading {
  std::string device;
  std::string at;
  std::optional<std::chrono::system_clock::time_point> expires;
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "{at}";
  static constexpr std::string_view ttl = "expire";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "readings", {.ttl_attribute = "expires"}};
  table.put(Reading{.device = "d", .at = "a"});
  (void)table.get(Reading{.device = "d", .at = "a"});
}
