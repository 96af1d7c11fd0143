// SPDX-License-Identifier: BSL-1.0
// access_patterns<...>() of two entities with the same type discriminator, in no collection
// together: their items could not be told apart in one table.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: access_patterns_entities_have_the_same_type_discriminator<Customer, Invoice,
// expect: {"Customer"}>
#include <string>

#include <pksk/pksk.hpp>

struct Customer {
  std::string id;
};
struct Invoice {
  std::string number;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Invoice> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "INVOICE#{number}";
  static constexpr std::string_view sk = "A";
};

int main() {
  return static_cast<int>(pksk::access_patterns<Customer, Invoice>().entities.size());
}
