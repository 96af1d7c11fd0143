// SPDX-License-Identifier: BSL-1.0
#pragma once
// Entity -> item text, in two formats from one traversal: BodyWriter produces the JSON body the
// SQLite backend stores, AttributeValueWriter DynamoDB's AttributeValue JSON. Also the
// traits that say which member types pksk can store, which decode.hpp shares. No JSON parser
// here: this is what filters, conditions and updates need, in every translation unit.
//
// Body format: one object, members in declaration order under their stored names
// (key/stored_names.hpp: the fields' names unless the record declares others); an empty optional
// is omitted (a map's empty optional entry is a null); numbers are JSON numbers (std::to_chars:
// exact integers, shortest round-trip floating point); enums are their enumerator's name; time
// points ISO 8601 UTC text with the clock's full precision; set<string> an array, map an object,
// vector an array; vector<std::byte> {"":"<base64>"}, a number set {"":[1,2.5]} and a binary
// set {"":["<base64>",...]} (json_writer.hpp).

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

#include "../detail/diagnose.hpp"
#include "../detail/iso8601.hpp"
#include "../detail/json_writer.hpp"
#include "../detail/std_traits.hpp"
#include "../detail/utf8.hpp"
#include "../error.hpp"
#include "../key/key.hpp"
#include "../key/read_back.hpp"
#include "../key/stored_names.hpp"
#include "../reflect/enum_name.hpp"
#include "../reflect/reflect.hpp"
#include "../value.hpp"
#include "blob_member.hpp"
#include "body_format.hpp"
#include "compressed.hpp"
#include "detail/json_path.hpp"
#include "null_optionals.hpp"
#include "ttl.hpp"

namespace pksk {

namespace diagnostics {
// A member of Record (named Member, declared as Type) of a type pksk cannot store. What it
// stores: std::string, bool, integer types (not character types), float, double, enums,
// std::chrono::system_clock::time_point, nested aggregates and Hana-adapted structs, and
// std::optional, std::vector and std::map<std::string, T> of those, std::set<std::string>,
// std::vector<std::byte> (binary), std::set<double> and std::set<std::int64_t> (number sets),
// std::set<std::vector<std::byte>> (binary sets), and types with a pksk::Value specialisation
// (value.hpp).
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

// DynamoDB's number set (NS) and binary set (BS).
template <class T>
inline constexpr bool is_number_set_v = false;
template <class C, class A>
inline constexpr bool is_number_set_v<std::set<double, C, A>> = true;
template <class C, class A>
inline constexpr bool is_number_set_v<std::set<std::int64_t, C, A>> = true;

template <class T>
inline constexpr bool is_binary_set_v = false;
template <class C, class A>
inline constexpr bool is_binary_set_v<std::set<std::vector<std::byte>, C, A>> = true;

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

// A type with a Value specialisation is stored as its converter says, even when it is an
// aggregate pksk could walk.
template <class T>
concept CodecRecord = Reflectable<T> && !is_std_array_v<T> && !ValueSpecialised<T>;

// Whether encode_value and decode_value take a T: they branch on the same tests in this order.
// A record's own members are checked where the record is encoded or decoded.
template <class T>
consteval bool storable() {
  if constexpr (ValueSpecialised<T>) {
    // An incomplete specialisation is reported by the traversals (value_converter_v), once.
    if constexpr (ValueConverter<T>) {
      return storable<value_stored_t<T>>();
    } else {
      return true;
    }
  } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> ||
                       CodecInteger<T> || std::is_same_v<T, double> || std::is_same_v<T, float> ||
                       std::is_enum_v<T> || std::is_same_v<T, TimePoint> || is_string_set_v<T> ||
                       is_binary_v<T> || is_number_set_v<T> || is_binary_set_v<T>) {
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

// One default-constructed record per type: the source of a missing field's value when
// decoding, and what a member pointer is matched against (expr/attr.hpp).
template <class T>
const T& default_record() {
  static const T instance{};
  return instance;
}

// ---------------------------------------------------------------------------------- encode

// The size of `name` as JSON string content: escaped as append_json_string_rest escapes it.
constexpr std::size_t json_escaped_size(std::string_view name) noexcept {
  std::size_t n = 0;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (!kJsonEscape[byte]) {
      n += 1;
    } else if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' ||
               c == '\t') {
      n += 2;
    } else {
      n += 6;
    }
  }
  return n;
}

// Writes `name` as JSON string content at out[at], escaped as append_json_string_rest does.
constexpr void put_json_escaped(std::string_view name, char* out, std::size_t& at) noexcept {
  constexpr char hex[] = "0123456789abcdef";
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (!kJsonEscape[byte]) {
      out[at++] = c;
      continue;
    }
    out[at++] = '\\';
    switch (c) {
      case '"':
        out[at++] = '"';
        break;
      case '\\':
        out[at++] = '\\';
        break;
      case '\b':
        out[at++] = 'b';
        break;
      case '\f':
        out[at++] = 'f';
        break;
      case '\n':
        out[at++] = 'n';
        break;
      case '\r':
        out[at++] = 'r';
        break;
      case '\t':
        out[at++] = 't';
        break;
      default:
        out[at++] = 'u';
        out[at++] = '0';
        out[at++] = '0';
        out[at++] = hex[byte >> 4];
        out[at++] = hex[byte & 0xF];
    }
  }
}

