// SPDX-License-Identifier: BSL-1.0
#pragma once
// Item text -> entity, in the two formats encode.hpp writes: one traversal straight from
// simdjson On-Demand into the struct, no DOM, a reused parser and padded buffer, keys matched
// against compile-time field names, strings assigned into the members' own storage. Over 600
// lines on purpose: the traversal is one piece that the optimiser inlines into itself (value,
// member, record, container), and it reads as one; the readers it is written against are
// detail/json_reader*.hpp, the per-thread decoder decoder_handle.hpp.

#include <bitset>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <simdjson.h>

#include "../detail/base64.hpp"
#include "../detail/json_key.hpp"
#include "../detail/padded_buffer.hpp"
#include "../detail/row_arena.hpp"
#include "../error.hpp"
#include "../reflect/reflect.hpp"
#include "body_format.hpp"
#include "decode_target.hpp"
#include "detail/json_path.hpp"
#include "detail/json_reader.hpp"
#include "detail/json_reader_attribute_value.hpp"
#include "encode.hpp"
#include "parsed_item.hpp"

namespace pksk {

namespace detail {

// ---------------------------------------------------------------------------------- decode
//
// The traversal below runs for every value of every item a query returns, so it is written
// for the optimiser: no path bookkeeping (see json_path.hpp), keys dispatched on their first
// character before any comparison, and every failure, message building included, in a cold
// function kept out of line. Everything between two records (a field, its value, the reader's
// call into simdjson) is always inlined, so that an entity decodes in a few functions, as a
// hand-written decoder does; decode_fields is left to the optimiser, which is what lets a
// record contain itself (a tree of vector<Node>) without inlining without end.

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_invalid_json(simdjson::error_code error) {
  throw_pathed("invalid JSON (" + std::string(simdjson::error_message(error)) + ")");
}

// A read failed: a type mismatch names what was expected and found; anything else is
// malformed input.
template <class Reader>
[[noreturn, gnu::cold, gnu::noinline]] void throw_read_error(std::string_view expected,
                                                             typename Reader::Value& value,
                                                             simdjson::error_code error) {
  if (error != simdjson::INCORRECT_TYPE && error != simdjson::NUMBER_OUT_OF_RANGE) {
    throw_invalid_json(error);
  }
  throw_pathed("expected " + std::string(expected) + ", found " + Reader::describe(value));
}

template <class T>
std::string integer_range_text() {
  return "an integer between " + std::to_string(std::numeric_limits<T>::min()) + " and " +
         std::to_string(std::numeric_limits<T>::max());
}

template <class E>
std::string enum_names_text() {
  std::string text = "one of";
  const char* separator = " ";
  for (const auto& entry : enum_entries_v<E>) {
    text += separator;
    text += entry.name;
    separator = ", ";
  }
  return text;
}

template <class Reader, class T>
[[gnu::always_inline]] inline void decode_value(typename Reader::Value& value, T& out);

// What decode_value<T> reads, for Reader::open.
template <class T>
consteval ValueKind value_kind() {
  if constexpr (ValueConverter<T>) {
    return value_kind<value_stored_t<T>>();
  } else if constexpr (ValueSpecialised<T>) {
    return ValueKind::any;
  } else if constexpr (std::is_same_v<T, std::string> || std::is_enum_v<T> ||
                       std::is_same_v<T, TimePoint>) {
    return ValueKind::string;
  } else if constexpr (std::is_same_v<T, bool>) {
    return ValueKind::boolean;
  } else if constexpr (CodecInteger<T> || std::is_floating_point_v<T>) {
    return ValueKind::number;
  } else if constexpr (is_optional_v<T>) {
    return value_kind<typename T::value_type>();  // null is the exception: omitted in fields
  } else if constexpr (is_binary_v<T>) {
    return ValueKind::binary;
  } else if constexpr (is_vector_v<T>) {
    return ValueKind::list;
  } else if constexpr (is_string_set_v<T>) {
    return ValueKind::string_set;
  } else if constexpr (is_number_set_v<T>) {
    return ValueKind::number_set;
  } else if constexpr (is_binary_set_v<T>) {
    return ValueKind::binary_set;
  } else if constexpr (is_string_map_v<T> || CodecRecord<T>) {
    return ValueKind::object;
  } else {
    return ValueKind::any;
  }
}

// A compressed member (compressed.hpp): a binary value holding one zstd frame, decompressed
// into the member's own storage. Kept out of line: it is rare, and large next to a field.
template <class Reader, class M>
[[gnu::noinline]] void decode_compressed(ondemand::value raw, M& out) {
  typename Reader::Value value;
  if (auto error = Reader::template open<ValueKind::binary>(raw, value)) [[unlikely]] {
    throw_read_error<Reader>("an AttributeValue", value, error);
  }
  if constexpr (is_optional_v<M>) {
    if (Reader::is_null(value)) {
      out.reset();
      return;
    }
  }
  std::string_view text;
  if (auto error = Reader::get_binary(value, text)) [[unlikely]] {
    throw_read_error<Reader>("a binary value (a compressed member)", value, error);
  }
  std::string& frame = stored_frame_buffer();
  if (!decode_base64(text, frame)) [[unlikely]]
    throw_pathed("invalid base64 in a binary value");
  if constexpr (is_optional_v<M>) {
    if (!out) out.emplace();
    zstd_decompress(frame, *out);
  } else {
    zstd_decompress(frame, out);
  }
}

// Whether a blob member's value (blob_member.hpp) is a reference to an object rather than the
// value inline: a map, where the value is a string or a binary value ({"":"<base64>"} in the
// body, which pksk writes without spaces).
template <class Reader>
bool holds_blob_ref(typename Reader::Value& value) {
  if constexpr (std::is_same_v<Reader, AttributeValueReader>) {
    return value.tag == AttributeTag::M;
  } else {
    // The token of an object is its brace alone; the text after it is readable up to the
    // closing brace, and a '"' there opens a key, readable up to its closing quote.
    const char* text = value.raw_json_token().data();
    if (*text != '{') return false;
    ++text;
    while (*text == ' ' || *text == '\n' || *text == '\t' || *text == '\r') ++text;
    return !(text[0] == '"' && text[1] == '"');
  }
}

// A blob member: inline, or fetched from the table's blob store (BlobReads) by its reference.
template <class Reader, class M>
[[gnu::noinline]] void decode_blob_member(ondemand::value raw, M& out, std::string_view member) {
  typename Reader::Value value;
  if (auto error = Reader::template open<ValueKind::any>(raw, value)) [[unlikely]] {
    throw_read_error<Reader>("an AttributeValue", value, error);
  }
  if constexpr (is_optional_v<M>) {
    if (Reader::is_null(value)) {
      out.reset();
      return;
    }
  }
  auto& target = [&]() -> auto& {
    if constexpr (is_optional_v<M>) {
      if (!out) out.emplace();
      return *out;
    } else {
      return out;
    }
  }();
  if (!holds_blob_ref<Reader>(value)) {
    decode_value<Reader>(value, target);
    return;
  }
  BlobRef ref;
  decode_value<Reader>(value, ref);
  const BlobReads* reads = blob_reads;
  if (reads == nullptr) [[unlikely]]
    throw_pathed("a blob member's reference, read where no table says which blob store holds it");
  if (reads->keys != nullptr) reads->keys->push_back(ref.blob);
  if (!reads->fetch) {
    target = {};
    return;
  }
  std::string bytes = fetch_blob(*reads, ref, member);
  using Target = std::remove_cvref_t<decltype(target)>;
  if constexpr (std::is_same_v<Target, std::string>) {
    target = std::move(bytes);  // a blob is large: not copied again
  } else {
    const auto* data = reinterpret_cast<const typename Target::value_type*>(bytes.data());
    target.assign(data, data + bytes.size());
  }
}

// A ttl member (ttl.hpp): epoch seconds, as a number.
template <class Reader, class M>
[[gnu::noinline]] void decode_ttl(ondemand::value raw, M& out) {
  using Seconds = std::conditional_t<is_optional_v<M>, std::optional<std::int64_t>, std::int64_t>;
  typename Reader::Value value;
  if (auto error = Reader::template open<value_kind<Seconds>()>(raw, value)) [[unlikely]] {
    throw_read_error<Reader>("an AttributeValue", value, error);
  }
  Seconds seconds{};
  decode_value<Reader>(value, seconds);
  if constexpr (is_optional_v<M>) {
    if (seconds) {
      out = from_epoch_seconds(*seconds);
    } else {
      out.reset();
    }
  } else {
    out = from_epoch_seconds(seconds);
  }
}

template <class Reader, class T, std::size_t I>
[[gnu::always_inline]] inline void decode_field(ondemand::value raw, T& out) {
  using Field = std::remove_cvref_t<decltype(get_field<I>(out))>;
  if constexpr (is_ttl_field_v<T, I>) {
    try {
      decode_ttl<Reader>(raw, get_field<I>(out));
    } catch (PathedFailure& failure) {
      failure.prepend_member(stored_names_v<T>[I]);
      throw;
    }
  } else if constexpr (blob_field_v<T, I>) {
    try {
      decode_blob_member<Reader>(raw, get_field<I>(out), stored_names_v<T>[I]);
    } catch (PathedFailure& failure) {
      failure.prepend_member(stored_names_v<T>[I]);
      throw;
    }
  } else if constexpr (compresses_field_v<T, I>) {
    try {
      decode_compressed<Reader>(raw, get_field<I>(out));
    } catch (PathedFailure& failure) {
      failure.prepend_member(stored_names_v<T>[I]);
      throw;
    }
  } else if constexpr (storable<Field>()) {  // else MembersStorable has reported it
    try {
      typename Reader::Value value;
      if (auto error = Reader::template open<value_kind<Field>()>(raw, value)) [[unlikely]] {
        throw_read_error<Reader>("an AttributeValue", value, error);
      }
      decode_value<Reader>(value, get_field<I>(out));
    } catch (PathedFailure& failure) {
      failure.prepend_member(stored_names_v<T>[I]);
      throw;
    }
  }
}

// Whether member I's stored name is printable ASCII with nothing to escape, as every C++ name
// is: such a name is compared with a key's raw bytes, any other with the key unescaped.
template <class T, std::size_t I>
inline constexpr bool plain_stored_name_v = is_plain_json_name(stored_names_v<T>[I]);

// Whether an object's key (its first byte given) is member I's stored name.
template <class T, std::size_t I>
[[gnu::always_inline]] inline bool key_names_member(const ondemand::raw_json_string& key,
                                                    char first) {
  constexpr std::string_view name = stored_names_v<T>[I];
  if constexpr (plain_stored_name_v<T, I>) {
    // What simdjson's unsafe_is_equal does (the key is quote-terminated), byte by byte against
    // the constant name rather than with memcmp: g++ 12 at -O1 takes the key for a one-byte
    // array there and warns -Wstringop-overread (a false positive, in every program that reads
    // an entity); at -O2 both compile to the same few compares.
    const char* raw = key.raw();
    if (first != name[0] || raw[name.size()] != '"') return false;
    for (std::size_t i = 1; i < name.size(); ++i) {
      if (raw[i] != name[i]) return false;
    }
    return true;
  } else {
    return raw_json_key_equals(key.raw(), name);
  }
}

// One member of T's object, dispatched on its key: a comparison of the key's first character
// against each name's (a constant, so a compare-and-branch each) picks the candidates, and
// only those are compared whole. An unknown key matches nothing and is left for On-Demand to
// skip.
template <class Reader, class T, std::size_t... I>
[[gnu::always_inline]] inline void decode_member(ondemand::field& field, T& out,
                                                 std::bitset<sizeof...(I)>& seen,
                                                 std::index_sequence<I...>) {
  const ondemand::raw_json_string key = field.key();
  // A key is quoted in the input, so its first byte is readable even when it is "".
  const char first = *key.raw();
  (void)((key_names_member<T, I>(key, first) &&
          (decode_field<Reader, T, I>(field.value(), out), seen.set(I), true)) ||
         ...);
}

// The same, for a member whose key and value another pass hands over (BodyPatch::parse_reading).
template <class Reader, class T, std::size_t... I>
[[gnu::always_inline]] inline void decode_keyed_member(ondemand::raw_json_string key,
                                                       ondemand::value& value, T& out,
                                                       std::bitset<sizeof...(I)>& seen,
                                                       std::index_sequence<I...>) {
  const char first = *key.raw();
  (void)((key_names_member<T, I>(key, first) &&
          (decode_field<Reader, T, I>(value, out), seen.set(I), true)) ||
         ...);
}

// A value that holds no record: what decodes it cannot recurse, so inlining it ends.
template <class T>
consteval bool holds_no_record() {
  if constexpr (!std::is_void_v<held_t<T>>) {
    return holds_no_record<held_t<T>>();
  } else {
    return !CodecRecord<T>;
  }
}

// A record whose members are all scalars, strings and lists of them (an order's line item):
// decoded inside its parent's decoder, as a hand-written decoder does, saving a call and the
// object's setup per element. Records that hold records keep their own function, which is what
// lets a record contain itself (a tree of vector<Node>) without inlining without end.
template <class T>
inline constexpr bool is_leaf_record_v = [] {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return (holds_no_record<field_type_t<T, I>>() && ...);
  }(std::make_index_sequence<field_count_v<T>>{});
}();

// Fields in document order, each dispatched on its key (decode_member). Fields that did not
// appear get their default value back, so a reused struct never keeps a previous item's value
// and old bodies decode into newer structs; a fresh one has them already (an optional member
// most items lack cost a copy from the default record per item). Returns which fields
// appeared: an entity's key member that did not is read back from the item's key
// (key/read_back.hpp).
template <class Reader, class T>
[[gnu::always_inline]] inline std::bitset<field_count_v<T>> decode_fields_inline(
    ondemand::object& object, T& out, DecodeTarget target = DecodeTarget::reused) {
  static_assert(checked_v<MembersStorable<T>>);
  if constexpr (has_compressed_v<T>) static_assert(checked_v<CompressedCheck<T>>);
  if constexpr (has_ttl_v<T>) static_assert(checked_v<TtlCheck<T>>);
  if constexpr (has_blob_members_v<T>) static_assert(checked_v<BlobCheck<T>>);
  constexpr std::size_t count = field_count_v<T>;
  std::bitset<count> seen;
  for (auto member : object) {
    if (auto error = member.error()) [[unlikely]] {
      throw_invalid_json(error);
    }
    // The field is used where it lies in `member`: copying it out (get) made g++ 12 move its
    // iterator with vector loads right after the scalar stores that built it, a
    // store-forwarding stall for every member.
    ondemand::field&& field = std::move(member).value_unsafe();
    decode_member<Reader>(field, out, seen, std::make_index_sequence<count>{});
  }
  if (target == DecodeTarget::reused && !seen.all()) [[unlikely]] {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((seen.test(I) ? void() : void(get_field<I>(out) = get_field<I>(default_record<T>()))), ...);
    }(std::make_index_sequence<count>{});
  }
  return seen;
}

