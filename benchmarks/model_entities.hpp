// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk's view of the benchmark's entities, exactly as docs/entities.md declares them. Kept apart
// from model.hpp so that the hand-written baselines see plain structs only.

#include <pksk/codec/codec.hpp>  // the decoder: <pksk/pksk.hpp> leaves it out with PKSK_SEPARATE_COMPILATION
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>

#include "model.hpp"

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
};