// `,"name":` for every field of T, in one static buffer: what a JSON writer appends before a
// member's value (from the second byte after an opening brace), so that a field costs one
// append and not four. The names are the stored names (stored_names.hpp), escaped as JSON.
template <class T>
struct FieldJson {
  static constexpr std::size_t size = [] {
    std::size_t n = 1;
    for (std::string_view name : stored_names_v<T>) n += json_escaped_size(name) + 5;
    return n;
  }();
  static constexpr std::array<std::size_t, field_count_v<T> + 1> offsets = [] {
    std::array<std::size_t, field_count_v<T> + 1> out{};
    for (std::size_t i = 0; i < field_count_v<T>; ++i)
      out[i + 1] = out[i] + json_escaped_size(stored_names_v<T>[i]) + 5;
    return out;
  }();
  // Each field's `,"name":"`: the last quote opens a string value (get_string_open).
  static constexpr std::array<char, size> chars = [] {
    std::array<char, size> out{};
    std::size_t at = 0;
    for (std::string_view name : stored_names_v<T>) {
      out[at++] = ',';
      out[at++] = '"';
      put_json_escaped(name, out.data(), at);
      out[at++] = '"';
      out[at++] = ':';
      out[at++] = '"';
    }
    return out;
  }();
  // `,"name":`
  template <std::size_t I>
  static constexpr std::string_view get() noexcept {
    return {chars.data() + offsets[I], offsets[I + 1] - offsets[I] - 1};
  }
  // `,"name":"`, for a string member written in one piece with its fixed text.
  template <std::size_t I>
  static constexpr std::string_view get_string_open() noexcept {
    return {chars.data() + offsets[I], offsets[I + 1] - offsets[I]};
  }
};

// A writer whose output is the item's whole JSON text says so with `defers_utf8`: its strings
// are copied (or escaped into ASCII) between ASCII quotes, so the text is valid UTF-8 exactly
// when every string and map key is, and one check of the finished text (encode_item) costs a
// pass of eight bytes a step instead of a call per string. Only when that check fails is the
// item encoded again string by string, which throws the error naming the member.
template <class Writer>
inline constexpr bool defers_utf8_v = requires { requires Writer::defers_utf8; };

// The writer, as an expression that depends on Field: clang checks a call on the writer in a
// discarded `if constexpr` branch of the field lambda once Writer is known, unless it depends
// on the lambda's own parameters too.
template <class Field, class Writer>
Writer& writer_for(Writer& w) noexcept {
  return w;
}

// A writer that writes a string member's name, punctuation and value in one call.
template <class Writer>
inline constexpr bool writes_string_fields_v =
    requires(Writer& w, std::string_view s) { w.string_field(s, s, s); };

template <class Writer>
struct CheckingEachString : Writer {
  static constexpr bool defers_utf8 = false;
  using Writer::Writer;
};

template <class Writer, class T>
void encode_value(Writer& w, const T& value);

template <class T, class Writer, class V>
void encode_compressed(Writer& w, const V& value);

template <class T, std::size_t I, class Writer, class V>
void encode_blob_member(Writer& w, const V& value);

