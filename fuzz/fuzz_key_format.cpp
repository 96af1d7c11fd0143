// SPDX-License-Identifier: BSL-1.0
// Fuzz target: key formatting and validation (pksk::format_partition_key, format_sort_key),
// with key fields taken from the input: strings (any bytes), integers of every width, an enum
// (named and unnamed values).
//
// - KeyError is the only acceptable failure; any other exception, a crash or UB is a finding.
// - A key that formats is valid UTF-8, holds no NUL and fits DynamoDB's size limits.
// - No collision: two records of one entity with different key fields have different
//   (pk, sk), equal key fields give equal keys, and records of two members of one
//   ItemCollection never share a (pk, sk).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include <fuzzer/FuzzedDataProvider.h>

#include <pksk/pksk.hpp>

#include "fuzz_entities.hpp"

namespace fuzz {

// Integers in a partition key (variable width) and in a sort key (fixed width), an enum, and
// string fields at both ends of a key.
struct Account {
  std::string tenant;
  std::int64_t shard{};
  Color kind{};
  std::string region;
  std::string payload;  // not a key field
};

struct Event {
  std::string tenant;
  std::int64_t shard{};
  std::int8_t i8{};
  std::uint8_t u8{};
  std::int16_t i16{};
  std::uint16_t u16{};
  std::int32_t i32{};
  std::uint32_t u32{};
  std::uint64_t u64{};
  std::string name;
};

// A field followed by a literal other than the delimiter ('-', ':'), and a signed integer in a
// partition key before such a literal.
struct Label {
  std::int32_t n{};
  std::string a;
  std::uint16_t version{};
  std::string b;
};

}  // namespace fuzz

template <>
struct pksk::Entity<fuzz::Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "T#{tenant}#{shard}";
  static constexpr std::string_view sk = "ACCOUNT#{kind}#{region}";
};

template <>
struct pksk::Entity<fuzz::Event> {
  static constexpr std::string_view type = "Event";
  static constexpr std::string_view pk = "T#{tenant}#{shard}";
  static constexpr std::string_view sk = "EV#{i8}.{u8}#{i16}_{u16}:{i32}.{u32}-{u64}#{name}";
};

template <>
struct pksk::Entity<fuzz::Label> {
  static constexpr std::string_view type = "Label";
  static constexpr std::string_view pk = "L:{n}-{a}";
  static constexpr std::string_view sk = "{b}:{version}";
};

namespace {

// Both members of one collection: the library proves at compile time that their keys cannot
// collide; the fuzzer checks it at run time.
[[maybe_unused]] constexpr bool collection_ok =
    pksk::detail::check_collection_members<fuzz::Account, fuzz::Event>();

std::string text(FuzzedDataProvider& in) {
  // Mostly short and printable, sometimes long enough to cross the key size limits.
  return in.ConsumeRandomLengthString(in.ConsumeBool() ? 3000 : 24);
}

template <class I>
I integer(FuzzedDataProvider& in) {
  return in.ConsumeIntegral<I>();
}

fuzz::Color color(FuzzedDataProvider& in) {
  // -1, 3 and 8 have no enumerator name: KeyError.
  return static_cast<fuzz::Color>(in.ConsumeIntegralInRange<int>(-1, 8));
}

fuzz::Account account(FuzzedDataProvider& in) {
  return {.tenant = text(in),
          .shard = integer<std::int64_t>(in),
          .kind = color(in),
          .region = text(in),
          .payload = text(in)};
}

fuzz::Event event(FuzzedDataProvider& in) {
  return {.tenant = text(in),
          .shard = integer<std::int64_t>(in),
          .i8 = integer<std::int8_t>(in),
          .u8 = integer<std::uint8_t>(in),
          .i16 = integer<std::int16_t>(in),
          .u16 = integer<std::uint16_t>(in),
          .i32 = integer<std::int32_t>(in),
          .u32 = integer<std::uint32_t>(in),
          .u64 = integer<std::uint64_t>(in),
          .name = text(in)};
}

fuzz::Label label(FuzzedDataProvider& in) {
  return {.n = integer<std::int32_t>(in),
          .a = text(in),
          .version = integer<std::uint16_t>(in),
          .b = text(in)};
}

auto key_fields(const fuzz::Account& r) {
  return std::tie(r.tenant, r.shard, r.kind, r.region);
}
auto key_fields(const fuzz::Event& r) {
  return std::tie(r.tenant, r.shard, r.i8, r.u8, r.i16, r.u16, r.i32, r.u32, r.u64, r.name);
}
auto key_fields(const fuzz::Label& r) {
  return std::tie(r.n, r.a, r.version, r.b);
}

using Key = std::pair<std::string, std::string>;

// The record's (pk, sk), or nullopt when a field cannot be part of a key (KeyError).
template <class T>
std::optional<Key> keys(const T& record) {
  Key key;
  try {
    pksk::format_partition_key(record, key.first);
    pksk::format_sort_key(record, key.second);
  } catch (const pksk::KeyError&) {
    return std::nullopt;
  }
  const auto valid = [](const std::string& k, std::size_t limit) {
    return !k.empty() && k.size() <= limit && k.find('\0') == std::string::npos &&
           pksk::detail::find_invalid_utf8(k) == std::string::npos;
  };
  if (!valid(key.first, pksk::max_partition_key_size)) fuzz::fail("invalid pk", key.first);
  if (!valid(key.second, pksk::max_sort_key_size)) fuzz::fail("invalid sk", key.second);
  return key;
}

template <class T>
void check_pair(const T& a, const T& b) {
  const std::optional<Key> ka = keys(a);
  const std::optional<Key> kb = keys(b);
  if (!ka || !kb) return;
  if ((key_fields(a) == key_fields(b)) != (*ka == *kb)) {
    fuzz::fail("two records collide, or equal records differ", ka->first + " " + ka->second);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: {
      const fuzz::Account a = account(in);
      check_pair(a, account(in));
      break;
    }
    case 1: {
      const fuzz::Event a = event(in);
      check_pair(a, event(in));
      break;
    }
    case 2: {
      const fuzz::Label a = label(in);
      check_pair(a, label(in));
      break;
    }
    default: {
      const fuzz::Account a = account(in);
      const fuzz::Event e = event(in);
      const std::optional<Key> ka = keys(a);
      const std::optional<Key> ke = keys(e);
      if (ka && ke && *ka == *ke) fuzz::fail("members of one collection collide", ka->second);
    }
  }
  return 0;
}
