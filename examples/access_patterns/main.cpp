// SPDX-License-Identifier: BSL-1.0
// Documenting the design: the shop's entities, their index and their item collection give the
// table of access patterns for the docs, worked out from the definitions themselves. The design
// is stored in the SQLite file beside the table, where `pksk-inspect FILE --patterns` prints
// the same Markdown without the program's entities.

#include <array>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

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
  std::string order_id;
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
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "ORDER#{order_id}", "CUSTOMER#{customer_id}"}};
};

using CustomerOrders = pksk::ItemCollection<Customer, Order>;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "shop.db";

  // Each entity and collection listed once; the rest is read from their definitions.
  const pksk::AccessPatterns design = pksk::access_patterns<Customer, Order, CustomerOrders>();
  std::cout << design.to_markdown();

  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1"}}};
  pksk::sqlite::store_design(backend, "shop", design);

  const std::optional<pksk::AccessPatterns> stored = pksk::sqlite::stored_design(backend, "shop");
  std::cout << "\nstored with table shop: "
            << (stored == design ? "read back as written" : "read back DIFFERENT") << '\n';
  return stored == design ? 0 : 1;
}