template <class Writer, class T>
void encode_fields(Writer& w, const T& record) {
  static_assert(checked_v<MembersStorable<T>>);
  if constexpr (has_compressed_v<T>) static_assert(checked_v<CompressedCheck<T>>);
  if constexpr (has_ttl_v<T>) static_assert(checked_v<TtlCheck<T>>);
  if constexpr (has_blob_members_v<T>) static_assert(checked_v<BlobCheck<T>>);
  for_each_field(record, [&](auto index, const auto& field) {
    using Field = std::remove_cvref_t<decltype(field)>;
    // A key member an entity keeps only in its keys (key/read_back.hpp) is no attribute.
    if constexpr (storable<Field>() && !omits_member<T>(decltype(index)::value)) {
      if constexpr (is_optional_v<Field>) {
        if (!field) {
          // Absent, unless the entity stores empty optionals as NULL (null_optionals.hpp).
          if constexpr (stores_empty_optional_as_null_v<T>) {
            w.field(stored_names_v<T>[decltype(index)::value],
                    FieldJson<T>::template get<decltype(index)::value>());
            w.null();
          }
          return;
        }
      }
      if constexpr (is_string_set_v<Field> && Writer::omits_empty_sets) {
        if (field.empty()) return;
      }
      // DynamoDB has no empty set; the body has no other way to tell one either.
      if constexpr (is_number_set_v<Field> || is_binary_set_v<Field>) {
        if (field.empty()) return;
      }
      constexpr std::string_view name = stored_names_v<T>[decltype(index)::value];
      if constexpr (is_ttl_field_v<T, decltype(index)::value>) {
        // DynamoDB's TTL reads epoch seconds as a number, not the ISO text of other times.
        w.field(name, FieldJson<T>::template get<decltype(index)::value>());
        if constexpr (is_optional_v<Field>) {
          writer_for<Field>(w).number(epoch_seconds(*field));
        } else {
          writer_for<Field>(w).number(epoch_seconds(field));
        }
      } else if constexpr (blob_field_v<T, decltype(index)::value>) {
        w.field(name, FieldJson<T>::template get<decltype(index)::value>());
        at_member(name, [&] {
          if constexpr (is_optional_v<Field>) {
            encode_blob_member<T, decltype(index)::value>(w, *field);
          } else {
            encode_blob_member<T, decltype(index)::value>(w, field);
          }
        });
      } else if constexpr (compresses_field_v<T, decltype(index)::value>) {
        w.field(name, FieldJson<T>::template get<decltype(index)::value>());
        at_member(name, [&] {
          if constexpr (is_optional_v<Field>) {
            encode_compressed<T>(w, *field);
          } else {
            encode_compressed<T>(w, field);
          }
        });
      } else if constexpr (std::is_same_v<Field, std::string> && defers_utf8_v<Writer> &&
                           writes_string_fields_v<Writer>) {
        // The string's UTF-8 is checked with the whole text (defers_utf8): nothing here throws.
        writer_for<Field>(w).string_field(
            name, FieldJson<T>::template get_string_open<decltype(index)::value>(), field);
      } else {
        w.field(name, FieldJson<T>::template get<decltype(index)::value>());
        at_member(name, [&] { encode_value(w, field); });
      }
    }
  });
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_invalid_utf8(std::size_t at) {
  throw_pathed("not valid UTF-8 (at byte " + std::to_string(at) + ")");
}

// DynamoDB refuses an attribute name that is empty, a map's keys included.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_empty_map_key() {
  throw_pathed_validation("a map key is empty: DynamoDB refuses an empty attribute name");
}

// The public error of a failed encoding: ValidationError for what DynamoDB refuses as a request
// (an empty map key), else EncodeError (a value with no representation).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_encode_failure(
    const PathedFailure& failure) {
  std::string message = "cannot encode " + failure.full_path() + ": " + failure.what;
  if (failure.validation) throw ValidationError(std::move(message));
  throw EncodeError(std::move(message));
}

// DynamoDB holds strings as UTF-8 and refuses others, and a body with invalid UTF-8 would not
// read back (the decoder validates): such a string is refused before anything is written.
inline void check_utf8(std::string_view s) {
  if (const std::size_t at = find_invalid_utf8(s); at != std::string_view::npos) [[unlikely]]
    throw_invalid_utf8(at);
}

// A compressed member's value (compressed.hpp): one zstd frame, written as a binary value, so
// that every writer (body, AttributeValue, size) sees the compressed bytes. A string is checked
// for UTF-8 as any string is, so that what reads back is what a plain member would hold.
template <class T, class Writer, class V>
void encode_compressed(Writer& w, const V& value) {
  if constexpr (std::is_same_v<V, std::string>) check_utf8(value);
  const std::string_view frame = zstd_compress(bytes_of(value), compression_level_of<T>());
  w.binary(reinterpret_cast<const unsigned char*>(frame.data()), frame.size());
}

// A blob member's value (blob_member.hpp): the reference to the object Table::put stored for
// it, else the value itself when it is within the entity's threshold.
template <class T, std::size_t I, class Writer, class V>
void encode_blob_member(Writer& w, const V& value) {
  if (const BlobWrites* writes = blob_writes_v<T>;
      writes != nullptr && writes->refs[I] != nullptr) {
    encode_value(w, *writes->refs[I]);
    return;
  }
  const std::size_t size = blob_bytes_of(value).size();
  if (size > blob_threshold_of<T>()) [[unlikely]]
    throw_blob_value_unwritable(size, blob_threshold_of<T>());
  encode_value(w, value);
}

