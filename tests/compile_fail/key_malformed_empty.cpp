// SPDX-License-Identifier: BSL-1.0
// A malformed sort-key template, an empty '{}' (through Table::query<T>).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: malformed_key_template_empty_field<Customer,
// expect: {"ORDER#{}"}
// expect: {"{}"}>
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
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "ORDER#{}";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  return static_cast<int>(table.query<Customer>(pksk::PartitionKey{"CUSTOMER#1"}).size());
}
