// SPDX-License-Identifier: BSL-1.0
#pragma once
// Run-time formatting of one key component, with the rules that keep keys unforgeable: the
// cold path builds the KeyError message.

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "../../detail/iso8601.hpp"
#include "../../detail/utf8.hpp"
#include "../../error.hpp"
#include "../../reflect/enum_name.hpp"
#include "../limits.hpp"
#include "parse.hpp"

namespace pksk::detail {

// Run-time validation of a component (the cold path builds the message)

enum class ComponentError : unsigned char {
  none,
  empty,
  delimiter,
  next_literal,
  nul,
  invalid_utf8,
  unnamed_enum,
  absent,               // an empty optional member: the item has no key in that (sparse) index
  time_out_of_range,    // a time before year 0000 or after 9999: its text would not sort
  number_out_of_range,  // a number sort key above INT64_MAX
};

// A component must be non-empty: DynamoDB rejects an empty key attribute, and an empty
// component would let "A#{x}#{y}" with x="" collide with other shapes. It must not contain the
// delimiter, nor the first character of the literal that follows it in the template: that
// character is where a reader of the key finds the component's end, so a value holding it could
// forge another item's key. NUL and invalid UTF-8 are rejected because DynamoDB's string keys
// are UTF-8 and a NUL truncates keys in C APIs.
constexpr ComponentError check_component(std::string_view value, int next) noexcept {
  if (value.empty()) return ComponentError::empty;
  unsigned high = 0;  // any byte above ASCII: only then can the text be invalid UTF-8
  for (const char c : value) {
    if (c == '\0') return ComponentError::nul;
    if (c == key_delimiter) return ComponentError::delimiter;
    if (static_cast<unsigned char>(c) == next) return ComponentError::next_literal;
    high |= static_cast<unsigned char>(c);
  }
  if ((high & 0x80) != 0 && find_invalid_utf8(value) != std::string_view::npos)
    return ComponentError::invalid_utf8;
  return ComponentError::none;
}

struct ComponentContext {
  std::string_view entity;  // the entity's type discriminator
  std::string_view field;   // the member's name
  std::string_view key_template;
  KeyRole role;
  int next;  // the byte after the field in the template, or -1
};

[[noreturn]] inline void throw_key_error(const ComponentContext& ctx, std::string_view value,
                                         ComponentError error) {
  std::string msg = "pksk: invalid key field ";
  msg.append(ctx.entity).append(".").append(ctx.field).append(" = ");
  if (error == ComponentError::absent) {
    msg += "std::nullopt";
  } else {
    msg += '"';
    append_escaped(msg, value);
    msg += '"';
  }
  msg.append(" (").append(ctx.role == KeyRole::partition ? "partition" : "sort");
  msg.append(" key template \"").append(ctx.key_template).append("\"): ");
  switch (error) {
    case ComponentError::empty:
      msg += "a key field must not be empty";
      break;
    case ComponentError::delimiter:
      msg.append("contains '").append(1, key_delimiter).append("', the key delimiter");
      break;
    case ComponentError::next_literal:
      msg += "contains '";
      {
        const char c = static_cast<char>(ctx.next);
        append_escaped(msg, std::string_view(&c, 1));
      }
      msg += "', the character that follows the field in the key template";
      break;
    case ComponentError::nul:
      msg += "contains a NUL byte";
      break;
    case ComponentError::invalid_utf8:
      msg += "is not valid UTF-8 (at byte ";
      msg += std::to_string(find_invalid_utf8(value));
      msg += ')';
      break;
    case ComponentError::unnamed_enum:
      msg += "the enum value has no enumerator name";
      break;
    case ComponentError::time_out_of_range:
      msg += "a time in a key must be within the years 0000 to 9999";
      break;
    case ComponentError::number_out_of_range:
      msg += "a number sort key must be within the range of int64_t";
      break;
    case ComponentError::absent:
      msg += "the optional member is empty, so the item has no key in this index";
      break;
    case ComponentError::none:
      break;
  }
  throw KeyError(msg);
}

inline void append_checked(std::string& out, std::string_view value, const ComponentContext& ctx) {
  const ComponentError error = check_component(value, ctx.next);
  if (error != ComponentError::none) throw_key_error(ctx, value, error);
  out.append(value);
}

// DynamoDB's limit on a key attribute's value (../limits.hpp) for the key's role.
constexpr std::size_t max_key_size(KeyRole role) noexcept {
  return role == KeyRole::partition ? max_partition_key_size : max_sort_key_size;
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_key_too_long(std::string_view entity,
                                                                      std::string_view key_template,
                                                                      KeyRole role,
                                                                      std::size_t size) {
  std::string msg = "pksk: ";
  msg.append(entity).append("'s ").append(role == KeyRole::partition ? "partition" : "sort");
  msg.append(" key (template \"").append(key_template).append("\") is ");
  msg.append(std::to_string(size)).append(" bytes, over DynamoDB's limit of ");
  msg.append(std::to_string(max_key_size(role))).append(" bytes");
  throw KeyError(msg);
}

// Digits of the largest value of the unsigned type: 3, 5, 10, 20 for 8, 16, 32, 64 bits.
template <class U>
inline constexpr int sortable_width_v = std::numeric_limits<U>::digits10 + 1;

// Sort-key integers are fixed width so that byte order is numeric order; signed values are
// offset binary (value - min, which flips the sign bit) so that negatives sort first.
template <KeyInteger I>
void append_sortable_integer(std::string& out, I value) {
  using U = std::make_unsigned_t<I>;
  auto bits = static_cast<U>(value);
  if constexpr (std::is_signed_v<I>) {
    bits = static_cast<U>(bits ^ static_cast<U>(U{1} << (std::numeric_limits<U>::digits - 1)));
  }
  constexpr int width = sortable_width_v<U>;
  char buf[width];
  const auto end = std::to_chars(buf, buf + width, bits).ptr;
  out.append(static_cast<std::size_t>(width - (end - buf)), '0');
  out.append(buf, end);
}

// A time's ISO 8601 UTC text, checked to be within the years 0000 to 9999 (so that texts sort
// as the times do and a bucket is a prefix of it). With libstdc++'s nanosecond system_clock
// every time is (1677 to 2262); a clock of microseconds (libc++) reaches further.
inline std::string_view key_time_text(std::chrono::system_clock::time_point value, char* buf,
                                      const ComponentContext& ctx) {
  const std::string_view text = format_iso8601(value, buf);
  if (text.size() < 13 || text[4] != '-' || text[0] == '-' || text[0] == '+') [[unlikely]] {
    throw_key_error(ctx, text, ComponentError::time_out_of_range);
  }
  return text;
}

template <class F>
void append_component(std::string& out, const F& value, const ComponentContext& ctx) {
  if constexpr (KeyConverted<F>) {
    append_checked(out, pksk::Value<F>::to(value), ctx);
  } else if constexpr (KeyTime<F>) {
    char buf[kIso8601MaxSize];
    append_checked(out, key_time_text(value, buf, ctx), ctx);
  } else if constexpr (KeyString<F>) {
    append_checked(out, value, ctx);
  } else if constexpr (KeyInteger<F>) {
    if (ctx.role == KeyRole::sort) {
      // Fixed width: the component's end is known without looking for a delimiter.
      append_sortable_integer(out, value);
    } else {
      char buf[std::numeric_limits<F>::digits10 + 3];
      const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
      // Variable width: a following literal that starts with a digit or '-' must be checked.
      append_checked(out, std::string_view(buf, static_cast<std::size_t>(end - buf)), ctx);
    }
  } else {
    static_assert(KeyEnum<F>);
    const std::string_view name = enum_name(value);
    if (name.empty()) {
      char buf[std::numeric_limits<long long>::digits10 + 3];
      const auto end =
          std::to_chars(buf, buf + sizeof buf,
                        static_cast<long long>(static_cast<std::underlying_type_t<F>>(value)))
              .ptr;
      throw_key_error(ctx, std::string_view(buf, static_cast<std::size_t>(end - buf)),
                      ComponentError::unnamed_enum);
    }
    append_checked(out, name, ctx);
  }
}

// {seq:number}: the integer in decimal, as DynamoDB writes a number. Both backends keep it as a
// 64-bit signed integer (the SQLite backend's sort-key column is an INTEGER then), so an
// unsigned value above INT64_MAX is a KeyError rather than a key that would not sort.
template <class F>
void append_number(std::string& out, const F& value, const ComponentContext& ctx) {
  char buf[std::numeric_limits<F>::digits10 + 3];
  const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  const std::string_view text(buf, static_cast<std::size_t>(end - buf));
  if constexpr (std::is_unsigned_v<F> && sizeof(F) >= sizeof(std::int64_t)) {
    if (value > static_cast<F>(std::numeric_limits<std::int64_t>::max())) [[unlikely]]
      throw_key_error(ctx, text, ComponentError::number_out_of_range);
  }
  out.append(text);
}

// The digits of a shard number in a sort key: those of N - 1, so that shards sort numerically.
constexpr int shard_width(unsigned shards) noexcept {
  int width = 1;
  for (unsigned n = shards - 1; n >= 10; n /= 10) ++width;
  return width;
}

// The shard of a key text among `shards`: FNV-1a (64-bit) of its bytes, modulo shards. Fixed
// here for every platform and version of pksk: stored keys depend on it.
constexpr unsigned key_shard(std::string_view text, unsigned shards) noexcept {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return static_cast<unsigned>(hash % shards);
}

// {member:shard(N)}: the shard of the member's key text (checked as the member's own field).
template <class F>
void append_shard(std::string& out, const F& value, unsigned shards, const ComponentContext& ctx) {
  thread_local std::string text;
  text.clear();
  append_component(
      text, value,
      ComponentContext{ctx.entity, ctx.field, ctx.key_template, KeyRole::partition, -1});
  const unsigned shard = key_shard(text, shards);
  char buf[8];
  const auto end = std::to_chars(buf, buf + sizeof buf, shard).ptr;
  if (ctx.role == KeyRole::sort) {
    out.append(static_cast<std::size_t>(shard_width(shards) - (end - buf)), '0');
  }
  out.append(buf, end);
}

// {id:lower}, {id:upper}: the member's key text with its ASCII letters in that case, checked
// after the change (a lowercased value could otherwise take on the literal that ends it).
template <class F>
void append_cased(std::string& out, const F& value, bool upper, const ComponentContext& ctx) {
  thread_local std::string text;
  text.clear();
  if constexpr (KeyString<F>) {
    text.append(std::string_view(value));
  } else {
    static_assert(KeyEnum<F>);
    append_component(
        text, value,
        ComponentContext{ctx.entity, ctx.field, ctx.key_template, KeyRole::partition, -1});
  }
  for (char& c : text) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  append_checked(out, text, ctx);
}

// {at:year}, month, day, hour: the time's UTC text up to that unit.
inline void append_time_bucket(std::string& out, std::chrono::system_clock::time_point value,
                               KeySpec spec, const ComponentContext& ctx) {
  char buf[kIso8601MaxSize];
  const std::string_view text = key_time_text(value, buf, ctx);
  const std::size_t size = spec == KeySpec::year    ? 4
                           : spec == KeySpec::month ? 7
                           : spec == KeySpec::day   ? 10
                                                    : 13;
  append_checked(out, text.substr(0, size), ctx);
}

}  // namespace pksk::detail
