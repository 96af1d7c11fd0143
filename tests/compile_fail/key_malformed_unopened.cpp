// SPDX-License-Identifier: BSL-1.0
// A malformed key template, '}' without '{' (through Table::get).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: malformed_key_template_brace_without_opening_brace<Customer,
// expect: {"CUSTOMER#id}"},
// expect: {"CUSTOMER#id}"}>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Customer {
  std::string id;
  std::string name;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  const std::optional<Customer> found = table.get(Customer{.id = "1"});
  return found ? 1 : 0;
}