template <class Reader, class T>
std::bitset<field_count_v<T>> decode_fields(ondemand::object& object, T& out,
                                            DecodeTarget target = DecodeTarget::reused) {
  return decode_fields_inline<Reader>(object, out, target);
}

// A projection: only the wanted fields are decoded, the others take their default value, and
// the object is left as soon as every wanted field has been read.
template <class Reader, class T, std::size_t... I>
[[gnu::always_inline]] inline void decode_member_selected(ondemand::field& field, T& out,
                                                          std::bitset<sizeof...(I)>& seen,
                                                          const std::bitset<sizeof...(I)>& wanted,
                                                          std::index_sequence<I...>) {
  const ondemand::raw_json_string key = field.key();
  const char first = *key.raw();
  (void)((wanted.test(I) && key_names_member<T, I>(key, first) &&
          (decode_field<Reader, T, I>(field.value(), out), seen.set(I), true)) ||
         ...);
}

template <class Reader, class T>
std::bitset<field_count_v<T>> decode_fields_selected(ondemand::object& object, T& out,
                                                     const std::bitset<field_count_v<T>>& wanted) {
  static_assert(checked_v<MembersStorable<T>>);
  constexpr std::size_t count = field_count_v<T>;
  std::bitset<count> seen;
  if (wanted.any()) {
    for (auto member : object) {
      if (auto error = member.error()) [[unlikely]] {
        throw_invalid_json(error);
      }
      ondemand::field&& field = std::move(member).value_unsafe();  // not copied: decode_fields
      decode_member_selected<Reader>(field, out, seen, wanted, std::make_index_sequence<count>{});
      if (seen == wanted) break;
    }
  }
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((seen.test(I) ? void() : void(get_field<I>(out) = get_field<I>(default_record<T>()))), ...);
  }(std::make_index_sequence<count>{});
  return seen;
}

