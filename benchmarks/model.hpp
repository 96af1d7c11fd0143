// SPDX-License-Identifier: BSL-1.0
#pragma once
// The benchmark's entities, the shop exactly as docs/first-program.md declares it, so that pksk and
// every hand-written baseline decode into the same structs and their checksums can be compared.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bench {

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
  std::string order_id;  // ISO timestamp: sortable
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;  // absent attribute when empty
  friend bool operator==(const Order&, const Order&) = default;
};

// The same order as an entity in a secondary index (index_side.hpp): a type of its own, so that
// Order's entity, and with it every other case's data, stays as docs/entities.md declares it.
struct IndexedOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
};

// The customer and order of a table someone else designed (renamed_side.hpp): the same members,
// stored under PascalCase names with one renamed, so that what stored names cost is measured
// beside the plain entities on the same data.
struct RenamedCustomer {
  std::string id;
  std::string name;
  std::string email;
};
struct RenamedOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
};

// An amount of money as a type of its own (pksk::Value<Amount>, renamed_side.hpp), stored as
// the number a double member is: the order below reads the renamed dataset with its total of
// this type, so that a converted member's cost is measured on the same items.
struct Amount {
  double value{};
};
struct ValuedOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  Amount total;
  std::vector<LineItem> items;
  std::optional<std::string> note;
};

inline double amount_of(double d) {
  return d;
}
inline double amount_of(const Amount& a) {
  return a.value;
}

// A checksum of decoded values: every case folds what it decoded into one, so that two
// implementations of the same query can be shown to have done the same work. Money is
// folded in cents so that it stays exact in the double a benchmark counter holds.
struct Checksum {
  std::uint64_t value = 0;

  void add(const LineItem& l) {
    value += l.sku.size() + static_cast<std::uint64_t>(l.qty) +
             static_cast<std::uint64_t>(std::llround(l.price * 100));
  }
  void add(const Customer& c) { add_customer(c); }
  void add(const RenamedCustomer& c) { add_customer(c); }
  void add(const Order& o) { add_order(o); }
  void add(const IndexedOrder& o) { add_order(o); }
  void add(const RenamedOrder& o) { add_order(o); }
  void add(const ValuedOrder& o) { add_order(o); }

 private:
  template <class AnyCustomer>
  void add_customer(const AnyCustomer& c) {
    value += c.id.size() + c.name.size() + c.email.size() + 1;
  }
  template <class AnyOrder>
  void add_order(const AnyOrder& o) {
    value += o.customer_id.size() + o.order_id.size() + o.status.size() +
             static_cast<std::uint64_t>(std::llround(amount_of(o.total) * 100)) + 1;
    for (const LineItem& l : o.items) add(l);
    if (o.note) value += o.note->size();
  }
};

}  // namespace bench

// The docs spell these at global scope; the benchmark keeps its names in `bench` and lifts
// them out so that code written as the docs write it reads the same here.
using bench::Customer;
using bench::IndexedOrder;
using bench::LineItem;
using bench::Order;
using bench::RenamedCustomer;
using bench::RenamedOrder;
using bench::ValuedOrder;
