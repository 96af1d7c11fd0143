// SPDX-License-Identifier: BSL-1.0
// The Conan package's test: the public headers, a customer and two orders on an in-memory
// SQLite database, read back as one item collection; exits non-zero if anything is off.

#include <cstdio>
#include <string>
#include <string_view>

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
  table.put(Customer{.id = "1", .name = "Ada"});
  table.put(Order{.customer_id = "1", .order_id = "2020-12-06", .total = 59.98});
  table.put(Order{.customer_id = "1", .order_id = "2020-12-01", .total = 10.5});

  const auto all =
      table.query<pksk::ItemCollection<Customer, Order>>(pksk::partition(Customer{.id = "1"}));
  const Customer* customer = all.first<Customer>();
  std::string orders;
  for (const Order& order : all.items<Order>()) {
    std::printf("order %s %.2f\n", order.order_id.c_str(), order.total);
    orders += order.order_id + ";";
  }
  const bool ok = customer != nullptr && customer->name == "Ada" && all.size() == 3 &&
                  orders == "2020-12-01;2020-12-06;";
  std::printf("pksk test_package: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
