#pragma once
// Entity <-> item text, in two formats from one traversal each way.
//
// Encoding walks the struct once (encode_value) over a writer: BodyWriter produces the JSON
// body the SQLite backend stores, AttributeValueWriter DynamoDB's AttributeValue JSON.
// Decoding walks it once (decode_value) over a reader of the same two formats, straight from
// simdjson On-Demand into the struct: no DOM, a reused parser and padded buffer, keys matched
// against compile-time field names, strings assigned into the members' own storage.
//
// Body format: one object, members in declaration order named as the fields; an empty optional
// is omitted; numbers are JSON numbers (std::to_chars: exact integers, shortest round-trip
// floating point); enums are their enumerator's name; time points ISO 8601 UTC text with the
// clock's full precision; set<string> an array, map an object, vector an array.

#include <array>
#include <bitset>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "../error.hpp"
#include "../key/detail/utf8.hpp"
#include "../key/diagnose.hpp"
#include "../key/key.hpp"
#include "../reflect/detail/std_traits.hpp"
#include "../reflect/enum_name.hpp"
#include "../reflect/reflect.hpp"
#include "body_format.hpp"
#include "detail/iso8601.hpp"
#include "detail/json_path.hpp"
#include "detail/json_reader.hpp"
#include "detail/json_reader_attribute_value.hpp"
#include "detail/json_writer.hpp"
#include "detail/padded_buffer.hpp"
#include "parsed_item.hpp"

