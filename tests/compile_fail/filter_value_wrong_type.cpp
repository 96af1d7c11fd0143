// A filter compares a number member with a string: no stored number ever equals or orders with
// a string (DynamoDB's typed comparison), so it is refused where it is written. The one error
// names the entity, the member's type and the value's:
// expect: condition_compares_a_member_with_a_value_of_another_type<Order, double, char
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Order {
  std::string customer_id;
  std::string order_id;
  double total{};
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
  auto big = table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"},
                                {.filter = pksk::attr(&Order::total) > "100"});
  return static_cast<int>(big.size());
}
