// SPDX-License-Identifier: BSL-1.0
// Seed 003's e-commerce aggregate, "summary embedded, details separate", against the normalised
// design of the same data, on one backend:
//
//   aggregate (one table, "shop"): a Customer item holds the customer's stats and a summary of
//     the five most recent orders; each Order item holds its line items and the customer's name,
//     email and tier as they were when it was placed (denormalised, frozen at order time).
//   normalised (three tables: "customers", "orders", "order_items"): each fact once, joined by
//     the program.
//
// Two access patterns, each read both ways: view an order (the order, its customer, its items)
// and the customer dashboard (the customer, stats, five most recent orders). The program prints
// the round trips each design needs and how much longer the normalised reads take. It runs on
// an SQLite file, or on DynamoDB when PKSK_DYNAMODB_ENDPOINT is set (credentials and region as
// the AWS SDKs find them), where it also checks each count against the requests really sent.

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <pksk/backend.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

namespace shop {

// ------------------------------------------------------------------------- the aggregate design
struct OrderSummary {
  std::string order_id;
  std::string date;
  double total{};
  std::string status;
};
struct CustomerStats {
  int total_orders{};
  double lifetime_value{};
};
struct Customer {
  std::string id;
  std::string name;
  std::string email;
  std::string tier;
  CustomerStats stats;
  std::vector<OrderSummary> recent_orders;  // the five newest, newest first
};
struct Item {
  std::string sku;
  std::string name;
  double price{};  // frozen at order time
  int quantity{};
};
struct Address {
  std::string street;
  std::string city;
  std::string zip;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string customer_name;  // denormalised: read with the order, without the customer
  std::string customer_tier;
  std::string order_date;
  std::string status;
  std::vector<Item> items;
  double total{};
  Address shipping_address;
};

// ------------------------------------------------------------------------ the normalised design
struct CustomerRow {
  std::string id;
  std::string name;
  std::string email;
  std::string tier;
};
struct OrderRow {
  std::string customer_id;
  std::string order_id;
  std::string order_date;
  std::string status;
  double total{};
  Address shipping_address;
};
struct ItemRow {
  std::string order_id;
  std::string line;
  std::string sku;
  std::string name;
  double price{};
  int quantity{};
};

}  // namespace shop

template <>
struct pksk::Entity<shop::Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUST#{id}";
  static constexpr std::string_view sk = "PROFILE";
};
template <>
struct pksk::Entity<shop::Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUST#{customer_id}";
  static constexpr std::string_view sk = "ORD#{order_id}";
};
template <>
struct pksk::Entity<shop::CustomerRow> {
  static constexpr std::string_view type = "CustomerRow";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "C";
};
template <>
struct pksk::Entity<shop::OrderRow> {
  static constexpr std::string_view type = "OrderRow";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "ORDER#{order_id}";
};
template <>
struct pksk::Entity<shop::ItemRow> {
  static constexpr std::string_view type = "ItemRow";
  static constexpr std::string_view pk = "ORDER#{order_id}";
  static constexpr std::string_view sk = "LINE#{line}";
};

namespace {

using namespace shop;

std::atomic<int> g_requests{0};  // requests sent, counted by the DynamoDB backend's hook

struct Stores {
  pksk::Table<pksk::AnyBackend> shop;
  pksk::Table<pksk::AnyBackend> customers;
  pksk::Table<pksk::AnyBackend> orders;
  pksk::Table<pksk::AnyBackend> order_items;
};

// Twelve orders of one customer, written both ways.
void place_orders(Stores& s) {
  const Customer base{.id = "456", .name = "John Doe", .email = "john@example.com", .tier = "gold"};
  Customer customer = base;
  s.customers.put(CustomerRow{base.id, base.name, base.email, base.tier});
  const Address home{"123 Main St", "Springfield", "62701"};
  for (int n = 1; n <= 12; ++n) {
    char id[32], date[16];
    std::snprintf(id, sizeof id, "2024-%02d-18-%03d", n, n);
    std::snprintf(date, sizeof date, "2024-%02d-18", n);
    Order order{.customer_id = base.id,
                .order_id = id,
                .customer_name = base.name,
                .customer_tier = base.tier,
                .order_date = date,
                .status = n < 12 ? "delivered" : "shipped",
                .items = {{"WIDGET-001", "Blue Widget", 29.99, 2},
                          {"GADGET-005", "Red Gadget", 49.99, n % 3 + 1}},
                .shipping_address = home};
    for (const Item& i : order.items) order.total += i.price * i.quantity;
    // Aggregate: the order, and the customer's summary changed with it, in one transaction.
    customer.stats.total_orders += 1;
    customer.stats.lifetime_value += order.total;
    customer.recent_orders.insert(customer.recent_orders.begin(),
                                  {order.order_id, order.order_date, order.total, order.status});
    if (customer.recent_orders.size() > 5) customer.recent_orders.pop_back();
    s.shop.transact().put(order).put(customer).commit();
    // Normalised: each fact once.
    s.orders.put(
        OrderRow{base.id, order.order_id, order.order_date, order.status, order.total, home});
    for (std::size_t l = 0; l < order.items.size(); ++l) {
      const Item& i = order.items[l];
      s.order_items.put(
          ItemRow{order.order_id, std::to_string(l + 1), i.sku, i.name, i.price, i.quantity});
    }
  }
}

// What a screen shows, whichever design it was read from.
struct OrderView {
  std::string order_id, customer_name, tier;
  std::size_t items = 0;
  double total = 0;
};
struct Dashboard {
  std::string name;
  int orders = 0;
  double lifetime = 0;
  std::vector<std::string> recent;
};

// Each read returns its view and counts the round trips it made in `trips`.
OrderView view_order_aggregate(Stores& s, const std::string& id, int& trips) {
  ++trips;
  const Order o = *s.shop.get(Order{.customer_id = "456", .order_id = id});
  return {o.order_id, o.customer_name, o.customer_tier, o.items.size(), o.total};
}
OrderView view_order_normalised(Stores& s, const std::string& id, int& trips) {
  trips += 3;
  const OrderRow o = *s.orders.get(OrderRow{.customer_id = "456", .order_id = id});
  const CustomerRow c = *s.customers.get(CustomerRow{.id = o.customer_id});
  const auto items = s.order_items.query<ItemRow>(pksk::partition(ItemRow{.order_id = id}));
  return {o.order_id, c.name, c.tier, items.size(), o.total};
}
Dashboard dashboard_aggregate(Stores& s, int& trips) {
  ++trips;
  const Customer c = *s.shop.get(Customer{.id = "456"});
  Dashboard d{c.name, c.stats.total_orders, c.stats.lifetime_value, {}};
  for (const OrderSummary& o : c.recent_orders) d.recent.push_back(o.order_id);
  return d;
}
Dashboard dashboard_normalised(Stores& s, int& trips) {
  trips += 2;
  const CustomerRow c = *s.customers.get(CustomerRow{.id = "456"});
  // The stats are computed from every order, newest first; the five newest are the first.
  const auto orders =
      s.orders.query<OrderRow>(pksk::partition(OrderRow{.customer_id = "456"}), {.forward = false});
  Dashboard d{c.name, static_cast<int>(orders.size()), 0, {}};
  for (const OrderRow& o : orders) {
    d.lifetime += o.total;
    if (d.recent.size() < 5) d.recent.push_back(o.order_id);
  }
  return d;
}

// Runs `read` once for its round trips (checked against the requests sent, on DynamoDB), then
// `rounds` times for its time; returns the seconds per read.
template <class Read>
double measure(Read&& read, int rounds, int& trips, bool check_requests) {
  const int before = g_requests.load();
  trips = 0;
  read(trips);
  if (check_requests && g_requests.load() - before != trips) {
    std::printf("MISMATCH: %d round trips counted, %d requests sent\n", trips,
                g_requests.load() - before);
  }
  int ignored = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) read(ignored);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / rounds;
}

}  // namespace

