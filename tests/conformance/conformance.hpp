// SPDX-License-Identifier: BSL-1.0
#pragma once
// The conformance suite's entities and stores. cases.hpp holds the cases, written once against
// pksk::Table; on_sqlite.cpp and on_dynamodb.cpp compile them for the SQLite backend and for
// DynamoDB Local, and ctest runs both (conformance.sqlite, conformance.dynamodb_local).
// DynamoDB is the reference: where the two disagree, the SQLite backend is fixed.

#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <pksk/codec/codec.hpp>  // the decoder: <pksk/pksk.hpp> leaves it out with PKSK_SEPARATE_COMPILATION
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace conformance {

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
// Members named after DynamoDB reserved words (status, count, date, size): every name goes
// through a placeholder.
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  long long count{};
  std::string date;
  std::vector<LineItem> items;
  std::optional<std::string> note;
  std::set<std::string> tags;
  std::map<std::string, int> size;
  friend bool operator==(const Order&, const Order&) = default;
};
struct Cart {
  std::string id;
  int rev{};
  std::vector<std::string> skus;
  friend bool operator==(const Cart&, const Cart&) = default;
};
struct Blob {
  std::string id;
  std::string data;
};

// In the customers' partitions, but in no collection the cases query: an unknown type there.
struct Invoice {
  std::string customer_id;
  std::string number;
  int amount{};
};

// What another tool might write under Order's type and keys: its total a string, which an
// Order does not decode.
struct MistypedOrder {
  std::string customer_id;
  std::string order_id;
  std::string total;
};

// A sort key of two fields, the second a signed integer: typed key conditions on both.
struct Reading {
  std::string sensor;
  std::string day;
  long long n{};
};

enum class Priority { low, high };
struct Address {
  std::string city;
  int zip{};
  friend bool operator==(const Address&, const Address&) = default;
};
// One member of every kind a condition or an update can reach.
struct Account {
  std::string id;
  std::string name;
  long long balance{};
  double rate{};
  bool active{};
  Priority priority{};
  std::optional<std::string> note;
  std::vector<LineItem> items;
  std::vector<std::string> labels;
  std::map<std::string, int> counters;
  std::set<std::string> tags;
  Address address;
};

// Many-to-many through an inverted index: an organisation's members by user, and a user's
// organisations through gsi1, whose keys are the table's swapped. Organisations name no index.
struct Organisation {
  std::string org;
  std::string name;
  friend bool operator==(const Organisation&, const Organisation&) = default;
};
struct Membership {
  std::string org;
  std::string user;
  std::string role;
  friend bool operator==(const Membership&, const Membership&) = default;
};
// An index key formatted from a member an update changes: tickets by status, oldest first.
struct Ticket {
  std::string id;
  std::string status;
  int opened{};
  std::string title;
  friend bool operator==(const Ticket&, const Ticket&) = default;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Organisation> {
  static constexpr std::string_view type = "Organisation";
  static constexpr std::string_view pk = "ORG#{org}";
  static constexpr std::string_view sk = "ORG";
};
template <>
struct pksk::Entity<conformance::Membership> {
  static constexpr std::string_view type = "Membership";
  static constexpr std::string_view pk = "ORG#{org}";
  static constexpr std::string_view sk = "USER#{user}";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "USER#{user}", "ORG#{org}"}};
};
template <>
struct pksk::Entity<conformance::Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "TICKET#{id}";
  static constexpr std::string_view sk = "T";
  static constexpr std::array indexes = {pksk::Index{"gsi2", "STATUS#{status}", "OPENED#{opened}"}};
};

template <>
struct pksk::Entity<conformance::Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<conformance::Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};
template <>
struct pksk::Entity<conformance::Cart> {
  static constexpr std::string_view type = "Cart";
  static constexpr std::string_view pk = "CART#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::string_view version = "rev";
};
template <>
struct pksk::Entity<conformance::MistypedOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};
template <>
struct pksk::Entity<conformance::Invoice> {
  static constexpr std::string_view type = "Invoice";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#INVOICE#{number}";
};
template <>
struct pksk::Entity<conformance::Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "SENSOR#{sensor}";
  static constexpr std::string_view sk = "#R#{day}#{n}";
};
template <>
struct pksk::Entity<conformance::Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<conformance::Blob> {
  static constexpr std::string_view type = "Blob";
  static constexpr std::string_view pk = "BLOB#{id}";
  static constexpr std::string_view sk = "B";
};

namespace conformance {

// prefix + the number, spelled so that g++ 12 at -O3 does not warn falsely (-Wrestrict, GCC
// bug 105651) about a temporary's concatenation, as it does for "o" + std::to_string(i).
inline std::string numbered(std::string_view prefix, long long n) {
  std::string out(prefix);
  out += std::to_string(n);
  return out;
}

// A table name no other case of this process uses: each case starts from an empty table.
inline std::string fresh_table_name() {
  static std::atomic<int> next{0};
  std::string name = numbered("conformance_", ::getpid());
  name += numbered("_", next++);
  return name;
}

template <class Store>
auto make_table(Store& store) {
  return pksk::Table{store.backend, fresh_table_name()};
}

template <class Store>
auto make_indexed_table(Store& store) {
  return pksk::Table{store.backend, fresh_table_name(), {.indexes = {"gsi1", "gsi2"}}};
}

inline Account sample_account() {
  return Account{.id = "1",
                 .name = "Ada Lovelace",
                 .balance = 100,
                 .rate = 2.5,
                 .active = true,
                 .priority = Priority::high,
                 .note = std::nullopt,
                 .items = {{"apple", 2, 0.5}, {"pear", 1, 0.75}},
                 .labels = {"x", "y"},
                 .counters = {{"a", 1}},
                 .tags = {"gold", "vip"},
                 .address = {"Paris", 75001}};
}

inline Order order(std::string id, std::string status, double total) {
  return Order{
      .customer_id = "c1", .order_id = std::move(id), .status = std::move(status), .total = total};
}

}  // namespace conformance
