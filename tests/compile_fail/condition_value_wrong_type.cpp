// A write condition compares a string member with a number. The one error names the entity, the
// member's type (a std::string, spelled by each compiler its own way) and the value's:
// expect: condition_compares_a_member_with_a_value_of_another_type<Order, std::
// expect: basic_string<char>, int>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  const Order order{.customer_id = "1", .order_id = "2020-12-06", .status = "shipped"};
  table.put(order, pksk::when(pksk::attr(&Order::status) == 1));
}
