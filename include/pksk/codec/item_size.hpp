// SPDX-License-Identifier: BSL-1.0
#pragma once
// An item's size as DynamoDB measures it (attribute names plus values), computed by walking the
// entity with the codec: the same figure on every backend, so that both refuse the same items
// (400 KB) and end 1 MB pages at the same key. See attribute_value.hpp for the rules.

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/json_writer.hpp"
#include "attribute_value.hpp"
#include "decimal.hpp"
#include "detail/json_path.hpp"
#include "encode.hpp"

namespace pksk {

// DynamoDB's item size limit.
inline constexpr std::size_t max_item_bytes = 400 * 1024;

namespace detail {

// A codec writer that writes nothing and counts DynamoDB's bytes; it also refuses numbers
// DynamoDB cannot hold (more than 38 digits, magnitude beyond 1e126 or below 1e-130), so that
// the SQLite backend stores only what DynamoDB would.
class SizeWriter {
 public:
  static constexpr bool omits_empty_sets = true;
  std::size_t bytes = 0;

  void begin_item() {}
  void end_item() {}
  // A nested record is a map: each member costs a byte more than a top-level attribute.
  void field(std::string_view name, std::string_view = {}) {
    bytes += name.size() + (depth_ > 0 ? 1 : 0);
  }
  void map_key(std::string_view key) { bytes += 1 + key.size(); }
  void element() { bytes += 1; }
  void set_element(std::string_view s) { bytes += s.size(); }

  void string(std::string_view s) { bytes += s.size(); }
  void binary(const unsigned char*, std::size_t size) { bytes += size; }  // its bytes
  void boolean(bool) { bytes += 1; }
  void null() { bytes += 1; }
  template <class Number>
  void number(Number n) {
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, n).ptr;
    number_text<Number>(std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }
  // A number already formatted by std::to_chars.
  template <class Number>
  void number_text(std::string_view text) {
    if constexpr (std::is_integral_v<Number>) {
      // At most 20 digits, always within DynamoDB's range: its significant digits are its
      // digits without the sign and the trailing zeros.
      std::string_view digits = text;
      // Never empty; the test also tells g++ -O3 that buf[0] is written (-Wmaybe-uninitialized).
      if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
      while (digits.size() > 1 && digits.back() == '0') digits.remove_suffix(1);
      bytes += (digits.size() + 1) / 2 + 1;
    } else {
      // std::to_chars's shortest text has no exponent only when the fixed form is not longer,
      // that is between about 1e-5 and 1e22 with at most 17 significant digits: always within
      // DynamoDB's range, so counting the digits from the first nonzero to the last is enough.
      // Its exponent, when it has one, is "e" and a sign before two or three digits: looked
      // for there rather than in a scan that branches on every character.
      const std::size_t n = text.size();
      const bool exponent = (n >= 4 && text[n - 4] == 'e') || (n >= 5 && text[n - 5] == 'e');
      if (!exponent) {
        const char* first = text.data();
        const char* end = first + n;
        if (first != end && *first == '-') ++first;
        while (first != end && (*first == '0' || *first == '.')) ++first;
        std::size_t digits = 1;  // zero
        if (first != end) {
          while (end[-1] == '0' || end[-1] == '.') --end;  // stops at *first, a nonzero digit
          digits = static_cast<std::size_t>(end - first);
          for (const char* c = first; c != end; ++c) digits -= *c == '.' ? 1 : 0;
        }
        bytes += (digits + 1) / 2 + 1;
        return;
      }
      const backend::Decimal::Shape shape = backend::Decimal::shape(text);
      if (!shape.fits_dynamodb()) [[unlikely]] {
        throw_pathed("the number " + std::string(text) +
                     " is outside DynamoDB's range (38 significant digits, magnitude 1e-130 to "
                     "1e126)");
      }
      bytes += (std::max<std::size_t>(1, shape.digits) + 1) / 2 + 1;
    }
  }
  void begin_record() {
    bytes += 3;
    ++depth_;
  }
  void end_record() { --depth_; }
  void begin_map() { bytes += 3; }
  void end_map() {}
  void begin_list() { bytes += 3; }
  void end_list() {}
  void begin_string_set() {}
  void end_string_set() {}
  void begin_number_set() {}
  void end_number_set() {}
  template <class Number>
  void number_set_element(Number n) {
    number(n);
  }
  void begin_binary_set() {}
  void end_binary_set() {}
  void binary_set_element(const unsigned char*, std::size_t size) { bytes += size; }

 private:
  int depth_ = 0;
};

// The JSON body writer and the SizeWriter in one traversal, each number formatted once for
// both. Exact only for records without a string-set member (see encode_body_sized).
class SizedBodyWriter : public BodyWriter {
 public:
  SizeWriter size;

  explicit SizedBodyWriter(std::string& out) noexcept : BodyWriter(out) {}

  void begin_item() {
    BodyWriter::begin_item();
    size.begin_item();
  }
  void end_item() {
    BodyWriter::end_item();
    size.end_item();
  }
  void field(std::string_view name, std::string_view json) {
    BodyWriter::field(name, json);
    size.field(name);
  }
  void map_key(std::string_view key) {
    BodyWriter::map_key(key);
    size.map_key(key);
  }
  void element() {
    BodyWriter::element();
    size.element();
  }
  void set_element(std::string_view s) {
    BodyWriter::set_element(s);
    size.set_element(s);
  }