namespace pksk {

namespace diagnostics {
// A member of Record (named Member, declared as Type) of a type pksk cannot store. What it
// stores: std::string, bool, integer types (not character types), float, double, enums,
// std::chrono::system_clock::time_point, nested aggregates and Hana-adapted structs, and
// std::optional, std::vector and std::map<std::string, T> of those, and std::set<std::string>.
template <class Record, detail::fixed_string Member, class Type>
struct member_type_is_not_one_pksk_can_store;
// A value of such a type given alone: to to_attribute_value, or to an update action.
template <class Type>
struct value_type_is_not_one_pksk_can_store;
}  // namespace diagnostics

namespace detail {

template <class T>
inline constexpr bool is_string_map_v = false;
template <class T, class C, class A>
inline constexpr bool is_string_map_v<std::map<std::string, T, C, A>> = true;

template <class T>
inline constexpr bool is_string_set_v = false;
template <class C, class A>
inline constexpr bool is_string_set_v<std::set<std::string, C, A>> = true;

// The type a member's values hold: an optional's value, a vector's element, a string map's
// mapped type; void for one that holds no other (a scalar, a string, a set, a record). The
// compile-time walks over member types (holds_no_record, holds_string_set_member) go down
// through it.
template <class T>
struct held {
  using type = void;
};
template <class T>
struct held<std::optional<T>> {
  using type = T;
};
template <class T, class A>
struct held<std::vector<T, A>> {
  using type = T;
};
template <class T, class C, class A>
struct held<std::map<std::string, T, C, A>> {
  using type = T;
};
template <class T>
using held_t = typename held<T>::type;

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

template <class T>
inline constexpr bool is_char_v =
    std::is_same_v<T, char> || std::is_same_v<T, wchar_t> || std::is_same_v<T, char8_t> ||
    std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>;

// Integers proper: bool and the character types are not numbers in an item.
template <class T>
concept CodecInteger = std::is_integral_v<T> && !std::is_same_v<T, bool> && !is_char_v<T>;

template <class T>
concept CodecRecord = Reflectable<T> && !is_std_array_v<T>;

// Whether encode_value and decode_value take a T: they branch on the same tests in this order.
// A record's own members are checked where the record is encoded or decoded.
template <class T>
consteval bool storable() {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> || CodecInteger<T> ||
                std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_enum_v<T> ||
                std::is_same_v<T, TimePoint> || is_string_set_v<T>) {
    return true;
  } else if constexpr (is_optional_v<T> || is_vector_v<T> || is_string_map_v<T>) {
    return storable<held_t<T>>();
  } else {
    return CodecRecord<T>;
  }
}

// Every member of record T storable, else one error per member that is not, naming the rule,
// the record, the member and its type. Checked where T's fields are encoded or decoded, which
// skip such a member, so that each writer and reader instantiated for T adds no error of its own.
template <class T>
struct MembersStorable {
  static constexpr bool ok = []<std::size_t... I>(std::index_sequence<I...>) {
    return (
        diagnose_v<storable<field_type_t<T, I>>(),
                   diagnostics::member_type_is_not_one_pksk_can_store<T, field_name_text_v<T, I>,
                                                                      field_type_t<T, I>>> &
        ...);
  }(std::make_index_sequence<field_count_v<T>>{});
};

// A value given alone (to to_attribute_value, or to an update action) whose type is not
// storable: reported once per type, however many writers meet it.
template <class T>
inline constexpr bool value_storable_v =
    diagnose_v<storable<T>(), diagnostics::value_type_is_not_one_pksk_can_store<T>>;

// ---------------------------------------------------------------------------------- encode

// `,"name":` for every field of T, in one static buffer: what a JSON writer appends before a
// member's value (from the second byte after an opening brace), so that a field costs one
// append and not four. Field names are identifiers: nothing to escape.
template <class T>
struct FieldJson {
  static constexpr std::size_t size = [] {
    std::size_t n = 1;
    for (std::string_view name : field_names_v<T>) n += name.size() + 4;
    return n;
  }();
  static constexpr std::array<std::size_t, field_count_v<T> + 1> offsets = [] {
    std::array<std::size_t, field_count_v<T> + 1> out{};
    for (std::size_t i = 0; i < field_count_v<T>; ++i)
      out[i + 1] = out[i] + field_names_v<T>[i].size() + 4;
    return out;
  }();
  static constexpr std::array<char, size> chars = [] {
    std::array<char, size> out{};
    std::size_t at = 0;
    for (std::string_view name : field_names_v<T>) {
      out[at++] = ',';
      out[at++] = '"';
      for (char c : name) out[at++] = c;
      out[at++] = '"';
      out[at++] = ':';
    }
    return out;
  }();
  template <std::size_t I>
  static constexpr std::string_view get() noexcept {
    return {chars.data() + offsets[I], offsets[I + 1] - offsets[I]};
  }
};

template <class Writer, class T>
void encode_value(Writer& w, const T& value);

template <class Writer, class T>
void encode_fields(Writer& w, const T& record) {
  static_assert(checked_v<MembersStorable<T>>);
  for_each_field(record, [&](auto index, const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    if constexpr (storable<Field>()) {  // else MembersStorable has reported it
      if constexpr (is_optional_v<Field>) {
        if (!field) return;  // absent attribute
      }
      if constexpr (is_string_set_v<Field> && Writer::omits_empty_sets) {
        if (field.empty()) return;
      }
      constexpr std::string_view name = field_names_v<T>[decltype(index)::value];
      w.field(name, FieldJson<T>::template get<decltype(index)::value>());
      at_member(name, [&] { encode_value(w, field); });
    }
  });
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_invalid_utf8(std::size_t at) {
  throw_pathed("not valid UTF-8 (at byte " + std::to_string(at) + ")");
}

// DynamoDB holds strings as UTF-8 and refuses others, and a body with invalid UTF-8 would not
// read back (the decoder validates): such a string is refused before anything is written.
inline void check_utf8(std::string_view s) {
  if (const std::size_t at = find_invalid_utf8(s); at != std::string_view::npos) [[unlikely]]
    throw_invalid_utf8(at);
}

template <class Writer, class T>
void encode_value(Writer& w, const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    check_utf8(value);
    w.string(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    w.boolean(value);
  } else if constexpr (CodecInteger<T>) {
    w.number(value);
  } else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    if (!std::isfinite(value)) [[unlikely]] {
      throw_pathed(std::isnan(value) ? "NaN has no JSON representation"
                                     : "infinity has no JSON representation");
    }
    w.number(value);
  } else if constexpr (std::is_enum_v<T>) {
    const std::string_view name = enum_name(value);
    if (name.empty()) [[unlikely]] {
      throw_pathed(
          "enum value " +
          std::to_string(static_cast<long long>(static_cast<std::underlying_type_t<T>>(value))) +
          " has no enumerator name");
    }
    w.string(name);
  } else if constexpr (std::is_same_v<T, TimePoint>) {
    char buf[kIso8601MaxSize];
    w.string(format_iso8601(value, buf));
  } else if constexpr (is_optional_v<T>) {
    if (value) {
      encode_value(w, *value);
    } else {
      w.null();  // only reached inside a list: fields and map entries omit it
    }
  } else if constexpr (is_vector_v<T>) {
    using Element = typename T::value_type;
    w.begin_list();
    for (std::size_t i = 0; i < value.size(); ++i) {
      w.element();
      // Through a const Element& so that vector<bool>'s proxy becomes a plain bool.
      at_index(i, [&] { encode_value<Writer, Element>(w, value[i]); });
    }
    w.end_list();
  } else if constexpr (is_string_map_v<T>) {
    w.begin_map();
    for (const auto& [key, entry] : value) {
      if constexpr (is_optional_v<std::remove_cvref_t<decltype(entry)>>) {
        if (!entry) continue;
      }
      at_member(key, [&] { check_utf8(key); });
      w.map_key(key);
      at_member(key, [&] { encode_value(w, entry); });
    }
    w.end_map();
  } else if constexpr (is_string_set_v<T>) {
    w.begin_string_set();
    std::size_t i = 0;
    for (const std::string& s : value) {
      at_index(i++, [&] { check_utf8(s); });
      w.set_element(s);
    }
    w.end_string_set();
  } else if constexpr (CodecRecord<T>) {
    w.begin_record();
    encode_fields(w, value);
    w.end_record();
  } else {
    (void)value_storable_v<T>;
  }
}

template <class Writer, class T>
void encode_item(const T& value, std::string& out) {
  out.clear();  // keeps the capacity: the next item of similar size costs no allocation
  Writer w{out};
  try {
    w.begin_item();
    encode_fields(w, value);
    w.end_item();
  } catch (const PathedFailure& failure) {
    throw EncodeError("cannot encode " + failure.full_path() + ": " + failure.what);
  }
}

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

// One default-constructed record per type, the source of a missing field's value.
template <class T>
const T& default_record() {
  static const T instance{};
  return instance;
}

template <class Reader, class T>
[[gnu::always_inline]] inline void decode_value(typename Reader::Value& value, T& out);

// What decode_value<T> reads, for Reader::open.
template <class T>
consteval ValueKind value_kind() {
  if constexpr (std::is_same_v<T, std::string> || std::is_enum_v<T> ||
                std::is_same_v<T, TimePoint>) {
    return ValueKind::string;
  } else if constexpr (std::is_same_v<T, bool>) {
    return ValueKind::boolean;
  } else if constexpr (CodecInteger<T> || std::is_floating_point_v<T>) {
    return ValueKind::number;
  } else if constexpr (is_optional_v<T>) {
    return value_kind<typename T::value_type>();  // null is the exception: omitted in fields
  } else if constexpr (is_vector_v<T>) {
    return ValueKind::list;
  } else if constexpr (is_string_set_v<T>) {
    return ValueKind::string_set;
  } else if constexpr (is_string_map_v<T> || CodecRecord<T>) {
    return ValueKind::object;
  } else {
    return ValueKind::any;
  }
}

template <class Reader, class T, std::size_t I>
[[gnu::always_inline]] inline void decode_field(ondemand::value raw, T& out) {
  using Field = std::remove_cvref_t<decltype(get_field<I>(out))>;
  if constexpr (storable<Field>()) {  // else MembersStorable has reported it
    try {
      typename Reader::Value value;
      if (auto error = Reader::template open<value_kind<Field>()>(raw, value)) [[unlikely]] {
        throw_read_error<Reader>("an AttributeValue", value, error);
      }
      decode_value<Reader>(value, get_field<I>(out));
    } catch (PathedFailure& failure) {
      failure.prepend_member(field_names_v<T>[I]);
      throw;
    }
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
  (void)((first == field_names_v<T>[I][0] && key.unsafe_is_equal(field_names_v<T>[I]) &&
          (decode_field<Reader, T, I>(field.value(), out), seen.set(I), true)) ||
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
// and old bodies decode into newer structs.
template <class Reader, class T>
[[gnu::always_inline]] inline void decode_fields_inline(ondemand::object& object, T& out) {
  static_assert(checked_v<MembersStorable<T>>);
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
  if (!seen.all()) [[unlikely]] {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((seen.test(I) ? void() : void(get_field<I>(out) = get_field<I>(default_record<T>()))), ...);
    }(std::make_index_sequence<count>{});
  }
}

template <class Reader, class T>
void decode_fields(ondemand::object& object, T& out) {
  decode_fields_inline<Reader>(object, out);
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
  (void)((wanted.test(I) && first == field_names_v<T>[I][0] &&
          key.unsafe_is_equal(field_names_v<T>[I]) &&
          (decode_field<Reader, T, I>(field.value(), out), seen.set(I), true)) ||
         ...);
}

template <class Reader, class T>
void decode_fields_selected(ondemand::object& object, T& out,
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
      "expected an ISO 8601 UTC timestamp such as \"2024-02-29T23:59:58.123456789Z\" (at most " +
      std::to_string(kTimeFractionDigits) + " fraction digits, ending in Z), found \"" +
      std::string(text) + "\"");
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

template <class Reader, class T>
[[gnu::always_inline]] inline void decode_value(typename Reader::Value& value, T& out) {
  using Value = typename Reader::Value;
  if constexpr (std::is_same_v<T, std::string>) {
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
      throw_read_error<Reader>("an ISO 8601 UTC timestamp", value, error);
    }
    if (!parse_iso8601(s, out)) [[unlikely]]
      throw_timestamp_error(s);
  } else if constexpr (is_optional_v<T>) {
    if (Reader::is_null(value)) {
      out.reset();
    } else {
      if (!out) out.emplace();
      decode_value<Reader>(value, *out);
    }
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
      throw_read_error<Reader>("an array of strings", value, error);
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
  } else if constexpr (CodecRecord<T>) {
    check_depth<Reader>(value);
    ondemand::object object;
    if (auto error = Reader::get_record(value, object)) [[unlikely]] {
      throw_read_error<Reader>("an object", value, error);
    }
    if constexpr (is_leaf_record_v<T>) {
      decode_fields_inline<Reader>(object, out);
    } else {
      decode_fields<Reader>(object, out);
    }
  } else {
    (void)value_storable_v<T>;
  }
}

// An item's text: `body`, or for an item a backend hands over live with no body (a DynamoDB
// answer's item, whose end is only known once it was read), the live object's raw JSON. That
// reads the object to its end: only for an item that is not decoded, or rewound after.
// A ParsedItem holds a simdjson On-Demand object; these two are the only casts of it.
inline ParsedItem parsed_item(simdjson::ondemand::object& object) noexcept {
  return ParsedItem(&object);
}
inline simdjson::ondemand::object* ondemand_object(ParsedItem item) noexcept {
  return static_cast<simdjson::ondemand::object*>(item.get());
}

inline std::string_view item_text(ParsedItem live, std::string_view body) {
  if (!live || !body.empty()) return body;
  std::string_view text;
  if (auto error = ondemand_object(live)->raw_json().get(text)) [[unlikely]] {
    throw DecodeError("pksk: an item that is not JSON (" +
                      std::string(simdjson::error_message(error)) + ")");
  }
  return text;
}

}  // namespace detail

// Assigns the JSON body of value to out, reusing out's capacity.
template <Reflectable T>
void encode_body(const T& value, std::string& out) {
  detail::encode_item<detail::BodyWriter>(value, out);
}

// Assigns DynamoDB's AttributeValue map of value ({"field":{"S":"..."},...}) to out.
template <Reflectable T>
void encode_attribute_values(const T& value, std::string& out) {
  detail::encode_item<detail::AttributeValueWriter>(value, out);
}

// Decodes item text into structs. Keep one per thread and reuse it: it owns a simdjson parser
// and a padded input buffer, both grown to the largest item seen and then never reallocated.
class BodyDecoder {
 public:
  // Decodes a JSON body (as encode_body writes it) into out. Unknown members are ignored and
  // missing ones take their default value. Throws DecodeError naming the JSON path.
  template <Reflectable T>
  void decode(std::string_view json, T& out) {
    decode_item<detail::BodyReader>(json, out);
  }

