// An update appends a number to a list of strings: neither a list of the member's elements nor
// one element. The one error names the entity, the member's type and the value's:
// expect: update_gives_a_member_a_value_of_another_type<Order, std::vector<
// expect: >, int>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Order {
  std::string customer_id;
  std::string order_id;
  std::vector<std::string> labels;
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
  table.update(Order{.customer_id = "1", .order_id = "2020-12-06"},
               pksk::append(&Order::labels, 5));
}
