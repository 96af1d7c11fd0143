// SPDX-License-Identifier: BSL-1.0
// A Rename whose member is not a member of the entity (a typo).
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: rename_names_no_member_of_the_entity<Order,
// expect: {"amout"}>
#include <array>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Order {
  std::string customer_id;
  std::string order_id;
  double amount{};
  double total{};
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amout", "Amount"}};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "classic", {.pk_attribute = "PK", .sk_attribute = "SK"}};
  table.put(Order{.customer_id = "1", .order_id = "2", .amount = 1, .total = 2});
}