int main(int argc, char** argv) {
  const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT");
  const bool on_dynamodb = endpoint != nullptr && *endpoint != '\0';
  pksk::AnyBackend backend =
      on_dynamodb ? pksk::AnyBackend(pksk::dynamodb::Backend{
                        {.endpoint = endpoint,
                         .create_missing_tables = true,
                         .on_request = [](const pksk::dynamodb::RequestRecord&) { ++g_requests; }}})
                  : pksk::AnyBackend(pksk::sqlite::Backend{argc > 1 ? argv[1] : "aggregate.db"});
  Stores s{{backend, "aggregate_shop"},
           {backend, "aggregate_customers"},
           {backend, "aggregate_orders"},
           {backend, "aggregate_order_items"}};
  place_orders(s);
  const int rounds = on_dynamodb ? 30 : 300;
  std::printf("seed 003, an order aggregate against the normalised design, on %s\n",
              on_dynamodb ? "DynamoDB" : "SQLite");

  const std::string id = "2024-11-18-011";
  int a_trips = 0, n_trips = 0;
  OrderView a, n;
  const double a_view =
      measure([&](int& t) { a = view_order_aggregate(s, id, t); }, rounds, a_trips, on_dynamodb);
  const double n_view =
      measure([&](int& t) { n = view_order_normalised(s, id, t); }, rounds, n_trips, on_dynamodb);
  std::printf("view order %s: %zu items, total %.2f, for %s (%s)\n", a.order_id.c_str(), a.items,
              a.total, a.customer_name.c_str(), a.tier.c_str());
  std::printf("  same from both designs: %s\n",
              a.order_id == n.order_id && a.customer_name == n.customer_name && a.tier == n.tier &&
                      a.items == n.items && a.total == n.total
                  ? "yes"
                  : "NO");
  std::printf(
      "  round trips: aggregate %d (the order item), normalised %d (order, customer, "
      "items)\n",
      a_trips, n_trips);
  std::printf("  time, normalised / aggregate: %.1fx\n", n_view / a_view);

  Dashboard da, dn;
  const double a_dash =
      measure([&](int& t) { da = dashboard_aggregate(s, t); }, rounds, a_trips, on_dynamodb);
  const double n_dash =
      measure([&](int& t) { dn = dashboard_normalised(s, t); }, rounds, n_trips, on_dynamodb);
  std::printf("dashboard of %s: %d orders, lifetime %.2f, recent", da.name.c_str(), da.orders,
              da.lifetime);
  for (const std::string& r : da.recent) std::printf(" %s", r.c_str());
  std::printf("\n  same from both designs: %s\n", da.name == dn.name && da.orders == dn.orders &&
                                                          da.recent == dn.recent &&
                                                          std::abs(da.lifetime - dn.lifetime) < 1e-6
                                                      ? "yes"
                                                      : "NO");
  std::printf(
      "  round trips: aggregate %d (the customer item), normalised %d (customer, every "
      "order)\n",
      a_trips, n_trips);
  std::printf("  time, normalised / aggregate: %.1fx\n", n_dash / a_dash);
}
