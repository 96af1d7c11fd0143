// SPDX-License-Identifier: BSL-1.0
#pragma once
// The pksk side of every comparison, written as docs/tables.md and docs/queries.md show a user
// writing it.

#include <pksk/codec/codec.hpp>  // the decoder: <pksk/pksk.hpp> leaves it out with PKSK_SEPARATE_COMPILATION
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include <string>
#include <variant>
#include <vector>

#include "dataset.hpp"
#include "model_entities.hpp"

namespace bench {

using PkskCollection = pksk::ItemCollection<Customer, Order>;

inline std::size_t fold(const PkskCollection& c, Checksum& cs) {
  for (const auto& item : c) std::visit([&](const auto& v) { cs.add(v); }, item);
  return c.size();
}

// Writes the benchmark's items through pksk::Table::put: the bodies the floor then reads are
// pksk's own.
inline void fill_pksk_table(const std::string& path, int customers) {
  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, std::string(kTable)};
  for (int i = 0; i < customers; ++i) {
    CustomerData d = generate_customer(i);
    table.put(d.customer);
    for (const Order& o : d.orders) table.put(o);
  }
}

class PkskSide {
 public:
  explicit PkskSide(const std::string& path)
      : backend_{path}, table_{backend_, std::string(kTable)} {}

  PkskCollection collection(const pksk::PartitionKey& pk) {
    return table_.query<PkskCollection>(pk);
  }
  PkskCollection newest(const pksk::PartitionKey& pk) {
    return table_.query<PkskCollection>(pk, {.forward = false, .limit = 11});
  }
  // The collection query with a filter on an Order member (issue 20).
  PkskCollection total_above(const pksk::PartitionKey& pk, double threshold) {
    return table_.query<PkskCollection>(pk, {.filter = pksk::attr(&Order::total) > threshold});
  }
  // Every Order of the partition, whole or with two members selected.
  std::vector<Order> orders(const pksk::PartitionKey& pk) { return table_.query<Order>(pk); }
  std::vector<Order> orders_projected(const pksk::PartitionKey& pk) {
    return table_.query<Order>(pk, {.select = pksk::members(&Order::order_id, &Order::total)});
  }
  // One segment of a parallel scan of the table's Orders.
  std::vector<Order> scan_segment(std::size_t segment, std::size_t segments) {
    return table_.scan<Order>({.segment = segment, .segments = segments});
  }
  std::vector<Order> range(const pksk::PartitionKey& pk, std::string_view low,
                           std::string_view high) {
    return table_.query<Order>(pk, {.sk = pksk::between(std::string(low), std::string(high))});
  }

 private:
  pksk::sqlite::Backend backend_;
  pksk::Table<pksk::sqlite::Backend> table_;
};

// The same queries through pksk::AnyBackend holding a SQLite backend on the same file (issue
// 35): what choosing the backend at run time costs, beside PkskSide in the same run.
class PkskAnySide {
 public:
  explicit PkskAnySide(const std::string& path)
      : backend_{pksk::sqlite::Backend{path}}, table_{backend_, std::string(kTable)} {}

  PkskCollection collection(const pksk::PartitionKey& pk) {
    return table_.query<PkskCollection>(pk);
  }
  PkskCollection newest(const pksk::PartitionKey& pk) {
    return table_.query<PkskCollection>(pk, {.forward = false, .limit = 11});
  }

 private:
  pksk::AnyBackend backend_;
  pksk::Table<pksk::AnyBackend> table_;
};

// The stream's partition keys as pksk values, made once: a query takes a PartitionKey, and
// building one per query would charge pksk for the benchmark's own string.
inline std::vector<pksk::PartitionKey> pksk_partitions(const CustomerStream& stream) {
  std::vector<pksk::PartitionKey> out;
  out.reserve(stream.size());
  for (const std::string& pk : stream.pks) out.push_back(pksk::PartitionKey{pk});
  return out;
}

}  // namespace bench
