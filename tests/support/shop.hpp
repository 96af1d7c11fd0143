// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the README's shop, shared by the table, collection and allocation tests.

#include <optional>
#include <string>
#include <vector>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>

namespace shop {

struct LineItem {
  std::string sku;
  int qty{};
  double price{};
  friend bool operator==(const LineItem&, const LineItem&) = default;
};

struct Customer {
  std::string id;
  std::string name;
  std::string email;
  friend bool operator==(const Customer&, const Customer&) = default;
};

struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
  friend bool operator==(const Order&, const Order&) = default;
};

// Lives in the customers' partitions but is no member of CustomerOrders.
struct Invoice {
  std::string customer_id;
  std::string number;
  double amount{};
  friend bool operator==(const Invoice&, const Invoice&) = default;
};

}  // namespace shop

template <>
struct pksk::Entity<shop::Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};

template <>
struct pksk::Entity<shop::Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

template <>
struct pksk::Entity<shop::Invoice> {
  static constexpr std::string_view type = "Invoice";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#INVOICE#{number}";
};

namespace shop {
using CustomerOrders = pksk::ItemCollection<Customer, Order>;
}
