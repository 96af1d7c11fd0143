// SPDX-License-Identifier: BSL-1.0
// ItemCollection members whose sort-key templates are identical.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: item_collection_members_have_identical_sort_key_templates<Customer,
// expect: {"A"}, Invoice,
// expect: {"A"}>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>

struct Customer {
  std::string id;
};
struct Invoice {
  std::string customer_id;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Invoice> {
  static constexpr std::string_view type = "Invoice";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  const pksk::ItemCollection<Customer, Invoice> collection;
  return static_cast<int>(collection.size());
}