  void string(std::string_view s) {
    BodyWriter::string(s);
    size.string(s);
  }
  void string_field(std::string_view name, std::string_view json_open, std::string_view s) {
    BodyWriter::string_field(name, json_open, s);
    size.field(name);
    size.string(s);
  }
  void boolean(bool b) {
    BodyWriter::boolean(b);
    size.boolean(b);
  }
  void null() {
    BodyWriter::null();
    size.null();
  }
  void binary(const unsigned char* bytes, std::size_t n) {
    BodyWriter::binary(bytes, n);
    size.binary(bytes, n);
  }
  template <class Number>
  void number(Number n) {
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, n).ptr;
    const std::string_view text(buf, static_cast<std::size_t>(end - buf));
    out_ += text;  // as BodyWriter::number writes it
    size.number_text<Number>(text);
  }
  void begin_record() {
    BodyWriter::begin_record();
    size.begin_record();
  }
  void end_record() {
    BodyWriter::end_record();
    size.end_record();
  }
  void begin_map() {
    BodyWriter::begin_map();
    size.begin_map();
  }
  void end_map() {
    BodyWriter::end_map();
    size.end_map();
  }
  void begin_list() {
    BodyWriter::begin_list();
    size.begin_list();
  }
  void end_list() {
    BodyWriter::end_list();
    size.end_list();
  }
  void begin_string_set() {
    BodyWriter::begin_string_set();
    size.begin_string_set();
  }
  void end_string_set() {
    BodyWriter::end_string_set();
    size.end_string_set();
  }
  void begin_number_set() { BodyWriter::begin_number_set(); }
  void end_number_set() { BodyWriter::end_number_set(); }
  template <class Number>
  void number_set_element(Number n) {
    BodyWriter::number_set_element(n);
    size.number_set_element(n);
  }
  void begin_binary_set() { BodyWriter::begin_binary_set(); }
  void end_binary_set() { BodyWriter::end_binary_set(); }
  void binary_set_element(const unsigned char* bytes, std::size_t n) {
    BodyWriter::binary_set_element(bytes, n);
    size.binary_set_element(bytes, n);
  }
};

// Whether a value of type T holds a record with a string-set member, the one shape in which
// the body (which writes an empty set) and DynamoDB's size (which omits it) walk differently.
// Past a nesting depth the answer is yes, so that a recursive record is never walked forever.
template <class T, int Depth>
consteval bool holds_string_set_member();

template <class T, int Depth, std::size_t... I>
consteval bool record_holds_string_set_member(std::index_sequence<I...>) {
  return ((is_string_set_v<field_type_t<T, I>> ||
           holds_string_set_member<field_type_t<T, I>, Depth + 1>()) ||
          ...);
}

template <class T, int Depth>
consteval bool holds_string_set_member() {
  if constexpr (Depth > 8) {
    return true;
  } else if constexpr (ValueConverter<T>) {
    using Stored = value_stored_t<T>;
    return is_string_set_v<Stored> || holds_string_set_member<Stored, Depth + 1>();
  } else if constexpr (!std::is_void_v<held_t<T>>) {
    return holds_string_set_member<held_t<T>, Depth + 1>();
  } else if constexpr (is_string_set_v<T> || std::is_same_v<T, std::string>) {
    return false;
  } else if constexpr (CodecRecord<T>) {
    return record_holds_string_set_member<T, Depth>(std::make_index_sequence<field_count_v<T>>{});
  } else {
    return false;
  }
}

}  // namespace detail

// The size of the attributes of `record` alone.
// Throws: EncodeError for a value that cannot be stored (it is measured as it would be written).
// Exception safety: strong (it changes nothing).
template <Reflectable T>
std::size_t attributes_size(const T& record) {
  detail::SizeWriter w;
  try {
    detail::encode_fields(w, record);
  } catch (const detail::PathedFailure& failure) {
    detail::throw_encode_failure(failure);
  }
  return w.bytes;
}

// The whole item: its key attributes and discriminator (each a string) plus its members.
struct KeyAttributeSizes {
  // The partition key's attribute name and value.
  std::string_view pk_name, pk;  // pk: the partition key itself
  // The sort key's attribute name and value (both empty without a sort key).
  std::string_view sk_name, sk;  // sk: the sort key itself
  // The type attribute's name and value.
  std::string_view type_name, type;  // type: the type attribute's value
  // Their bytes: names plus values, as DynamoDB counts strings.
  // Throws: nothing.
  // Exception safety: nothrow.
  std::size_t total() const noexcept {
    return pk_name.size() + pk.size() + sk_name.size() + sk.size() + type_name.size() + type.size();
  }
};

// The item's size by DynamoDB's measure: its keys and type plus its members.
// Throws: EncodeError, as attributes_size.
// Exception safety: strong (it changes nothing).
template <Reflectable T>
std::size_t item_size(const KeyAttributeSizes& keys, const T& record) {
  return keys.total() + attributes_size(record);
}

// encode_body(record, out), returning attributes_size(record): one traversal instead of two
// where they walk alike, else both. A record that cannot be encoded is encoded again the two
// ways, so that the EncodeError is the one encode_body or attributes_size would throw.
// Throws: EncodeError, as encode_body.
// Exception safety: basic: out is unspecified on an exception.
template <Reflectable T>
std::size_t encode_body_sized(const T& record, std::string& out) {
  if constexpr (!detail::holds_string_set_member<T, 0>()) {
    out.clear();
    detail::SizedBodyWriter w{out};
    try {
      w.begin_item();
      detail::encode_fields(w, record);
      w.end_item();
      // The writer defers the strings' UTF-8 check to the whole text (encode.hpp).
      if (detail::find_invalid_utf8(out) == std::string_view::npos) [[likely]]
        return w.size.bytes;
    } catch (const detail::PathedFailure&) {
      // Falls through to the two passes, which throw.
    }
  }
  encode_body(record, out);
  return attributes_size(record);
}

}  // namespace pksk
