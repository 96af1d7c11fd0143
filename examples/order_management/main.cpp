// SPDX-License-Identifier: BSL-1.0
// Seed 000, example 2: order management. An order, its line items, shipments and payments are
// one item collection, so one range read returns the whole order:
//
//   PK          | SK                | Type
//   ORDER#789   | ITEM#001          | LineItem
//   ORDER#789   | ITEM#002          | LineItem
//   ORDER#789   | METADATA#order    | OrderHeader
//   ORDER#789   | PAYMENT#pay_01    | Payment
//   ORDER#789   | SHIPMENT#ship_01  | Shipment
//
// Placing an order and shipping it are transactions: every item of the step is written, or
// none is, and a step whose preconditions fail reports a reason per action.

#include <cstdio>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct OrderHeader {
  std::string order_id;
  std::string customer_id;
  std::string status;  // placed, shipped
  double total{};
};
struct LineItem {
  std::string order_id;
  std::string line;  // "001": sortable line numbers
  std::string product;
  int qty{};
  double price{};
};
struct Shipment {
  std::string order_id;
  std::string shipment_id;
  std::string carrier;
  std::string tracking;
};
struct Payment {
  std::string order_id;
  std::string payment_id;
  double amount{};
  std::string status;
};

template <>
struct pksk::Entity<OrderHeader> {
  static constexpr std::string_view type = "OrderHeader";
  static constexpr std::string_view pk = "ORDER#{order_id}";
  static constexpr std::string_view sk = "METADATA#order";
};
template <>
struct pksk::Entity<LineItem> {
  static constexpr std::string_view type = "LineItem";
  static constexpr std::string_view pk = "ORDER#{order_id}";
  static constexpr std::string_view sk = "ITEM#{line}";
};
template <>
struct pksk::Entity<Shipment> {
  static constexpr std::string_view type = "Shipment";
  static constexpr std::string_view pk = "ORDER#{order_id}";
  static constexpr std::string_view sk = "SHIPMENT#{shipment_id}";
};
template <>
struct pksk::Entity<Payment> {
  static constexpr std::string_view type = "Payment";
  static constexpr std::string_view pk = "ORDER#{order_id}";
  static constexpr std::string_view sk = "PAYMENT#{payment_id}";
};

using Order = pksk::ItemCollection<OrderHeader, LineItem, Shipment, Payment>;

template <class Table>
void print_order(Table& table, const std::string& order_id) {
  const Order order =
      table.template query<Order>(pksk::partition(OrderHeader{.order_id = order_id}));
  const OrderHeader* header = order.template first<OrderHeader>();
  std::printf("order %s: %s, %.2f, %zu items in one query\n", order_id.c_str(),
              header->status.c_str(), header->total, order.size());
  for (const LineItem& line : order.template items<LineItem>()) {
    std::printf("  line %s  %-8s x%d  %6.2f\n", line.line.c_str(), line.product.c_str(), line.qty,
                line.price);
  }
  for (const Payment& p : order.template items<Payment>()) {
    std::printf("  payment %s  %.2f %s\n", p.payment_id.c_str(), p.amount, p.status.c_str());
  }
  for (const Shipment& s : order.template items<Shipment>()) {
    std::printf("  shipment %s  %s %s\n", s.shipment_id.c_str(), s.carrier.c_str(),
                s.tracking.c_str());
  }
}

int main(int argc, char** argv) {
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "orders.db"};
  pksk::Table table{backend, "orders"};
  using pksk::attr;

  // Placing the order: header, lines and payment in one transaction; if_absent so that a
  // retried request cannot place it twice.
  const std::vector<LineItem> lines{{"789", "001", "keyboard", 1, 49.90},
                                    {"789", "002", "mouse", 2, 15.05}};
  double total = 0;
  for (const LineItem& l : lines) total += l.qty * l.price;
  auto place = table.transact();
  place.put(OrderHeader{"789", "123", "placed", total}, pksk::if_absent);
  for (const LineItem& l : lines) place.put(l, pksk::if_absent);
  place.put(Payment{"789", "pay_01", total, "captured"}, pksk::if_absent);
  place.commit();
  print_order(table, "789");

  // Shipping it: the shipment is written and the status moves from placed to shipped, only if
  // the order is still placed and its payment captured.
  table.transact()
      .put(Shipment{"789", "ship_01", "UPS", "1Z999"}, pksk::if_absent)
      .update(OrderHeader{.order_id = "789"}, pksk::set(&OrderHeader::status, "shipped"),
              pksk::when(attr(&OrderHeader::status) == "placed"))
      .check(Payment{.order_id = "789", .payment_id = "pay_01"},
             pksk::when(attr(&Payment::status) == "captured"))
      .commit();
  print_order(table, "789");

  // Shipping it again fails as a whole: the second shipment is not written.
  try {
    table.transact()
        .put(Shipment{"789", "ship_02", "DHL", "JD014"}, pksk::if_absent)
        .update(OrderHeader{.order_id = "789"}, pksk::set(&OrderHeader::status, "shipped"),
                pksk::when(attr(&OrderHeader::status) == "placed"))
        .check(Payment{.order_id = "789", .payment_id = "pay_01"},
               pksk::when(attr(&Payment::status) == "captured"))
        .commit();
  } catch (const pksk::TransactionCanceled& e) {
    std::printf("second shipment canceled:");
    for (const pksk::CancellationReason r : e.reasons()) std::printf(" [%s]", pksk::to_string(r));
    std::printf("\n");
  }
  const bool written = table.get(Shipment{.order_id = "789", .shipment_id = "ship_02"}).has_value();
  std::printf("ship_02 written: %s\n", written ? "yes" : "no");

  // The lines alone: their sort-key prefix, as the seed's second access pattern.
  double sum = 0;
  for (const LineItem& l : table.query<LineItem>(pksk::partition(OrderHeader{.order_id = "789"}))) {
    sum += l.qty * l.price;
  }
  std::printf("total from the lines: %.2f\n", sum);
}
