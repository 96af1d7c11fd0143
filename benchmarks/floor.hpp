// SPDX-License-Identifier: BSL-1.0
#pragma once
// The baselines pksk is measured against, written as a careful engineer writes them by hand:
// - the floor: one prepared range statement over pksk's table, each row decoded with simdjson
//   On-Demand (one reused parser, one reused padded buffer) dispatched on the type column;
// - the normalised schema read with three queries, with one JOIN, and with N+1 queries;
// - nlohmann/json, the common way of decoding the same bodies.

#include <simdjson.h>

#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dataset.hpp"
#include "model.hpp"
#include "sqlite_util.hpp"

namespace bench {

// What every collection query returns: the "A" record and the orders in sort-key order.
struct CustomerOrders {
  std::optional<Customer> customer;
  std::vector<Order> orders;
};

inline std::size_t fold(const CustomerOrders& r, Checksum& cs) {
  if (r.customer) cs.add(*r.customer);
  for (const Order& o : r.orders) cs.add(o);
  return r.orders.size() + (r.customer ? 1 : 0);
}
inline std::size_t fold(const std::vector<Order>& r, Checksum& cs) {
  for (const Order& o : r) cs.add(o);
  return r.size();
}

// ---- hand-written simdjson On-Demand ----------------------------------------------------------

[[noreturn]] inline void decode_fail(simdjson::error_code e, const char* where) {
  throw std::runtime_error(std::string("decode ") + where + ": " + simdjson::error_message(e));
}

class HandDecoder {
 public:
  void decode(std::string_view body, Customer& c) {
    simdjson::ondemand::object obj = load(body);
    for (auto fr : obj) {
      simdjson::ondemand::field field;
      if (auto e = std::move(fr).get(field)) decode_fail(e, "Customer field");
      const simdjson::ondemand::raw_json_string key = field.key();
      // The first character picks the member; the comparison confirms it.
      switch (*key.raw()) {
        case 'i':
          if (key == "id") get_string(field.value(), c.id);
          break;
        case 'n':
          if (key == "name") get_string(field.value(), c.name);
          break;
        case 'e':
          if (key == "email") get_string(field.value(), c.email);
          break;
        default:
          break;  // an unknown member is skipped, as a tolerant reader does
      }
    }
  }

  void decode(std::string_view body, Order& o) {
    simdjson::ondemand::object obj = load(body);
    for (auto fr : obj) {
      simdjson::ondemand::field field;
      if (auto e = std::move(fr).get(field)) decode_fail(e, "Order field");
      const simdjson::ondemand::raw_json_string key = field.key();
      switch (*key.raw()) {
        case 'c':
          if (key == "customer_id") get_string(field.value(), o.customer_id);
          break;
        case 'o':
          if (key == "order_id") get_string(field.value(), o.order_id);
          break;
        case 's':
          if (key == "status") get_string(field.value(), o.status);
          break;
        case 't':
          if (key == "total") o.total = get_double(field.value());
          break;
        case 'i':
          if (key == "items") get_items(field.value(), o.items);
          break;
        case 'n':
          if (key == "note") get_string(field.value(), o.note.emplace());
          break;
        default:
          break;
      }
    }
  }

 private:
  simdjson::ondemand::object load(std::string_view body) {
    const std::size_t need = body.size() + simdjson::SIMDJSON_PADDING;
    if (need > capacity_) {
      capacity_ = need * 2;
      buffer_ = std::make_unique<char[]>(capacity_);
    }
    std::memcpy(buffer_.get(), body.data(), body.size());
    if (auto e = parser_.iterate(buffer_.get(), body.size(), capacity_).get(doc_)) {
      decode_fail(e, "iterate");
    }
    simdjson::ondemand::object obj;
    if (auto e = doc_.get_object().get(obj)) decode_fail(e, "object");
    return obj;
  }

