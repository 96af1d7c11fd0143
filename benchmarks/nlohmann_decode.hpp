// SPDX-License-Identifier: BSL-1.0
#pragma once
// The same bodies decoded the way most C++ code does it: nlohmann/json's DOM and from_json.

#include <nlohmann/json.hpp>

#include <string_view>

#include "model.hpp"

namespace bench {

inline void from_json(const nlohmann::json& j, LineItem& l) {
  j.at("sku").get_to(l.sku);
  j.at("qty").get_to(l.qty);
  j.at("price").get_to(l.price);
}

inline void from_json(const nlohmann::json& j, Customer& c) {
  j.at("id").get_to(c.id);
  j.at("name").get_to(c.name);
  j.at("email").get_to(c.email);
}

inline void from_json(const nlohmann::json& j, Order& o) {
  j.at("customer_id").get_to(o.customer_id);
  j.at("order_id").get_to(o.order_id);
  j.at("status").get_to(o.status);
  j.at("total").get_to(o.total);
  j.at("items").get_to(o.items);
  if (auto it = j.find("note"); it != j.end()) {
    o.note = it->get<std::string>();
  } else {
    o.note.reset();
  }
}

template <class T>
void nlohmann_decode(std::string_view body, T& out) {
  nlohmann::json::parse(body.begin(), body.end()).get_to(out);
}

}  // namespace bench
