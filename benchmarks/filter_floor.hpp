// SPDX-License-Identifier: BSL-1.0
#pragma once
// The hand-written baseline of a filtered collection query (issue 20): the floor's range
// statement, and for each Order row the filter `total > threshold` applied to the body with
// simdjson On-Demand before the row is decoded, as pksk applies a filter: the body is read as
// far as "total", and only a matching order is decoded (by the floor's own decoder). Customers
// are not kept: the filter names an Order member, and pksk scopes it to Orders.

#include <simdjson.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "floor.hpp"
#include "sqlite_util.hpp"

namespace bench {

class FilterFloor {
 public:
  explicit FilterFloor(const std::string& path)
      : db_(open(path)),
        all_(db_, "SELECT sk, \"type\", body FROM \"" + std::string(kTable) +
                      "\" WHERE pk = ?1 ORDER BY sk") {}

  CustomerOrders collection_total_above(std::string_view pk, double threshold) {
    CustomerOrders out;
    all_.bind(1, pk);
    while (all_.step()) {
      if (all_.text(1) != "Order") continue;
      const std::string_view body = all_.text(2);
      if (total(body) > threshold) decoder_.decode(body, out.orders.emplace_back());
    }
    all_.reset();
    return out;
  }

 private:
  static Db open(const std::string& path) {
    Db db(path);
    apply_pksk_pragmas(db);
    return db;
  }

  // The order's total, or -infinity when it has none (the filter is then false).
  double total(std::string_view body) {
    const std::size_t need = body.size() + simdjson::SIMDJSON_PADDING;
    if (need > capacity_) {
      capacity_ = need * 2;
      buffer_ = std::make_unique<char[]>(capacity_);
    }
    std::memcpy(buffer_.get(), body.data(), body.size());
    simdjson::ondemand::document doc;
    if (auto e = parser_.iterate(buffer_.get(), body.size(), capacity_).get(doc)) {
      decode_fail(e, "iterate");
    }
    simdjson::ondemand::object obj;
    if (auto e = doc.get_object().get(obj)) decode_fail(e, "object");
    for (auto fr : obj) {
      simdjson::ondemand::field field;
      if (auto e = std::move(fr).get(field)) decode_fail(e, "field");
      if (field.key() == "total") {
        double d = 0;
        if (auto e = field.value().get_double().get(d)) decode_fail(e, "total");
        return d;
      }
    }
    return std::numeric_limits<double>::lowest();
  }

  Db db_;
  Stmt all_;
  HandDecoder decoder_;
  simdjson::ondemand::parser parser_;
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
};

}  // namespace bench