// simdjson reports an integer beyond 64 bits as INCORRECT_TYPE, like 1.5; the message tells
// them apart by the number's text.
template <class Reader, class T>
[[noreturn, gnu::cold, gnu::noinline]] void throw_integer_error(typename Reader::Value& value,
                                                                simdjson::error_code error) {
  std::string_view text = Reader::number_text(value);
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  const bool integral = !text.empty() && text.find_first_not_of("0123456789") == text.npos;
  throw_read_error<Reader>(
      error == simdjson::NUMBER_OUT_OF_RANGE || integral ? integer_range_text<T>() : "an integer",
      value, integral ? simdjson::NUMBER_OUT_OF_RANGE : error);
}

template <class T>
[[noreturn, gnu::cold, gnu::noinline]] void throw_integer_range_error(std::int64_t n) {
  throw_pathed("expected " + integer_range_text<T>() + ", found the number " + std::to_string(n));
}

template <class Reader, class T>
[[gnu::always_inline]] inline void decode_integer(typename Reader::Value& value, T& out) {
  if constexpr (std::is_unsigned_v<T> && sizeof(T) == sizeof(std::uint64_t)) {
    std::uint64_t n;
    if (auto error = Reader::get_uint64(value, n)) [[unlikely]] {
      throw_integer_error<Reader, T>(value, error);
    }
    out = static_cast<T>(n);
  } else {
    std::int64_t n;
    if (auto error = Reader::get_int64(value, n)) [[unlikely]] {
      throw_integer_error<Reader, T>(value, error);
    }
    if constexpr (!std::is_same_v<T, std::int64_t> && sizeof(T) <= sizeof(std::int64_t)) {
      if (n < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
          (sizeof(T) < sizeof(std::int64_t) &&
           n > static_cast<std::int64_t>(std::numeric_limits<T>::max()))) [[unlikely]] {
        throw_integer_range_error<T>(n);
      }
    }
    out = static_cast<T>(n);
  }
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_floating_error(double d, bool is_float) {
  if (is_float && std::isfinite(d)) {
    throw_pathed("expected a number in the range of float, found the number " + std::to_string(d));
  }
  throw_pathed("expected a finite number, found " + std::to_string(d));
}

template <class Reader, class E>
[[noreturn, gnu::cold, gnu::noinline]] void throw_enum_read_error(typename Reader::Value& value,
                                                                  simdjson::error_code error) {
  throw_read_error<Reader>("an enumerator name (" + enum_names_text<E>() + ")", value, error);
}

template <class E>
[[noreturn, gnu::cold, gnu::noinline]] void throw_enum_name_error(std::string_view name) {
  throw_pathed("expected " + enum_names_text<E>() + ", found \"" + std::string(name) + "\"");
}

// How deep in the document a list, map, set or record may sit (the item itself is level 1).
// simdjson On-Demand enforces no depth limit of its own: its max_depth (1024) only exists in
// builds with SIMDJSON_DEVELOPMENT_CHECKS (those without NDEBUG), where it is an assertion,
// an abort. And decoding a record type that contains itself (a tree of vector<Node>) recurses
// once per level: a body nested 100,000 deep overflowed the stack. Checking before every
// container is opened bounds both; the margin below 1024 leaves room for the AttributeValue
// wrapper around a value. DynamoDB itself allows 32 levels.
inline constexpr std::int32_t max_decode_depth = 1000;
inline constexpr std::int32_t max_counted_depth = 32;

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_depth_error() {
  throw_pathed("nested deeper than " + std::to_string(max_decode_depth) + " levels");
}

template <class Reader>
[[gnu::always_inline]] inline void check_depth(const typename Reader::Value& value) {
  if (Reader::depth(value) > max_decode_depth) [[unlikely]]
    throw_depth_error();
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_timestamp_error(std::string_view text) {
  throw_pathed(
      "expected an ISO 8601 timestamp such as \"2024-02-29T23:59:58.123456789Z\" (at most " +
      std::to_string(kTimeFractionDigits) +
      " fraction digits, ending in Z or an offset such as +02:00), found \"" + std::string(text) +
      "\"");
}

// `out = s` for a string read from a body, by the cheapest of libstdc++'s paths: assign() goes
// through _M_replace, which allows for `s` aliasing `out`, and when `out` must grow, _M_mutate,
// which copies the old contents it then discards. `s` lies in the parser's buffer, never in
// `out`: a string that must grow is built anew and moved in (one allocation, one copy), and one
// that fits is cleared and appended to.
[[gnu::always_inline]] inline void assign_text(std::string& out, std::string_view s) {
  if (s.size() > out.capacity()) {
    out = std::string(s);
  } else {
    out.clear();
    out.append(s);
  }
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_conversion_error(const char* what) {
  throw_pathed(std::string("Value<T>::from refused the stored value: ") + what);
}

// A member of a type with a Value specialisation (value.hpp): its stored type decoded as any
// member of that type is, then converted. A string is decoded into a buffer of the thread's, so
// that its capacity is reused from item to item (the stored string cannot hold a converted
// member, so no decode below reenters it); any other stored type is a local.
template <class Reader, class T>
[[gnu::always_inline]] inline void decode_converted(typename Reader::Value& value, T& out) {
  using Stored = value_stored_t<T>;
  const auto convert = [&](const Stored& stored) {
    try {
      out = pksk::Value<T>::from(stored);
    } catch (const std::exception& e) {
      throw_conversion_error(e.what());
    }
  };
  if constexpr (std::is_same_v<Stored, std::string>) {
    static thread_local std::string stored;
    decode_value<Reader>(value, stored);
    convert(stored);
  } else {
    Stored stored{};
    decode_value<Reader>(value, stored);
    convert(stored);
  }
}

// A number set (std::set<double> or <std::int64_t>) or a binary set
// (std::set<std::vector<std::byte>>). Out of line: rare next to a field.
template <class Reader, class T>
[[gnu::noinline]] void decode_typed_set(typename Reader::Value& value, T& out) {
  constexpr bool numbers = is_number_set_v<T>;
  check_depth<Reader>(value);
  ondemand::array array;
  const simdjson::error_code error =
      numbers ? Reader::get_number_set(value, array) : Reader::get_binary_set(value, array);
  if (error) [[unlikely]] {
    throw_read_error<Reader>(numbers ? "a number set" : "a binary set", value, error);
  }
  out.clear();
  std::size_t i = 0;
  for (auto element : array) {
    at_index(i++, [&] {
      ondemand::value raw;
      if (auto e = std::move(element).get(raw)) [[unlikely]] {
        throw_invalid_json(e);
      }
      typename T::value_type member{};
      if constexpr (numbers) {
        if (auto e = Reader::number_set_element(raw, member)) [[unlikely]] {
          throw_pathed(std::is_integral_v<typename T::value_type>
                           ? "expected an integer between -2^63 and 2^63-1 in a number set"
                           : "expected a number in a number set");
        }
      } else {
        std::string_view text;
        if (auto e = raw.get_string().get(text)) [[unlikely]] {
          throw_read_error<BodyReader>("a base64 string", raw, e);
        }
        if (!decode_base64(text, member)) [[unlikely]]
          throw_pathed("invalid base64 in a binary set");
      }
      out.insert(out.end(), std::move(member));
    });
  }
}

template <class Reader, class T>
[[gnu::always_inline]] inline void decode_value(typename Reader::Value& value, T& out) {
  using Value = typename Reader::Value;
  if constexpr (ValueSpecialised<T>) {
    if constexpr (value_converter_v<T>) decode_converted<Reader>(value, out);
  } else if constexpr (std::is_same_v<T, std::string>) {
    std::string_view s;
    if (auto error = Reader::get_string(value, s)) [[unlikely]] {
      throw_read_error<Reader>("a string", value, error);
    }
    assign_text(out, s);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (auto error = Reader::get_bool(value, out)) [[unlikely]] {
      throw_read_error<Reader>("a boolean", value, error);
    }
  } else if constexpr (CodecInteger<T>) {
    decode_integer<Reader>(value, out);
  } else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    double d;
    if (auto error = Reader::get_double(value, d)) [[unlikely]] {
      throw_read_error<Reader>("a number", value, error);
    }
    // Beyond float's max() by less than half an ulp still rounds to max(): the shortest text
    // of max() reads back as a double slightly above it.
    constexpr double limit =
        std::is_same_v<T, float> ? 0x1.ffffffp+127 : std::numeric_limits<double>::infinity();
    // One comparison rejects infinities, NaN (every comparison with it is false) and, for
    // float, what float cannot hold.
    if (!(std::abs(d) < limit)) [[unlikely]] {
      throw_floating_error(d, std::is_same_v<T, float>);
    }
    out = static_cast<T>(d);
  } else if constexpr (std::is_enum_v<T>) {
    std::string_view s;
    if (auto error = Reader::get_string(value, s)) [[unlikely]] {
      throw_enum_read_error<Reader, T>(value, error);
    }
    const std::optional<T> e = enum_from_name<T>(s);
    if (!e) [[unlikely]]
      throw_enum_name_error<T>(s);
    out = *e;
  } else if constexpr (std::is_same_v<T, TimePoint>) {
    std::string_view s;
    if (auto error = Reader::get_string(value, s)) [[unlikely]] {
      throw_read_error<Reader>("an ISO 8601 timestamp", value, error);
    }
    if (!parse_iso8601(s, out, Iso8601Offset::allowed)) [[unlikely]]
      throw_timestamp_error(s);
  } else if constexpr (is_optional_v<T>) {
    if (Reader::is_null(value)) {
      out.reset();
    } else {
      if (!out) out.emplace();
      decode_value<Reader>(value, *out);
    }
  } else if constexpr (is_binary_v<T>) {
    std::string_view text;
    if (auto error = Reader::get_binary(value, text)) [[unlikely]] {
      throw_read_error<Reader>("a binary value", value, error);
    }
    if (!decode_base64(text, out)) [[unlikely]]
      throw_pathed("invalid base64 in a binary value");
  } else if constexpr (is_vector_v<T>) {
    check_depth<Reader>(value);
    ondemand::array array;
    if (auto error = Reader::get_list(value, array)) [[unlikely]] {
      throw_read_error<Reader>("an array", value, error);
    }
    // One allocation for the elements, not one per doubling: counting is a walk over
    // structural indexes simdjson already has, far cheaper than a malloc. It also checks the
    // array's structure, so it runs whatever the vector's capacity: skipped for a reused
    // vector, a malformed element of an unknown member went unnoticed there and the same
    // bytes decoded or failed depending on the struct (a fuzzing finding). Counting walks the
    // whole subtree, so it is limited to the depths DynamoDB can store (32): counting at every
    // level of a body nested 100,000 deep walked it once per level, quadratic time.
    if (Reader::depth(value) <= max_counted_depth) {
      std::size_t count = 0;
      if (auto error = array.count_elements().get(count)) [[unlikely]] {
        throw_invalid_json(error);
      }
      out.reserve(count);
    }
    // Elements already there are decoded over in place, so a reused struct keeps not only the
    // vector's capacity but its elements' strings too.
    const std::size_t reused = out.size();
    std::size_t i = 0;
    for (auto element : array) {
      try {
        ondemand::value raw;
        if (auto error = std::move(element).get(raw)) [[unlikely]] {
          throw_invalid_json(error);
        }
        Value item;
        if (auto error = Reader::template open<value_kind<typename T::value_type>()>(raw, item))
            [[unlikely]] {
          throw_read_error<Reader>("an AttributeValue", item, error);
        }
        if constexpr (std::is_same_v<typename T::value_type, bool>) {
          bool b;
          decode_value<Reader>(item, b);
          if (i < reused) {
            out[i] = b;
          } else {
            out.push_back(b);
          }
        } else {
          decode_value<Reader>(item, i < reused ? out[i] : out.emplace_back());
        }
      } catch (PathedFailure& failure) {
        failure.prepend_index(i);
        throw;
      }
      ++i;
    }
    if (i < reused) out.erase(out.begin() + static_cast<std::ptrdiff_t>(i), out.end());
  } else if constexpr (is_string_map_v<T>) {
    check_depth<Reader>(value);
    ondemand::object object;
    if (auto error = Reader::get_map(value, object)) [[unlikely]] {
      throw_read_error<Reader>("an object", value, error);
    }
    out.clear();
    for (auto member : object) {
      ondemand::field field;
      std::string_view key;
      if (auto error = std::move(member).get(field)) [[unlikely]] {
        throw_invalid_json(error);
      }
      if (auto error = field.unescaped_key().get(key)) [[unlikely]] {
        throw_invalid_json(error);
      }
      auto& entry = out[std::string(key)];
      at_member(key, [&] {
        Value item;
        if (auto error = Reader::template open<value_kind<typename T::mapped_type>()>(
                field.value(), item)) [[unlikely]] {
          throw_read_error<Reader>("an AttributeValue", item, error);
        }
        decode_value<Reader>(item, entry);
      });
    }
  } else if constexpr (is_string_set_v<T>) {
    check_depth<Reader>(value);
    ondemand::array array;
    if (auto error = Reader::get_string_set(value, array)) [[unlikely]] {
      // A list of strings (DynamoDB's L) where a set is expected: what a copy of an SQLite
      // file, whose bodies keep a string set as a JSON array, writes to DynamoDB.
      if (Reader::get_list(value, array) != simdjson::SUCCESS)
        throw_read_error<Reader>("an array of strings", value, error);
      out.clear();
      std::size_t i = 0;
      for (auto element : array) {
        at_index(i++, [&] {
          ondemand::value raw;
          if (auto e = std::move(element).get(raw)) [[unlikely]] {
            throw_invalid_json(e);
          }
          Value item;
          if (auto e = Reader::template open<value_kind<std::string>()>(raw, item)) [[unlikely]] {
            throw_read_error<Reader>("a string", item, e);
          }
          std::string text;
          decode_value<Reader>(item, text);
          out.insert(std::move(text));
        });
      }
      return;
    }
    out.clear();
    std::size_t i = 0;
    for (auto element : array) {
      at_index(i++, [&] {
        ondemand::value raw;
        std::string_view s;
        if (auto error = std::move(element).get(raw)) [[unlikely]] {
          throw_invalid_json(error);
        }
        if (auto error = raw.get_string().get(s)) [[unlikely]] {
          throw_read_error<BodyReader>("a string", raw, error);
        }
        out.emplace_hint(out.end(), s);
      });
    }
  } else if constexpr (is_number_set_v<T> || is_binary_set_v<T>) {
    decode_typed_set<Reader>(value, out);
  } else if constexpr (CodecRecord<T>) {
    check_depth<Reader>(value);
    ondemand::object object;
    if (auto error = Reader::get_record(value, object)) [[unlikely]] {
      throw_read_error<Reader>("an object", value, error);
    }
    if constexpr (is_leaf_record_v<T>) {
      (void)decode_fields_inline<Reader>(object, out);
    } else {
      (void)decode_fields<Reader>(object, out);
    }
  } else {
    (void)value_storable_v<T>;
  }
}

// A ParsedItem holds a simdjson On-Demand object; these are the only casts of it.
inline std::string_view parsed_item_json(void* object) {
  std::string_view text;
  if (auto error = static_cast<simdjson::ondemand::object*>(object)->raw_json().get(text))
      [[unlikely]] {
    throw DecodeError("pksk: an item that is not JSON (" +
                      std::string(simdjson::error_message(error)) + ")");
  }
  return text;
}
inline ParsedItem parsed_item(simdjson::ondemand::object& object) noexcept {
  return ParsedItem(&object, &parsed_item_json);
}
inline simdjson::ondemand::object* ondemand_object(ParsedItem item) noexcept {
  return static_cast<simdjson::ondemand::object*>(item.get());
}

}  // namespace detail

// Decodes item text into structs. Keep one per thread and reuse it: it owns a simdjson parser
// and a padded input buffer, both grown to the largest item seen and then never reallocated.
class BodyDecoder {
 public:
  // Decodes a JSON body (as encode_body writes it) into out. Unknown members are ignored and
  // missing ones take their default value. Throws DecodeError naming the JSON path.
  // Throws: DecodeError naming the JSON path of what does not decode.
  // Exception safety: basic: on a DecodeError, out holds the fields decoded before it.
  template <Reflectable T>
  void decode(std::string_view json, T& out) {
    decode_item<detail::BodyReader>(json, out);
  }

  // Decodes a body of the given format into out; returns which of T's fields the body had.
  // Throws: DecodeError naming the JSON path of what does not decode.
  // Exception safety: basic: on a DecodeError, out holds the fields decoded before it.
  template <BodyFormat Format, Reflectable T>
  std::bitset<field_count_v<T>> decode(std::string_view text, T& out,
                                       DecodeTarget target = DecodeTarget::reused) {
    if constexpr (Format == BodyFormat::json) {
      return decode_item<detail::BodyReader>(text, out, target);
    } else {
      return decode_item<detail::AttributeValueReader>(text, out, target);
    }
  }

  // Decodes only the fields of T set in `wanted` (a projection); the others take their default
  // values. The body is read only as far as the last wanted field.
  // Throws: DecodeError naming the JSON path of what does not decode.
  // Exception safety: basic: on a DecodeError, out holds the fields decoded before it.
  template <BodyFormat Format, Reflectable T>
  std::bitset<field_count_v<T>> decode_selected(std::string_view text, T& out,
                                                const std::bitset<field_count_v<T>>& wanted) {
    if constexpr (Format == BodyFormat::json) {
      return decode_item_selected<detail::BodyReader>(text, out, wanted);
    } else {
      return decode_item_selected<detail::AttributeValueReader>(text, out, wanted);
    }
  }

  // Decodes an item that is already open in a document the caller iterates (an item of a
  // DynamoDB answer), where it lies: no copy, no second parse. `object` must be at its start;
  // `text` (its raw JSON) is decoded instead when `object` is null.
  // Throws: DecodeError naming the JSON path of what does not decode.
  // Exception safety: basic: on a DecodeError, out holds the fields decoded before it.
  template <BodyFormat Format, Reflectable T>
  std::bitset<field_count_v<T>> decode(ParsedItem object, std::string_view text, T& out,
                                       DecodeTarget target = DecodeTarget::reused) {
    if (!object) return decode<Format>(text, out, target);
    try {
      return detail::decode_fields<reader_of<Format>>(*detail::ondemand_object(object), out,
                                                      target);
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }
  // As decode_selected, on an item already open in a document (see decode of a ParsedItem).
  // Throws: DecodeError naming the JSON path of what does not decode.
  // Exception safety: basic: on a DecodeError, out holds the fields decoded before it.
  template <BodyFormat Format, Reflectable T>
  std::bitset<field_count_v<T>> decode_selected(ParsedItem object, std::string_view text, T& out,
                                                const std::bitset<field_count_v<T>>& wanted) {
    if (!object) return decode_selected<Format>(text, out, wanted);
    try {
      return detail::decode_fields_selected<reader_of<Format>>(*detail::ondemand_object(object),
                                                               out, wanted);
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }

  // Decodes an AttributeValue map (as encode_attribute_values writes it, or as DynamoDB
  // returns an item) into out.
  // Throws: DecodeError naming the JSON path of what does not decode.
  // Exception safety: basic: on a DecodeError, out holds the fields decoded before it.
  template <Reflectable T>
  void decode_attribute_values(std::string_view json, T& out) {
    decode_item<detail::AttributeValueReader>(json, out);
  }

 private:
  template <BodyFormat Format>
  using reader_of = std::conditional_t<Format == BodyFormat::json, detail::BodyReader,
                                       detail::AttributeValueReader>;

  // A document that answers inline whether the input ends where its iterator stands: the
  // public way, current_location(), is an out-of-line call per item (22 instructions an item in
  // the collection benchmark). `iter` is the document's own iterator, protected,
  // not private, in simdjson 3.
  class Document : public simdjson::ondemand::document {
   public:
    [[gnu::always_inline]] bool consumed() const noexcept {
      return iter.is_alive() && iter.at_end();
    }
  };

  // The item's JSON object, iterated from the padded buffer; document lives in the caller.
  [[gnu::always_inline]] simdjson::ondemand::object open_object(
      std::string_view json, simdjson::ondemand::document& document) {
    // A body a backend copied into the thread's row arena is padded where it lies.
    const bool in_arena = detail::RowArena::thread_arena().holds(json);
    const std::string_view padded = in_arena ? json : buffer_.assign(json);
    const std::size_t capacity =
        in_arena ? json.size() + simdjson::SIMDJSON_PADDING : buffer_.padded_capacity();
    if (auto error = parser_.iterate(padded.data(), padded.size(), capacity).get(document))
        [[unlikely]] {
      detail::throw_invalid_json(error);
    }
    simdjson::ondemand::object object;
    if (auto error = document.get_object().get(object)) [[unlikely]] {
      if (error == simdjson::INCORRECT_TYPE) {
        detail::throw_pathed("expected an object, found another JSON value");
      }
      detail::throw_invalid_json(error);
    }
    return object;
  }

  template <class Reader, class T>
  std::bitset<field_count_v<T>> decode_item(std::string_view json, T& out,
                                            DecodeTarget target = DecodeTarget::reused) {
    try {
      Document document;
      simdjson::ondemand::object object = open_object(json, document);
      const std::bitset<field_count_v<T>> seen = detail::decode_fields<Reader>(object, out, target);
      // On-Demand stops reading at the object's end; anything after it ("{...}}") is checked
      // here: where the iterator stands must be the end of the input.
      if (!document.consumed()) [[unlikely]] {
        detail::throw_pathed("invalid JSON (unexpected content after the object)");
      }
      return seen;
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }

  // A projection stops at its last field: what follows is not read, nor checked.
  template <class Reader, class T>
  std::bitset<field_count_v<T>> decode_item_selected(std::string_view json, T& out,
                                                     const std::bitset<field_count_v<T>>& wanted) {
    try {
      simdjson::ondemand::document document;
      simdjson::ondemand::object object = open_object(json, document);
      return detail::decode_fields_selected<Reader>(object, out, wanted);
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }

  simdjson::ondemand::parser parser_;
  detail::PaddedBuffer buffer_;
};

// Convenience for one-off decoding, through a thread_local BodyDecoder: a plain JSON body (the
// SQLite backend's format, what encode_body writes).
// Throws: DecodeError naming the JSON path of what does not decode.
// Exception safety: strong (a new T is returned).
template <Reflectable T>
T decode_body(std::string_view json) {
  thread_local BodyDecoder decoder;
  T out{};
  decoder.decode(json, out);
  return out;
}

// The same for text in either format: a plain JSON body or an AttributeValue map.
// Throws: DecodeError naming the JSON path of what does not decode.
// Exception safety: strong (a new T is returned).
template <Reflectable T>
T decode_body(std::string_view text, BodyFormat format) {
  thread_local BodyDecoder decoder;
  T out{};
  if (format == BodyFormat::json) {
    decoder.decode<BodyFormat::json>(text, out);
  } else {
    decoder.decode<BodyFormat::attribute_value>(text, out);
  }
  return out;
}

// A stored item kept raw (a pksk::RawItem of ItemCollection::unknown()), in the format its
// backend stores: decode_body<Invoice>(raw) works on every backend. An entity's key member the
// body lacks is read back from the item's keys (key/read_back.hpp).
// Throws: DecodeError naming the JSON path of what does not decode.
// Exception safety: strong (a new T is returned).
template <Reflectable T, class Raw>
  requires requires(const Raw& raw) {
    { raw.json } -> std::convertible_to<std::string_view>;
    { raw.format } -> std::convertible_to<BodyFormat>;
  }
T decode_body(const Raw& raw) {
  thread_local BodyDecoder decoder;
  T out{};
  const std::bitset<field_count_v<T>> seen =
      raw.format == BodyFormat::json
          ? decoder.decode<BodyFormat::json>(std::string_view(raw.json), out)
          : decoder.decode<BodyFormat::attribute_value>(std::string_view(raw.json), out);
  if constexpr (EntityType<T> && requires {
                  raw.pk;
                  raw.sk;
                }) {
    detail::complete_key_members(detail::KnownKeys{raw.pk, raw.sk}, out, seen);
  }
  return out;
}

}  // namespace pksk
