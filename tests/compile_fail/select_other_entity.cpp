// A projection names a member of an entity the query does not read: query<Order> with
// pksk::members(&Customer::name). The one error names the query's result and the entity:
// expect: select_names_a_member_of_an_entity_the_query_does_not_read<Order, Customer>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Customer {
  std::string id;
  std::string name;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  double total{};
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
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
  auto orders = table.query<Order>(pksk::PartitionKey{"CUSTOMER#1"},
                                   {.select = pksk::members(&Customer::name)});
  return static_cast<int>(orders.size());
}
