// SPDX-License-Identifier: BSL-1.0
// ItemCollection members whose partition-key templates differ in shape.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: item_collection_members_have_different_partition_key_shapes<Customer,
// expect: {"CUSTOMER#{id}"}, Invoice,
// expect: {"CUST#{customer_id}"}>
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
  static constexpr std::string_view pk = "CUST#{customer_id}";
  static constexpr std::string_view sk = "#INVOICE";
};

int main() {
  const pksk::ItemCollection<Customer, Invoice> collection;
  return static_cast<int>(collection.size());
}
