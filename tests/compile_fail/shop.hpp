// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities the compile-fail cases misuse, each of them valid, so that the one error a case
// expects comes from its own misuse and nothing else. A case whose misuse is in an entity's
// definition (a key template, a member type, a collection's members) defines its own.
#include <cstdint>
#include <string>
#include <vector>

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
  double total{};
  std::vector<std::string> items;
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
struct Cart {
  std::string id;
  int rev{};
  std::vector<std::string> skus;
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
template <>
struct pksk::Entity<Cart> {
  static constexpr std::string_view type = "Cart";
  static constexpr std::string_view pk = "CART#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::string_view version = "rev";
};
