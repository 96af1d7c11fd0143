// SPDX-License-Identifier: BSL-1.0
// access_patterns<...>() given a type that is neither an entity nor an ItemCollection.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below:
// expect: access_patterns_argument_is_neither_an_entity_nor_an_item_collection<Address>
#include <string>

#include <pksk/pksk.hpp>

struct Customer {
  std::string id;
};
struct Address {
  std::string city;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  return static_cast<int>(pksk::access_patterns<Customer, Address>().entities.size());
}
