// SPDX-License-Identifier: BSL-1.0
#pragma once
// Seed 004: a customer and their orders as one item collection.
//
//   PK            | SK                | Type
//   CUSTOMER#123  | #ORDER#2020-11-25 | Order
//   CUSTOMER#123  | #ORDER#2020-12-01 | Order
//   CUSTOMER#123  | #ORDER#2020-12-06 | Order
//   CUSTOMER#123  | A                 | Customer
//
// Orders' sort keys start with '#' so that the customer's "A record" sorts after them:
// reading the collection backwards gives the customer first, then the newest orders.
//
// This header holds the entities and the one body that both programs run: main.cpp on an
// embedded SQLite file, on_dynamodb.cpp on DynamoDB. The same code, the same output.

#include <cstdio>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <pksk/pksk.hpp>

struct LineItem {
  std::string sku;
  int qty{};
  double price{};
};

struct Customer {
  std::string id;
  std::string name;
  std::string email;
};

struct Order {
  std::string customer_id;
  std::string order_id;  // an ISO date: sortable, so the sort key orders orders by time
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
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

using CustomerOrders = pksk::ItemCollection<Customer, Order>;

inline void print(const Order& order) {
  std::printf("  order %s  %-9s %8.2f  %zu line(s)%s%s\n", order.order_id.c_str(),
              order.status.c_str(), order.total, order.items.size(), order.note ? "  note: " : "",
              order.note ? order.note->c_str() : "");
}

inline void print(const Customer& customer) {
  std::printf("  customer %s  %s <%s>\n", customer.id.c_str(), customer.name.c_str(),
              customer.email.c_str());
}

// One body for both backends. It is a template, so member templates of the table are named
// with `.template` (table.template query<...>): what C++ asks of any code generic over the
// backend; code written for one backend writes table.query<...>.
template <class Backend>
void run(Backend& backend) {
  pksk::Table table{backend, "shop"};

  table.put(Customer{.id = "123", .name = "Ada Lovelace", .email = "ada@example.com"});
  table.put(Customer{.id = "456", .name = "Charles Babbage", .email = "charles@example.com"});
  const char* statuses[] = {"shipped", "delivered", "pending"};
  for (int day = 1; day <= 14; ++day) {
    char date[32];
    std::snprintf(date, sizeof date, "2020-12-%02d", day);
    Order order{
        .customer_id = "123",
        .order_id = date,
        .status = statuses[day % 3],
        .total = 10.0 * day + 0.99,
        .items = {{.sku = "SKU-" + std::to_string(day), .qty = day % 4 + 1, .price = 9.99}}};
    if (day % 5 == 0) order.note = "leave at the door";
    table.put(order);
  }
  table.put(
      Order{.customer_id = "123", .order_id = "2020-11-25", .status = "delivered", .total = 59.98});
  table.put(Order{.customer_id = "456", .order_id = "2020-12-06", .status = "shipped", .total = 5});

  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "123"});
  std::printf("partition %s\n", pk.value.c_str());

  // 1. The whole collection in one query: a customer and every order, in sort-key order.
  const CustomerOrders all = table.template query<CustomerOrders>(pk);
  std::printf("\nwhole collection: %zu items, %zu orders\n", all.size(), all.count<Order>());
  if (const Customer* customer = all.first<Customer>()) print(*customer);
  double spent = 0;
  for (const Order& order : all.items<Order>()) spent += order.total;
  std::printf("  total spent %.2f\n", spent);

  // 2. The "A record" plus the newest 3 orders: read backwards, limit N + 1.
  const CustomerOrders newest =
      table.template query<CustomerOrders>(pk, {.forward = false, .limit = 4});
  std::printf("\ncustomer and newest 3 orders:\n");
  for (const auto& item : newest) std::visit([](const auto& entity) { print(entity); }, item);

  // 3. Orders in a date range: a between condition on the sort key.
  const std::vector<Order> first_week = table.template query<Order>(
      pk, {.sk = pksk::between("#ORDER#2020-12-01", "#ORDER#2020-12-07")});
  std::printf("\norders 2020-12-01 .. 2020-12-07: %zu\n", first_week.size());
  for (const Order& order : first_week) print(order);

  // 4. Paging: 5 items a page, resuming from an opaque cursor as a web client would.
  std::printf("\npages of 5:\n");
  std::optional<std::string> token;
  int page_number = 0;
  do {
    pksk::QueryOptions options{.limit = 5};
    if (token) options.start = pksk::Cursor::parse(*token);
    const pksk::Page<CustomerOrders> page = table.template query_page<CustomerOrders>(pk, options);
    std::printf("  page %d: %zu item(s)%s\n", ++page_number, page.items.size(),
                page.next ? ", more to come" : ", the last");
    token = page.next ? std::optional(page.next->to_string()) : std::nullopt;
  } while (token);

  // 5. Point reads and deletes take an entity whose key fields are set.
  table.erase(Order{.customer_id = "123", .order_id = "2020-11-25"});
  const std::optional<Order> gone =
      table.get(Order{.customer_id = "123", .order_id = "2020-11-25"});
  const std::optional<Order> kept =
      table.get(Order{.customer_id = "123", .order_id = "2020-12-06"});
  std::printf("\nafter erase: 2020-11-25 %s, 2020-12-06 %s (%s)\n", gone ? "present" : "absent",
              kept ? "present" : "absent", kept ? kept->status.c_str() : "-");
  std::printf("orders of customer 123 now: %zu\n", table.template query<Order>(pk).size());
}
