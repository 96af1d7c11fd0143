// SPDX-License-Identifier: BSL-1.0
// ItemCollection members whose sort-key templates differ but can produce the same key
// ("TEAM#{team}" and "{topic}#{n}" both give "TEAM#x").
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: item_collection_members_have_sort_key_templates_that_can_produce_the_same_key<Customer,
// expect: {"TEAM#{team}"}, Invoice,
// expect: {"{topic}#{n}"}>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>

struct Customer {
  std::string id;
  std::string team;
};
struct Invoice {
  std::string customer_id;
  std::string topic;
  std::string n;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "TEAM#{team}";
};
template <>
struct pksk::Entity<Invoice> {
  static constexpr std::string_view type = "Invoice";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "{topic}#{n}";
};

int main() {
  const pksk::ItemCollection<Customer, Invoice> collection;
  return static_cast<int>(collection.size());
}
