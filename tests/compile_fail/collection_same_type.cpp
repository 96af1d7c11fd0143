// SPDX-License-Identifier: BSL-1.0
// ItemCollection members with the same type discriminator (through Table::query).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: item_collection_members_have_the_same_type_discriminator<Customer, Invoice,
// expect: {"Customer"}>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

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
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#INVOICE";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  using CustomerInvoices = pksk::ItemCollection<Customer, Invoice>;
  return static_cast<int>(table.query<CustomerInvoices>(pksk::PartitionKey{"CUSTOMER#1"}).size());
}
