// SPDX-License-Identifier: BSL-1.0
// A secondary index's key template field that names no member of the entity (through a put on
// a table that has the index): checked as the primary key's templates are.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, naming the rule and every `expect:` text below:
// expect: key_template_names_no_member_of_the_entity<Order,
// expect: {"ORDER#{order_idd}"}
// expect: {"order_idd"}>
#include <array>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Order {
  std::string customer_id;
  std::string order_id;
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "ORDER#{order_idd}", "CUSTOMER#{customer_id}"}};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1"}}};
  table.put(Order{.customer_id = "1", .order_id = "2"});
}