template <class Writer, class T>
void encode_value(Writer& w, const T& value) {
  if constexpr (ValueSpecialised<T>) {
    if constexpr (value_converter_v<T>) encode_value(w, pksk::Value<T>::to(value));
  } else if constexpr (std::is_same_v<T, std::string>) {
    if constexpr (!defers_utf8_v<Writer>) check_utf8(value);
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
      w.null();  // only reached inside a list or a map: a field omits it
    }
  } else if constexpr (is_binary_v<T>) {
    w.binary(reinterpret_cast<const unsigned char*>(value.data()), value.size());
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
      if (key.empty()) [[unlikely]]
        throw_empty_map_key();
      if constexpr (!defers_utf8_v<Writer>) at_member(key, [&] { check_utf8(key); });
      w.map_key(key);
      at_member(key, [&] { encode_value(w, entry); });  // an empty optional is a null
    }
    w.end_map();
  } else if constexpr (is_string_set_v<T>) {
    w.begin_string_set();
    std::size_t i = 0;
    for (const std::string& s : value) {
      if constexpr (!defers_utf8_v<Writer>) at_index(i, [&] { check_utf8(s); });
      ++i;
      w.set_element(s);
    }
    w.end_string_set();
  } else if constexpr (is_number_set_v<T>) {
    w.begin_number_set();
    for (const auto n : value) {
      if constexpr (std::is_floating_point_v<typename T::value_type>) {
        if (!std::isfinite(n)) [[unlikely]]
          throw_pathed("a number set holds NaN or an infinity, which have no representation");
      }
      w.number_set_element(n);
    }
    w.end_number_set();
  } else if constexpr (is_binary_set_v<T>) {
    w.begin_binary_set();
    for (const std::vector<std::byte>& bytes : value) {
      w.binary_set_element(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    }
    w.end_binary_set();
  } else if constexpr (CodecRecord<T>) {
    w.begin_record();
    encode_fields(w, value);
    w.end_record();
  } else {
    (void)value_storable_v<T>;
  }
}

template <class Writer, class T>
void encode_whole(const T& value, std::string& out) {
  out.clear();  // keeps the capacity: the next item of similar size costs no allocation
  Writer w{out};
  w.begin_item();
  encode_fields(w, value);
  w.end_item();
}

// The item encoded again with each string checked as it comes: throws the first failure in
// member order, as a writer that does not defer the check throws it.
template <class Writer, class T>
[[noreturn, gnu::cold, gnu::noinline]] void encode_checking_each_string(const T& value,
                                                                        std::string& out) {
  encode_whole<CheckingEachString<Writer>>(value, out);
  throw_pathed("not valid UTF-8");  // not reached: the text was not valid, so a string is not
}

template <class Writer, class T>
void encode_item(const T& value, std::string& out) {
  try {
    if constexpr (defers_utf8_v<Writer>) {
      bool valid = false;
      try {
        encode_whole<Writer>(value, out);
        valid = find_invalid_utf8(out) == std::string_view::npos;
      } catch (const PathedFailure&) {
        // Another failure, or an invalid string before it: the checking pass tells which.
      }
      if (!valid) [[unlikely]]
        encode_checking_each_string<Writer>(value, out);
    } else {
      encode_whole<Writer>(value, out);
    }
  } catch (const PathedFailure& failure) {
    throw_encode_failure(failure);
  }
}

}  // namespace detail

// Assigns the JSON body of value to out, reusing out's capacity.
// Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value, invalid
// UTF-8).
// Exception safety: basic: out is unspecified on an exception.
template <Reflectable T>
void encode_body(const T& value, std::string& out) {
  detail::encode_item<detail::BodyWriter>(value, out);
}

// Assigns DynamoDB's AttributeValue map of value ({"field":{"S":"..."},...}) to out.
// Throws: EncodeError, as encode_body.
// Exception safety: basic: out is unspecified on an exception.
template <Reflectable T>
void encode_attribute_values(const T& value, std::string& out) {
  detail::encode_item<detail::AttributeValueWriter>(value, out);
}

// Assigns the body of value in the given format to out.
// Throws: EncodeError, as encode_body.
// Exception safety: basic: out is unspecified on an exception.
template <BodyFormat Format, Reflectable T>
void encode(const T& value, std::string& out) {
  if constexpr (Format == BodyFormat::json) {
    detail::encode_item<detail::BodyWriter>(value, out);
  } else {
    detail::encode_item<detail::AttributeValueWriter>(value, out);
  }
}

}  // namespace pksk
