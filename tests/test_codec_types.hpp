// SPDX-License-Identifier: BSL-1.0
#pragma once
// Entities shared by the codec tests: every supported member type, nested.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/hana/adapt_struct.hpp>
#include <boost/hana/define_struct.hpp>

namespace codec_test {

struct LineItem {
  std::string sku;
  int qty{};
  double price{};
  bool operator==(const LineItem&) const = default;
};

struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
  bool operator==(const Order&) const = default;
};

enum class Status { pending, shipped, cancelled = 7 };

struct Address {
  std::string city;
  std::optional<std::string> zip;
  bool operator==(const Address&) const = default;
};

struct Everything {
  std::string text;
  bool flag{};
  std::int8_t i8{};
  std::uint8_t u8{};
  std::int16_t i16{};
  std::uint16_t u16{};
  std::int32_t i32{};
  std::uint32_t u32{};
  std::int64_t i64{};
  std::uint64_t u64{};
  float f{};
  double d{};
  Status status{};
  std::optional<int> maybe_int;
  std::optional<Address> maybe_address;
  std::vector<std::string> names;
  std::vector<LineItem> items;
  std::vector<std::vector<int>> matrix;
  std::vector<bool> bits;
  std::vector<std::optional<std::string>> sparse;
  std::map<std::string, std::vector<int>> groups;
  std::map<std::string, Address> addresses;
  std::set<std::string> tags;
  std::chrono::system_clock::time_point at{};
  Address home;
  bool operator==(const Everything&) const = default;
};

struct Defined {
  BOOST_HANA_DEFINE_STRUCT(Defined, (std::string, name), (int, age),
                           (std::optional<Status>, status));
  bool operator==(const Defined&) const = default;
};

struct Defaults {
  std::string name = "unnamed";
  int count = 42;
  std::optional<std::string> note;
  std::vector<int> values;
  bool operator==(const Defaults&) const = default;
};

}  // namespace codec_test

struct AdaptedPoint {
  double x = 0;
  int hidden = 0;
  double y = 0;
  bool operator==(const AdaptedPoint&) const = default;
};
BOOST_HANA_ADAPT_STRUCT(AdaptedPoint, x, y);
