// SPDX-License-Identifier: BSL-1.0
// A key field whose type cannot be part of a key, bool (through sort_key()).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: key_field_must_be_a_string_an_integer_or_an_enum<Flag,
// expect: {"ENABLED#{enabled}"}
// expect: {"enabled"}, bool>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>

struct Flag {
  std::string id;
  bool enabled{};
};

template <>
struct pksk::Entity<Flag> {
  static constexpr std::string_view type = "Flag";
  static constexpr std::string_view pk = "FLAG#{id}";
  static constexpr std::string_view sk = "ENABLED#{enabled}";
};

int main() {
  return static_cast<int>(pksk::sort_key(Flag{.id = "1", .enabled = true}).size());
}
