// SPDX-License-Identifier: BSL-1.0
// A key template field that names no member of the entity (through partition()).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: key_template_names_no_member_of_the_entity<Customer,
// expect: {"CUSTOMER#{idd}"}
// expect: {"idd"}>
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
  static constexpr std::string_view pk = "CUSTOMER#{idd}";
  static constexpr std::string_view sk = "A";
};

int main() {
  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "1", .name = "n"});
  return static_cast<int>(pk.value.size());
}
