// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the stored-names cases (cases_names.hpp): a table someone else designed, with
// PascalCase attributes (seed 004's PK, SK, Type, CustomerId, OrderId), members renamed to names
// that are no C++ identifiers, a nested record with names of its own, a version, an index, and a
// Hana-adapted entity.

#include <array>
#include <boost/hana/define_struct.hpp>
#include <map>
#include <optional>
#include <pksk/pksk.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "conformance.hpp"

namespace conformance {

// Nested: its members are stored in camelCase, one renamed.
struct Price {
  std::string currency_code;
  long long minor_units{};
  friend bool operator==(const Price&, const Price&) = default;
};

struct ClassicOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};                       // "Total"
  std::optional<std::string> gift_note;  // "Gift \"Note\"": a quote in the name
  std::vector<std::string> tracking;     // "tracking.ids": a dot is no path here
  std::map<std::string, int> line_counts;
  std::string sales_rep;  // gsi1's partition key
  Price price;
  long long rev{};  // the version, "Rev"
  friend bool operator==(const ClassicOrder&, const ClassicOrder&) = default;
};

// A member whose stored name is the table's type attribute: refused by the table.
struct Clash {
  std::string id;
  std::string type;  // "Type" in PascalCase
};

// One member whose stored name is longer than the item's other attributes together.
struct Wide {
  std::string id;
  std::string text;
};

// Not an aggregate: adapted for Boost.Hana, with stored names of its own.
class HanaOrder {
 public:
  BOOST_HANA_DEFINE_STRUCT(HanaOrder, (std::string, customer_id), (std::string, order_id),
                           (int, item_count), (std::optional<std::string>, gift_note));
  friend bool operator==(const HanaOrder& a, const HanaOrder& b) {
    return a.customer_id == b.customer_id && a.order_id == b.order_id &&
           a.item_count == b.item_count && a.gift_note == b.gift_note;
  }
};

// 300 'n's, then the end: Wide::text's stored name.
inline constexpr std::array<char, 300> wide_name = [] {
  std::array<char, 300> out{};
  for (char& c : out) c = 'n';
  return out;
}();

}  // namespace conformance

template <>
struct pksk::Attributes<conformance::Price> {
  static constexpr pksk::Case attribute_case = pksk::Case::camel;
  static constexpr std::array renames = {pksk::Rename{"minor_units", "cents"}};
};
template <>
struct pksk::Entity<conformance::ClassicOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"},
                                         pksk::Rename{"gift_note", "Gift \"Note\""},
                                         pksk::Rename{"tracking", "tracking.ids"}};
  static constexpr std::string_view version = "rev";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "REP#{sales_rep}", "{order_id}"}};
};
template <>
struct pksk::Entity<conformance::Clash> {
  static constexpr std::string_view type = "Clash";
  static constexpr std::string_view pk = "CLASH#{id}";
  static constexpr std::string_view sk = "C";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
};
template <>
struct pksk::Entity<conformance::Wide> {
  static constexpr std::string_view type = "Wide";
  static constexpr std::string_view pk = "WIDE#{id}";
  static constexpr std::string_view sk = "W";
  static constexpr std::array renames = {
      pksk::Rename{"text", {conformance::wide_name.data(), conformance::wide_name.size()}}};
};
template <>
struct pksk::Entity<conformance::HanaOrder> {
  static constexpr std::string_view type = "HanaOrder";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#HANA#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::camel;
  static constexpr std::array renames = {pksk::Rename{"item_count", "Items #"}};
};

namespace conformance {

// Seed 004's layout: PK, SK and Type, and gsi1's keys named as such tables name them.
template <class Store>
auto make_classic_table(Store& store) {
  return pksk::Table{store.backend,
                     fresh_table_name(),
                     {.pk_attribute = "PK",
                      .sk_attribute = "SK",
                      .type_attribute = "Type",
                      .indexes = {{"gsi1", "GSI1PK", "GSI1SK"}}}};
}

inline ClassicOrder classic_order(std::string id, double amount) {
  ClassicOrder o;
  o.customer_id = "123";
  o.order_id = std::move(id);
  o.status = "pending";
  o.amount = amount;
  o.gift_note = "with love";
  o.tracking = {"t1"};
  o.line_counts = {{"sku-1", 2}};
  o.sales_rep = "ada";
  o.price = {"EUR", 5998};
  return o;
}

}  // namespace conformance