  static void get_string(simdjson::ondemand::value v, std::string& out) {
    std::string_view s;
    if (auto e = v.get_string().get(s)) decode_fail(e, "string");
    out.assign(s.data(), s.size());
  }
  static double get_double(simdjson::ondemand::value v) {
    double d;
    if (auto e = v.get_double().get(d)) decode_fail(e, "double");
    return d;
  }
  static void get_items(simdjson::ondemand::value v, std::vector<LineItem>& items) {
    simdjson::ondemand::array arr;
    if (auto e = v.get_array().get(arr)) decode_fail(e, "items");
    // Counting first costs a walk over the already-indexed structurals and saves the
    // vector's regrowth: one allocation per array instead of three.
    std::size_t n = 0;
    if (auto e = arr.count_elements().get(n)) decode_fail(e, "items count");
    items.reserve(n);
    for (auto er : arr) {
      simdjson::ondemand::object lo;
      if (auto e = er.get_object().get(lo)) decode_fail(e, "line item");
      LineItem& li = items.emplace_back();
      for (auto fr : lo) {
        simdjson::ondemand::field field;
        if (auto e = std::move(fr).get(field)) decode_fail(e, "LineItem field");
        const simdjson::ondemand::raw_json_string key = field.key();
        switch (*key.raw()) {
          case 's':
            if (key == "sku") get_string(field.value(), li.sku);
            break;
          case 'q':
            if (key == "qty") {
              std::int64_t q;
              if (auto e = field.value().get_int64().get(q)) decode_fail(e, "qty");
              li.qty = static_cast<int>(q);
            }
            break;
          case 'p':
            if (key == "price") li.price = get_double(field.value());
            break;
          default:
            break;
        }
      }
    }
  }

  simdjson::ondemand::parser parser_;
  simdjson::ondemand::document doc_;
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
};

// ---- the floor: pksk's table, read and decoded by hand ----------------------------------------

inline bool is_type(std::string_view column, std::string_view type) {
  return column == type;
}

class Floor {
 public:
  explicit Floor(const std::string& path)
      : db_(open(path)), all_(prepare_all()), newest_(prepare_newest()), range_(prepare_range()) {}

  // Every item of the partition, in sort-key order.
  CustomerOrders collection(std::string_view pk) {
    CustomerOrders out;
    all_.bind(1, pk);
    while (all_.step()) add(all_, out);
    all_.reset();
    return out;
  }

  // "A" + the newest `limit - 1` orders: the reverse range read with a limit.
  CustomerOrders newest(std::string_view pk, int limit = 11) {
    CustomerOrders out;
    newest_.bind(1, pk);
    newest_.bind(2, static_cast<long long>(limit));
    while (newest_.step()) add(newest_, out);
    newest_.reset();
    return out;
  }

  // Orders whose sort key is in [low, high] (inclusive, byte order).
  std::vector<Order> range(std::string_view pk, std::string_view low, std::string_view high) {
    std::vector<Order> out;
    range_.bind(1, pk);
    range_.bind(2, low);
    range_.bind(3, high);
    while (range_.step()) {
      if (is_type(range_.text(1), "Order")) decoder_.decode(range_.text(2), out.emplace_back());
    }
    range_.reset();
    return out;
  }

  // Rows only: the same statement stepped, every column read, nothing decoded.
  std::size_t rows_only(std::string_view pk, Checksum& cs) {
    std::size_t n = 0;
    all_.bind(1, pk);
    while (all_.step()) {
      cs.value += all_.text(0).size() + all_.text(1).size() + all_.text(2).size();
      ++n;
    }
    all_.reset();
    return n;
  }

  HandDecoder& decoder() { return decoder_; }

 private:
  static Db open(const std::string& path) {
    Db db(path);
    apply_pksk_pragmas(db);
    return db;
  }
  Stmt prepare_all() {
    return Stmt(db_, "SELECT sk, \"type\", body FROM \"" + std::string(kTable) +
                         "\" WHERE pk = ?1 ORDER BY sk");
  }
  Stmt prepare_newest() {
    return Stmt(db_, "SELECT sk, \"type\", body FROM \"" + std::string(kTable) +
                         "\" WHERE pk = ?1 ORDER BY sk DESC LIMIT ?2");
  }
  Stmt prepare_range() {
    return Stmt(db_, "SELECT sk, \"type\", body FROM \"" + std::string(kTable) +
                         "\" WHERE pk = ?1 AND sk BETWEEN ?2 AND ?3 ORDER BY sk");
  }

  void add(const Stmt& row, CustomerOrders& out) {
    const std::string_view type = row.text(1);
    if (is_type(type, "Order")) {
      decoder_.decode(row.text(2), out.orders.emplace_back());
    } else if (is_type(type, "Customer")) {
      decoder_.decode(row.text(2), out.customer.emplace());
    }
  }

