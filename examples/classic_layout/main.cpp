// SPDX-License-Identifier: BSL-1.0
// Seed 004's item collection, in the table exactly as its designers laid it out: key attributes
// PK and SK, the discriminator Type, and PascalCase attributes CustomerId and OrderId. pksk
// writes and reads that table with plain snake_case structs: the table's attribute names are
// declared (TableOptions for the keys, attribute_case and renames for the members), not
// imposed on the C++ code.
//
// An order written with its ids only in its keys (as many tools write them) reads whole: the
// ids are read back from PK and SK.
//
// Runs on an SQLite file (argv[1], else "classic.db"), or on DynamoDB when
// PKSK_DYNAMODB_ENDPOINT is set (credentials and region as the AWS SDKs find them; the table is
// created if missing), with the same output.

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include <pksk/backend.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Customer {
  std::string id;
  std::string name;
};

struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;           // name -> Name
  static constexpr std::array renames = {pksk::Rename{"id", "CustomerId"}};  // as the seed's
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;  // customer_id -> CustomerId
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};  // one member by name
};

// The same order as a tool that keeps ids only in the keys writes it: no CustomerId, no
// OrderId attribute (store_key_members = false), which Order reads back from PK and SK.
struct LeanOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
};

template <>
struct pksk::Entity<LeanOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};
  static constexpr bool store_key_members = false;
};

namespace {

// The key attributes of seed 004's table.
const pksk::TableOptions classic_layout{
    .pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "Type"};

using CustomerOrders = pksk::ItemCollection<Customer, Order>;

void run(pksk::AnyBackend& backend) {
  pksk::Table table{backend, "classic", classic_layout};
  table.put(Customer{.id = "123", .name = "Ada"});
  for (const char* day : {"2020-11-25", "2020-12-01", "2020-12-06"}) {
    table.put(Order{.customer_id = "123", .order_id = day, .status = "shipped", .amount = 59.98});
  }

  // The collection as the seed shows it, one row per item, its columns the stored attribute
  // names: the table's key attributes, then the members' names as the entities store them.
  std::printf("%s | %s | %s | %s | %s\n", classic_layout.pk_attribute.c_str(),
              classic_layout.sk_attribute.c_str(), classic_layout.type_attribute.c_str(),
              std::string(pksk::stored_names_v<Order>[0]).c_str(),
              std::string(pksk::stored_names_v<Order>[1]).c_str());
  std::printf("---|----|------|------------|--------\n");
  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "123"});
  for (const auto& item : table.query<CustomerOrders>(pk)) {
    if (const auto* order = std::get_if<Order>(&item)) {
      std::printf("%s|%s|%s|%s|%s\n", pk.value.c_str(), pksk::sort_key(*order).c_str(),
                  std::string(pksk::type_name_v<Order>).c_str(), order->customer_id.c_str(),
                  order->order_id.c_str());
    } else {
      const auto& customer = std::get<Customer>(item);
      std::printf("%s|%s|%s|%s|\n", pk.value.c_str(), pksk::sort_key(customer).c_str(),
                  std::string(pksk::type_name_v<Customer>).c_str(), customer.id.c_str());
    }
  }

  // The seed's access pattern: the customer and its newest order, reading bottom to top.
  const auto newest = table.query<CustomerOrders>(pk, {.forward = false, .limit = 2});
  std::printf("\n%s and the newest order %s (%.2f, %s)\n", newest.first<Customer>()->name.c_str(),
              newest.first<Order>()->order_id.c_str(), newest.first<Order>()->amount,
              newest.first<Order>()->status.c_str());

  // Filters and updates name members; pksk sends the stored names (Total, Status).
  const auto big = table.query<Order>(pk, {.filter = pksk::attr(&Order::amount) > 50.0});
  std::printf("orders over 50: %zu\n", big.size());
  const Order paid =
      table.update(Order{.customer_id = "123", .order_id = "2020-12-06"},
                   pksk::set(&Order::status, "delivered"), pksk::add(&Order::amount, 5.0));
  std::printf("updated: %s %s %.2f\n", paid.order_id.c_str(), paid.status.c_str(), paid.amount);

  // Ids only in the keys: an Order reads them back from PK and SK.
  table.put(LeanOrder{
      .customer_id = "123", .order_id = "2020-12-07", .status = "pending", .amount = 12.5});
  const Order lean = *table.get(Order{.customer_id = "123", .order_id = "2020-12-07"});
  std::printf("stored without ids, read whole: %s %s %s %.2f\n", lean.customer_id.c_str(),
              lean.order_id.c_str(), lean.status.c_str(), lean.amount);
}

// DynamoDB when PKSK_DYNAMODB_ENDPOINT is set, else an SQLite file.
pksk::AnyBackend open_store(int argc, char** argv) {
  if (const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT")) {
    return pksk::dynamodb::Backend{{.endpoint = endpoint, .create_missing_tables = true}};
  }
  return pksk::sqlite::Backend{argc > 1 ? argv[1] : "classic.db"};
}

}  // namespace

int main(int argc, char** argv) {
  pksk::AnyBackend backend = open_store(argc, argv);
  run(backend);
}
