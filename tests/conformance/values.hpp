// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the value-type cases (cases_values.hpp): types of the user's own stored
// through pksk::Value specialisations, one as a number (an amount of money in cents), one as
// text that is also a key field (a strong customer id), one whose conversion refuses some
// stored values (a SKU); and time as epoch seconds and milliseconds (pksk::EpochTime).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <pksk/pksk.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace conformance {

struct Cents {
  std::int64_t value{};
  friend bool operator==(const Cents&, const Cents&) = default;
};

struct ClientId {
  std::string text;
  friend bool operator==(const ClientId&, const ClientId&) = default;
};

// A SKU is "SKU-" and a code; a stored text without the prefix is no SKU.
struct Sku {
  std::string code;
  friend bool operator==(const Sku&, const Sku&) = default;
};

struct Bill {
  ClientId client;
  std::string number;
  Cents total;
  std::optional<Cents> discount;
  std::vector<Cents> lines;
  Sku sku;
  pksk::EpochSeconds due;
  std::optional<pksk::EpochMilliseconds> paid_at;
  friend bool operator==(const Bill&, const Bill&) = default;
};

// The same items with the converted members as their stored types.
struct StoredBill {
  std::string client;
  std::string number;
  std::int64_t total{};
  std::optional<std::int64_t> discount;
  std::vector<std::int64_t> lines;
  std::string sku;
  std::int64_t due{};
  std::optional<std::int64_t> paid_at;
};

// DynamoDB's number and binary sets, and binary, as members.
struct ValueProbe {
  std::string id;
  std::set<double> readings;               // NS
  std::set<std::int64_t> counts;           // NS
  std::set<std::vector<std::byte>> blobs;  // BS
  std::vector<std::byte> raw;              // B
  friend bool operator==(const ValueProbe&, const ValueProbe&) = default;
};

// Bytes in the other usual spellings: binary (B) as std::vector<std::byte> is.
struct ByteProbe {
  std::string id;
  std::vector<std::uint8_t> image;
  std::vector<unsigned char> thumb;
  std::optional<std::vector<std::uint8_t>> icon;
  friend bool operator==(const ByteProbe&, const ByteProbe&) = default;
};

// A profile whose empty optionals are stored as NULL, and the same item read without the
// option (NullableReader): both forms read back empty.
struct NullableProfile {
  std::string id;
  std::optional<std::string> nickname;
  std::optional<std::int64_t> age;
  std::string city;
  friend bool operator==(const NullableProfile&, const NullableProfile&) = default;
};
struct PlainProfile {
  std::string id;
  std::optional<std::string> nickname;
  std::optional<std::int64_t> age;
  std::string city;
  friend bool operator==(const PlainProfile&, const PlainProfile&) = default;
};

// In the invoices' partitions, to read an invoice raw (as an item of no type its collection
// knows).
struct ClientNote {
  std::string client;
};
struct ProbeNote {
  std::string id;
};

}  // namespace conformance

template <>
struct pksk::Value<conformance::Cents> {
  static std::int64_t to(const conformance::Cents& c) { return c.value; }
  static conformance::Cents from(std::int64_t n) { return {n}; }
};
template <>
struct pksk::Value<conformance::ClientId> {
  static const std::string& to(const conformance::ClientId& id) { return id.text; }
  static conformance::ClientId from(const std::string& text) { return {text}; }
};
template <>
struct pksk::Value<conformance::Sku> {
  static std::string to(const conformance::Sku& sku) { return "SKU-" + sku.code; }
  static conformance::Sku from(const std::string& text) {
    if (text.rfind("SKU-", 0) != 0) throw std::invalid_argument("not a SKU: " + text);
    return {text.substr(4)};
  }
};

template <>
struct pksk::Entity<conformance::Bill> {
  static constexpr std::string_view type = "Bill";
  static constexpr std::string_view pk = "CLIENT#{client}";
  static constexpr std::string_view sk = "INVOICE#{number}";
};
template <>
struct pksk::Entity<conformance::StoredBill> {
  static constexpr std::string_view type = "Bill";
  static constexpr std::string_view pk = "CLIENT#{client}";
  static constexpr std::string_view sk = "INVOICE#{number}";
};
template <>
struct pksk::Entity<conformance::ClientNote> {
  static constexpr std::string_view type = "ClientNote";
  static constexpr std::string_view pk = "CLIENT#{client}";
  static constexpr std::string_view sk = "NOTE";
};
template <>
struct pksk::Entity<conformance::NullableProfile> {
  static constexpr std::string_view type = "Profile";
  static constexpr std::string_view pk = "PROBE#{id}";
  static constexpr std::string_view sk = "PROFILE";
  static constexpr bool empty_optional_as_null = true;
};
template <>
struct pksk::Entity<conformance::PlainProfile> {
  static constexpr std::string_view type = "Profile";
  static constexpr std::string_view pk = "PROBE#{id}";
  static constexpr std::string_view sk = "PROFILE";
};
template <>
struct pksk::Entity<conformance::ByteProbe> {
  static constexpr std::string_view type = "ByteProbe";
  static constexpr std::string_view pk = "PROBE#{id}";
  static constexpr std::string_view sk = "BYTES";
};
template <>
struct pksk::Entity<conformance::ValueProbe> {
  static constexpr std::string_view type = "ValueProbe";
  static constexpr std::string_view pk = "PROBE#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<conformance::ProbeNote> {
  static constexpr std::string_view type = "ProbeNote";
  static constexpr std::string_view pk = "PROBE#{id}";
  static constexpr std::string_view sk = "NOTE";
};
