// A typed key condition on Order names a member of Customer. The one error names the
// entity whose sort key the condition is on and the other:
// expect: key_condition_names_a_member_of_another_entity<Order, Customer>
#include <cstdint>
#include <string>

#include <pksk/pksk.hpp>

enum class Status { open, closed };
struct Customer {
  std::string id;
  std::string name;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
};
struct Shipment {
  std::string customer_id;
  std::string date;
  std::uint32_t seq{};
};
struct Task {
  std::string customer_id;
  Status status{};
  std::string name;
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
template <>
struct pksk::Entity<Shipment> {
  static constexpr std::string_view type = "Shipment";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#SHIP#{date}#{seq}";
};
template <>
struct pksk::Entity<Task> {
  static constexpr std::string_view type = "Task";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#TASK#{status}#{name}";
};

int main() {
  const pksk::KeyCondition c = pksk::sort_key_of<Order>::eq<&Customer::id>("1");
  return static_cast<int>(c.first.size());
}
