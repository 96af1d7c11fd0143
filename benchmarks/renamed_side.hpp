// SPDX-License-Identifier: BSL-1.0
#pragma once
// A collection query of entities with stored names of their own (Entity<T>::attribute_case and
// renames): seed 004's layout, PK, SK and Type, members stored in PascalCase and Order::total
// as "Total", on a dataset of its own (the main dataset's items, written under those names).
// Beside PkskSide's collection query it shows what stored names cost on the read path, and with
// ValuedOrder what a member of a type of the user's own (pksk::Value) costs besides.

#include <pksk/codec/codec.hpp>  // the decoder: <pksk/pksk.hpp> leaves it out with PKSK_SEPARATE_COMPILATION
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include <array>
#include <concepts>
#include <string>
#include <variant>
#include <vector>

#include "dataset.hpp"
#include "model_entities.hpp"

template <>
struct pksk::Entity<RenamedCustomer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"id", "CustomerId"}};
};
template <>
struct pksk::Entity<RenamedOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"total", "Total"}};
};

// The renamed order again, its total a type of its own (model.hpp's Amount).
template <>
struct pksk::Value<bench::Amount> {
  static double to(const bench::Amount& a) noexcept { return a.value; }
  static bench::Amount from(double d) noexcept { return {d}; }
};
template <>
struct pksk::Entity<ValuedOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"total", "Total"}};
};

namespace bench {

using RenamedCollection = pksk::ItemCollection<RenamedCustomer, RenamedOrder>;

using ValuedCollection = pksk::ItemCollection<RenamedCustomer, ValuedOrder>;

template <class Collection>
  requires std::same_as<Collection, RenamedCollection> || std::same_as<Collection, ValuedCollection>
inline std::size_t fold(const Collection& c, Checksum& cs) {
  for (const auto& item : c) std::visit([&](const auto& v) { cs.add(v); }, item);
  return c.size();
}

inline const pksk::TableOptions& renamed_table_options() {
  static const pksk::TableOptions options{
      .pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "Type"};
  return options;
}

inline void fill_renamed_table(const std::string& path, int customers) {
  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, std::string(kTable), renamed_table_options()};
  for (int i = 0; i < customers; ++i) {
    CustomerData d = generate_customer(i);
    table.put(RenamedCustomer{std::move(d.customer.id), std::move(d.customer.name),
                              std::move(d.customer.email)});
    for (Order& o : d.orders) {
      table.put(RenamedOrder{std::move(o.customer_id), std::move(o.order_id), std::move(o.status),
                             o.total, std::move(o.items), std::move(o.note)});
    }
  }
}

inline std::string ensure_renamed_dataset(const std::string& dir, int customers) {
  return ensure_dataset(dir, customers, "pksk_renamed", fill_renamed_table);
}

class PkskRenamedSide {
 public:
  explicit PkskRenamedSide(const std::string& path)
      : backend_{path}, table_{backend_, std::string(kTable), renamed_table_options()} {}

  RenamedCollection collection(const pksk::PartitionKey& pk) {
    return table_.query<RenamedCollection>(pk);
  }
  // The same items, the orders' totals read into a converted member.
  ValuedCollection valued_collection(const pksk::PartitionKey& pk) {
    return table_.query<ValuedCollection>(pk);
  }
  RenamedCollection newest(const pksk::PartitionKey& pk) {
    return table_.query<RenamedCollection>(pk, {.forward = false, .limit = 11});
  }

 private:
  pksk::sqlite::Backend backend_;
  pksk::Table<pksk::sqlite::Backend> table_;
};

}  // namespace bench
