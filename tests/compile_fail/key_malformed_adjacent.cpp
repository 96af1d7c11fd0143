// SPDX-License-Identifier: BSL-1.0
// A malformed key template, two adjacent fields (through an ItemCollection).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: malformed_key_template_two_fields_with_no_literal_text_between_them<Customer,
// expect: {"CUSTOMER#{id}{name}"}
// expect: {"{id}{name}"}>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>

struct Customer {
  std::string id;
  std::string name;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}{name}";
  static constexpr std::string_view sk = "A";
};

int main() {
  const pksk::ItemCollection<Customer> collection;
  return static_cast<int>(collection.size());
}