  Db db_;
  Stmt all_, newest_, range_;
  HandDecoder decoder_;
};

// ---- the normalised schema --------------------------------------------------------------------

class Normalised {
 public:
  explicit Normalised(const std::string& path)
      : db_(path),
        customer_(db_, "SELECT name, email FROM customers WHERE id = ?1"),
        orders_(db_,
                "SELECT order_id, status, total, note FROM orders WHERE customer_id = ?1 "
                "ORDER BY order_id"),
        lines_(db_,
               "SELECT order_id, sku, qty, price FROM line_items WHERE customer_id = ?1 "
               "ORDER BY order_id, line_no"),
        order_lines_(db_,
                     "SELECT sku, qty, price FROM line_items WHERE customer_id = ?1 AND "
                     "order_id = ?2 ORDER BY line_no"),
        join_(db_,
              "SELECT c.name, c.email, o.order_id, o.status, o.total, o.note, l.sku, l.qty, "
              "l.price FROM customers c LEFT JOIN orders o ON o.customer_id = c.id "
              "LEFT JOIN line_items l ON l.customer_id = o.customer_id AND l.order_id = "
              "o.order_id WHERE c.id = ?1 ORDER BY o.order_id, l.line_no") {
    apply_pksk_pragmas(db_);
  }

  // Three prepared queries, merged on order_id (both sides come in order_id order).
  CustomerOrders three_queries(std::string_view id) {
    CustomerOrders out;
    read_customer(id, out);
    read_orders(id, out);
    lines_.bind(1, id);
    std::size_t at = 0;
    while (lines_.step()) {
      const std::string_view oid = lines_.text(0);
      while (at < out.orders.size() && out.orders[at].order_id != oid) ++at;
      if (at == out.orders.size()) break;
      add_line(lines_, 1, out.orders[at]);
    }
    lines_.reset();
    return out;
  }

  // One JOIN: the customer's and the order's columns repeat on each line row.
  CustomerOrders join(std::string_view id) {
    CustomerOrders out;
    join_.bind(1, id);
    while (join_.step()) {
      if (!out.customer) {
        Customer& c = out.customer.emplace();
        c.id = id;
        c.name = join_.text(0);
        c.email = join_.text(1);
      }
      if (join_.is_null(2)) continue;  // a customer without orders
      const std::string_view oid = join_.text(2);
      if (out.orders.empty() || out.orders.back().order_id != oid) {
        Order& o = out.orders.emplace_back();
        o.customer_id = id;
        o.order_id = oid;
        o.status = join_.text(3);
        o.total = join_.real(4);
        if (!join_.is_null(5)) o.note = join_.text(5);
      }
      if (!join_.is_null(6)) add_line(join_, 6, out.orders.back());
    }
    join_.reset();
    return out;
  }

  // N+1: the customer, its orders, then one query per order for its lines.
  CustomerOrders n_plus_one(std::string_view id) {
    CustomerOrders out;
    read_customer(id, out);
    read_orders(id, out);
    for (Order& o : out.orders) {
      order_lines_.bind(1, id);
      order_lines_.bind(2, o.order_id);
      while (order_lines_.step()) add_line(order_lines_, 0, o);
      order_lines_.reset();
    }
    return out;
  }

 private:
  void read_customer(std::string_view id, CustomerOrders& out) {
    customer_.bind(1, id);
    if (customer_.step()) {
      Customer& c = out.customer.emplace();
      c.id = id;
      c.name = customer_.text(0);
      c.email = customer_.text(1);
    }
    customer_.reset();
  }
  void read_orders(std::string_view id, CustomerOrders& out) {
    orders_.bind(1, id);
    while (orders_.step()) {
      Order& o = out.orders.emplace_back();
      o.customer_id = id;
      o.order_id = orders_.text(0);
      o.status = orders_.text(1);
      o.total = orders_.real(2);
      if (!orders_.is_null(3)) o.note = orders_.text(3);
    }
    orders_.reset();
  }
  static void add_line(const Stmt& s, int col, Order& o) {
    LineItem& li = o.items.emplace_back();
    li.sku = s.text(col);
    li.qty = static_cast<int>(s.integer(col + 1));
    li.price = s.real(col + 2);
  }

  Db db_;
  Stmt customer_, orders_, lines_, order_lines_, join_;
};

}  // namespace bench
