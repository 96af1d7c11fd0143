// SPDX-License-Identifier: BSL-1.0
#pragma once
// An index query (issue 20): a customer's orders by status through a secondary index, pksk's
// table.index("gsi1").query<IndexedOrder>(pk) beside the hand-written sqlite3 + simdjson code
// reading the same SQLite index, on a dataset of its own (the orders of the main dataset, with
// the index's keys).

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include <string>
#include <vector>

#include "dataset.hpp"
#include "floor.hpp"
#include "model_entities.hpp"
#include "sqlite_util.hpp"

template <>
struct pksk::Entity<IndexedOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "CUSTOMER#{customer_id}", "STATUS#{status}#{order_id}"}};
};

namespace bench {

inline std::size_t fold(const std::vector<IndexedOrder>& r, Checksum& cs) {
  for (const IndexedOrder& o : r) cs.add(o);
  return r.size();
}

inline const pksk::TableOptions& index_table_options() {
  static const pksk::TableOptions options{.indexes = {"gsi1"}};
  return options;
}

inline void fill_index_table(const std::string& path, int customers) {
  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, std::string(kTable), index_table_options()};
  std::vector<IndexedOrder> orders;
  for (int i = 0; i < customers; ++i) {
    CustomerData d = generate_customer(i);
    table.put(d.customer);
    orders.clear();
    for (Order& o : d.orders) {
      orders.push_back(IndexedOrder{std::move(o.customer_id), std::move(o.order_id),
                                    std::move(o.status), o.total, std::move(o.items),
                                    std::move(o.note)});
    }
    table.put_all(orders);
  }
}

inline std::string ensure_index_dataset(const std::string& dir, int customers) {
  return ensure_dataset(dir, customers, "pksk_gsi1", fill_index_table);
}

class PkskIndexSide {
 public:
  explicit PkskIndexSide(const std::string& path)
      : backend_{path}, table_{backend_, std::string(kTable), index_table_options()} {}

  std::vector<IndexedOrder> orders_by_status(const pksk::PartitionKey& pk) {
    return table_.index("gsi1").query<IndexedOrder>(pk);
  }

 private:
  pksk::sqlite::Backend backend_;
  pksk::Table<pksk::sqlite::Backend> table_;
};

// What a careful engineer writes for the same read: one statement on the index, prepared once,
// the type checked (other entities may share an index, as they share a partition) and the
// floor's decoder for each body.
class IndexFloor {
 public:
  explicit IndexFloor(const std::string& path)
      : db_(open(path)),
        by_status_(db_, "SELECT \"type\", body FROM \"" + std::string(kTable) +
                            "\" WHERE gsi1pk = ?1 AND gsi1sk IS NOT NULL ORDER BY gsi1sk, pk, sk") {
  }

  std::vector<Order> orders_by_status(std::string_view pk) {
    std::vector<Order> out;
    by_status_.bind(1, pk);
    while (by_status_.step()) {
      if (by_status_.text(0) == "Order") decoder_.decode(by_status_.text(1), out.emplace_back());
    }
    by_status_.reset();
    return out;
  }

 private:
  static Db open(const std::string& path) {
    Db db(path);
    apply_pksk_pragmas(db);
    return db;
  }

  Db db_;
  Stmt by_status_;
  HandDecoder decoder_;
};

}  // namespace bench
