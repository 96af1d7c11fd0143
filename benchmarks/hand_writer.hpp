// SPDX-License-Identifier: BSL-1.0
#pragma once
// The write-path baseline, written as a careful engineer writes it by hand with sqlite3: keys
// formatted with string appends into reused buffers, the JSON body written by hand (strings
// escaped, numbers with std::to_chars), the item's DynamoDB size counted while writing (the
// size column pksk's schema has, so both sides store the same rows), one prepared
// INSERT OR REPLACE bound with SQLITE_STATIC, and BEGIN IMMEDIATE / COMMIT as prepared
// statements too. Updates are read-modify-write: SELECT body, decode with simdjson On-Demand
// (floor.hpp's HandDecoder), change the two fields, re-encode, write back.
//
// HandSql::upsert is the same writer as the most careful engineer finishes it (issue 42): a put
// is `INSERT ... ON CONFLICT (pk, sk) DO UPDATE SET ...`, which changes a stored row in place
// where INSERT OR REPLACE deletes it and inserts it again, and an update writes the row it has
// just read with a plain `UPDATE ... WHERE pk = ?1 AND sk = ?2` (an absent order: INSERT).

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

#include "dataset.hpp"
#include "floor.hpp"
#include "model.hpp"
#include "sqlite_util.hpp"

namespace bench {

// An Order as one stored row: keys, body and size, in buffers reused from row to row.
class HandEncoder {
 public:
  std::string pk, sk, body;
  std::size_t size = 0;

  void keys(const Order& o) {
    pk.clear();
    pk += "CUSTOMER#";
    pk += o.customer_id;
    sk.clear();
    sk += "#ORDER#";
    sk += o.order_id;
  }

  // Keys, body and size of the order. The body is the object pksk writes for an Order: members
  // in declaration order, `note` absent when empty.
  void encode(const Order& o) {
    keys(o);
    // The key attributes ("pk", "sk") and the type attribute ("type" = "Order") count too.
    size = 2 + pk.size() + 2 + sk.size() + 4 + 5;
    body.clear();
    body += "{\"customer_id\":";
    string(o.customer_id, 11);
    body += ",\"order_id\":";
    string(o.order_id, 8);
    body += ",\"status\":";
    string(o.status, 6);
    body += ",\"total\":";
    number(o.total, 5);
    body += ",\"items\":[";
    size += 5 + 3;  // name, list
    for (std::size_t i = 0; i < o.items.size(); ++i) {
      const LineItem& li = o.items[i];
      body += i == 0 ? "{\"sku\":" : ",{\"sku\":";
      size += 1 + 3;  // list element, map
      string(li.sku, 3 + 1);
      body += ",\"qty\":";
      number(li.qty, 3 + 1);
      body += ",\"price\":";
      number(li.price, 5 + 1);
      body += '}';
    }
    body += ']';
    if (o.note) {
      body += ",\"note\":";
      string(*o.note, 4);
    }
    body += '}';
  }

 private:
  void string(std::string_view s, std::size_t name_bytes) {
    size += name_bytes + s.size();
    body += '"';
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      body.append(s.data() + run, i - run);
      run = i + 1;
      switch (c) {
        case '"':
          body += "\\\"";
          break;
        case '\\':
          body += "\\\\";
          break;
        case '\n':
          body += "\\n";
          break;
        case '\r':
          body += "\\r";
          break;
        case '\t':
          body += "\\t";
          break;
        case '\b':
          body += "\\b";
          break;
        case '\f':
          body += "\\f";
          break;
        default: {
          constexpr char hex[] = "0123456789abcdef";
          const char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
          body.append(e, 6);
        }
      }
    }
    body.append(s.data() + run, s.size() - run);
    body += '"';
  }

  // DynamoDB counts a number by its significant digits: one byte per two, plus one.
  template <class Number>
  void number(Number n, std::size_t name_bytes) {
    char buf[32];
    const char* end = std::to_chars(buf, buf + sizeof buf, n).ptr;
    body.append(buf, static_cast<std::size_t>(end - buf));
    int first = -1, last = -1, position = 0;
    for (const char* p = buf; p != end && *p != 'e'; ++p) {
      if (*p < '0' || *p > '9') continue;
      if (*p != '0') {
        if (first < 0) first = position;
        last = position;
      }
      ++position;
    }
    const std::size_t digits = first < 0 ? 1 : static_cast<std::size_t>(last - first + 1);
    size += name_bytes + (digits + 1) / 2 + 1;
  }
};

// How the hand-written side writes a row that may be stored already (see the top).
enum class HandSql { replace, upsert };

inline std::string hand_put_sql(HandSql sql) {
  const std::string columns =
      "\"" + std::string(kTable) + "\" (pk, sk, \"type\", body, size) VALUES (?1, ?2, ?3, ?4, ?5)";
  if (sql == HandSql::replace) return "INSERT OR REPLACE INTO " + columns;
  return "INSERT INTO " + columns +
         " ON CONFLICT (pk, sk) DO UPDATE SET \"type\" = excluded.\"type\", body = "
         "excluded.body, size = excluded.size";
}

class HandWriter {
 public:
  explicit HandWriter(const std::string& path, HandSql sql = HandSql::replace)
      : db_(open(path)),
        sql_(sql),
        insert_(db_, hand_put_sql(sql)),
        rewrite_(db_, "UPDATE \"" + std::string(kTable) +
                          "\" SET \"type\" = ?3, body = ?4, size = ?5 WHERE pk = ?1 AND sk = ?2"),
        select_(db_, "SELECT body FROM \"" + std::string(kTable) + "\" WHERE pk = ?1 AND sk = ?2"),
        begin_(db_, "BEGIN IMMEDIATE"),
        commit_(db_, "COMMIT") {}

  // One order, autocommit.
  void put(const Order& o) {
    enc_.encode(o);
    write_row();
  }

  // Every order in one transaction.
  template <class Range>
  void put_all(const Range& orders) {
    begin_.run();
    for (const Order& o : orders) {
      enc_.encode(o);
      write_row();
    }
    commit_.run();
  }

  // The two fields changed on the stored order, read and written back under the write lock;
  // returns the order as written.
  Order update(const Order& key, std::string_view status, double add) {
    Order o;
    begin_.run();
    enc_.keys(key);
    select_.bind(1, enc_.pk);
    select_.bind(2, enc_.sk);
    const bool found = select_.step();
    if (found) decoder_.decode(select_.text(0), o);
    select_.reset();
    o.customer_id = key.customer_id;  // an absent order is created with its key
    o.order_id = key.order_id;
    o.status = status;
    o.total += add;
    enc_.encode(o);
    if (found && sql_ == HandSql::upsert)
      write_row(rewrite_);
    else
      write_row();
    commit_.run();
    return o;
  }

  Db& db() { return db_; }

 private:
  static Db open(const std::string& path) {
    Db db(path);
    apply_pksk_pragmas(db);
    return db;
  }

  void write_row() { write_row(insert_); }
  void write_row(Stmt& s) {
    s.bind(1, enc_.pk);
    s.bind(2, enc_.sk);
    s.bind(3, std::string_view("Order"));
    s.bind(4, enc_.body);
    s.bind(5, static_cast<long long>(enc_.size));
    s.run();
  }

  Db db_;
  HandSql sql_;
  Stmt insert_, rewrite_, select_, begin_, commit_;
  HandEncoder enc_;
  HandDecoder decoder_;
};

}  // namespace bench
