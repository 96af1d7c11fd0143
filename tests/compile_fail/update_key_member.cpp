// An update of a member the item's key is built from: it would move the item, and DynamoDB
// refuses to update key attributes. With the member as a template argument the compiler sees
// which member it is, and the one error names the entity and the member:
// expect: update_changes_a_member_of_the_items_key<Order,
// expect: {"order_id"}>
#include <string>

#include <pksk/pksk.hpp>

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
  auto action = pksk::set<&Order::order_id>("2020-12-07");
  (void)action;
}
