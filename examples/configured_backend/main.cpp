// SPDX-License-Identifier: BSL-1.0
// A service that reads from its configuration which store to use, SQLite or DynamoDB, with
// data-access code written and compiled once, for pksk::Table<pksk::AnyBackend> (issue 35).
//
// The configuration here is the environment, as a container would pass it:
//   PKSK_DYNAMODB_ENDPOINT set   DynamoDB at that endpoint (credentials and region as the AWS
//                                SDKs find them; the table is created if missing)
//   otherwise                    an SQLite file, argv[1] or "orders.db"
// Only open_store() names a backend; everything else sees a pksk::AnyBackend.

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <pksk/backend.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Customer {
  std::string id;
  std::string name;
};

struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
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

namespace {

struct StoreConfig {
  std::string dynamodb_endpoint;  // empty: SQLite
  std::string sqlite_path;
};

StoreConfig read_config(int argc, char** argv) {
  StoreConfig config;
  if (const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT"))
    config.dynamodb_endpoint = endpoint;
  config.sqlite_path = argc > 1 ? argv[1] : "orders.db";
  return config;
}

// The one function that knows the concrete backends. Each is moved into the AnyBackend, which
// owns it from then on (its copies share it).
pksk::AnyBackend open_store(const StoreConfig& config) {
  if (!config.dynamodb_endpoint.empty()) {
    return pksk::dynamodb::Backend{
        {.endpoint = config.dynamodb_endpoint, .create_missing_tables = true}};
  }
  return pksk::sqlite::Backend{config.sqlite_path};
}

// The service's data access: no template, no backend type in sight.
class Orders {
 public:
  explicit Orders(pksk::AnyBackend& store) : table_{store, "orders"} {}

  void add_customer(const Customer& customer) { table_.put(customer); }

  // Places an order unless one with its id exists; false if it did.
  bool place(const Order& order) {
    try {
      table_.put(order, pksk::if_absent);
      return true;
    } catch (const pksk::ConditionFailed&) {
      return false;
    }
  }

  void ship(const std::string& customer_id, const std::string& order_id) {
    table_.update(Order{.customer_id = customer_id, .order_id = order_id},
                  pksk::set(&Order::status, "shipped"));
  }

  void print_summary(const std::string& customer_id) {
    const auto collection = table_.query<pksk::ItemCollection<Customer, Order>>(
        pksk::partition(Customer{.id = customer_id}));
    const Customer* customer = collection.first<Customer>();
    std::printf("%s: %zu order(s)\n", customer ? customer->name.c_str() : "?",
                collection.count<Order>());
    for (const Order& order : collection.items<Order>()) {
      std::printf("  %s  %-8s %7.2f\n", order.order_id.c_str(), order.status.c_str(), order.total);
    }
  }

 private:
  pksk::Table<pksk::AnyBackend> table_;
};

}  // namespace

int main(int argc, char** argv) try {
  pksk::AnyBackend store = open_store(read_config(argc, argv));
  Orders orders{store};

  orders.add_customer(Customer{.id = "42", .name = "Grace Hopper"});
  orders.place(
      Order{.customer_id = "42", .order_id = "2024-03-01", .status = "new", .total = 12.5});
  orders.place(Order{.customer_id = "42", .order_id = "2024-03-07", .status = "new", .total = 40});
  const bool twice = orders.place(
      Order{.customer_id = "42", .order_id = "2024-03-07", .status = "new", .total = 1});
  std::printf("placing 2024-03-07 again: %s\n", twice ? "placed" : "refused, it exists");
  orders.ship("42", "2024-03-01");
  orders.print_summary("42");
  return 0;
} catch (const pksk::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