  // Decodes a body of the given format into out.
  template <BodyFormat Format, Reflectable T>
  void decode(std::string_view text, T& out) {
    if constexpr (Format == BodyFormat::json) {
      decode_item<detail::BodyReader>(text, out);
    } else {
      decode_item<detail::AttributeValueReader>(text, out);
    }
  }

  // Decodes only the fields of T set in `wanted` (a projection); the others take their default
  // values. The body is read only as far as the last wanted field.
  template <BodyFormat Format, Reflectable T>
  void decode_selected(std::string_view text, T& out, const std::bitset<field_count_v<T>>& wanted) {
    if constexpr (Format == BodyFormat::json) {
      decode_item_selected<detail::BodyReader>(text, out, wanted);
    } else {
      decode_item_selected<detail::AttributeValueReader>(text, out, wanted);
    }
  }

  // Decodes an item that is already open in a document the caller iterates (an item of a
  // DynamoDB answer), where it lies: no copy, no second parse. `object` must be at its start;
  // `text` (its raw JSON) is decoded instead when `object` is null.
  template <BodyFormat Format, Reflectable T>
  void decode(ParsedItem object, std::string_view text, T& out) {
    if (!object) return decode<Format>(text, out);
    try {
      detail::decode_fields<reader_of<Format>>(*detail::ondemand_object(object), out);
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }
  template <BodyFormat Format, Reflectable T>
  void decode_selected(ParsedItem object, std::string_view text, T& out,
                       const std::bitset<field_count_v<T>>& wanted) {
    if (!object) return decode_selected<Format>(text, out, wanted);
    try {
      detail::decode_fields_selected<reader_of<Format>>(*detail::ondemand_object(object), out,
                                                        wanted);
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }

  // Decodes an AttributeValue map (as encode_attribute_values writes it, or as DynamoDB
  // returns an item) into out.
  template <Reflectable T>
  void decode_attribute_values(std::string_view json, T& out) {
    decode_item<detail::AttributeValueReader>(json, out);
  }

 private:
  template <BodyFormat Format>
  using reader_of = std::conditional_t<Format == BodyFormat::json, detail::BodyReader,
                                       detail::AttributeValueReader>;

  // The item's JSON object, iterated from the padded buffer; document lives in the caller.
  [[gnu::always_inline]] simdjson::ondemand::object open_object(
      std::string_view json, simdjson::ondemand::document& document) {
    const std::string_view padded = buffer_.assign(json);
    if (auto error =
            parser_.iterate(padded.data(), padded.size(), buffer_.padded_capacity()).get(document))
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
  void decode_item(std::string_view json, T& out) {
    try {
      simdjson::ondemand::document document;
      simdjson::ondemand::object object = open_object(json, document);
      detail::decode_fields<Reader>(object, out);
      // On-Demand stops reading at the object's end; anything after it ("{...}}") is checked
      // here: where the iterator stands must be the end of the input.
      const char* rest = nullptr;
      if (document.current_location().get(rest) == simdjson::SUCCESS) [[unlikely]] {
        detail::throw_pathed("invalid JSON (unexpected content after the object)");
      }
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }

  // A projection stops at its last field: what follows is not read, nor checked.
  template <class Reader, class T>
  void decode_item_selected(std::string_view json, T& out,
                            const std::bitset<field_count_v<T>>& wanted) {
    try {
      simdjson::ondemand::document document;
      simdjson::ondemand::object object = open_object(json, document);
      detail::decode_fields_selected<Reader>(object, out, wanted);
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }

  simdjson::ondemand::parser parser_;
  detail::PaddedBuffer buffer_;
};

// Assigns the body of value in the given format to out.
template <BodyFormat Format, Reflectable T>
void encode(const T& value, std::string& out) {
  if constexpr (Format == BodyFormat::json) {
    detail::encode_item<detail::BodyWriter>(value, out);
  } else {
    detail::encode_item<detail::AttributeValueWriter>(value, out);
  }
}

// Convenience for one-off decoding, through a thread_local BodyDecoder.
template <Reflectable T>
T decode_body(std::string_view json) {
  thread_local BodyDecoder decoder;
  T out{};
  decoder.decode(json, out);
  return out;
}

}  // namespace pksk
