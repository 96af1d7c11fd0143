// SPDX-License-Identifier: BSL-1.0
#pragma once
// AttributeValue: one DynamoDB attribute value as a tree (S, N, B, BOOL, NULL, L, M, SS, NS,
// BS). It is
// what expressions carry (a condition's operands, an update's values), what the SQLite
// backend evaluates conditions and applies updates on, and what the DynamoDB backend renders
// into ExpressionAttributeValues. Entities never travel as trees on the read or put paths:
// those stream through the codec's writers and readers.
//
// The value type and DynamoDB's size measure only: it is part of the backend contract, which
// carries no JSON parser and no reflection. Reading and writing it as JSON, and building it
// from an entity's members, are in attribute_value_json.hpp.

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "decimal.hpp"

namespace pksk {

// A value as DynamoDB types it (its AttributeValue JSON: S, N, B, BOOL, NULL, L, M, SS, NS, BS), as
// a tree: what conditions and updates carry and what the SQLite backend evaluates.
struct AttributeValue {
  // DynamoDB's types: NULL, BOOL, N, S, L, M, SS, B, NS, BS.
  enum class Kind : unsigned char {
    null,
    boolean,
    number,
    string,
    list,
    map,
    string_set,
    binary,
    number_set,
    binary_set
  };

  // Which type the value is; the members below that it does not use stay empty.
  Kind kind = Kind::null;
  // The value of a BOOL.
  bool boolean = false;
  std::string text;                  // a string, a number's decimal text, or binary's bytes
  std::vector<AttributeValue> list;  // L
  struct Member;
  std::vector<Member> map;  // M, in the order written
  // SS and BS: the strings or bytes, sorted by bytes, unique. NS: the numbers' decimal texts,
  // sorted by value, unique by value ("1.50" and "1.5" are one number).
  std::vector<std::string> set;

  // NULL.
  // Throws: nothing.
  // Exception safety: nothrow.
  static AttributeValue null_value();
  // A BOOL.
  // Throws: nothing.
  // Exception safety: nothrow.
  static AttributeValue from_bool(bool b);
  // An N, from its decimal text (not checked here).
  // Throws: nothing (the argument is moved).
  // Exception safety: nothrow.
  static AttributeValue from_number(std::string decimal_text);
  // An S.
  // Throws: nothing (the argument is moved).
  // Exception safety: nothrow.
  static AttributeValue from_string(std::string s);
  // A B, from its bytes.
  // Throws: nothing (the argument is moved).
  // Exception safety: nothrow.
  static AttributeValue from_binary(std::string bytes);
  // An M with no member.
  // Throws: nothing.
  // Exception safety: nothrow.
  static AttributeValue empty_map();
  // An L with no element.
  // Throws: nothing.
  // Exception safety: nothrow.
  static AttributeValue empty_list();
  // An SS: the strings sorted by bytes, duplicates dropped.
  // Throws: nothing (sorted in place).
  // Exception safety: nothrow.
  static AttributeValue from_set(std::vector<std::string> strings);
  // An NS: the numbers sorted by value, duplicates by value dropped.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  static AttributeValue from_number_set(std::vector<std::string> decimal_texts);
  // A BS: the byte strings sorted, duplicates dropped.
  // Throws: nothing (sorted in place).
  // Exception safety: nothrow.
  static AttributeValue from_binary_set(std::vector<std::string> byte_strings);
  // Whether it is an SS, NS or BS.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool is_set() const noexcept {
    return kind == Kind::string_set || kind == Kind::number_set || kind == Kind::binary_set;
  }

  // A map's member, or nullptr.
  // Throws: nothing.
  // Exception safety: nothrow.
  const AttributeValue* find(std::string_view name) const noexcept;
  // A map's member, or nullptr, to change it.
  // Throws: nothing.
  // Exception safety: nothrow.
  AttributeValue* find(std::string_view name) noexcept;
  // Sets a map member, keeping its place if it exists, else appending it.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  AttributeValue& assign(std::string_view name, AttributeValue value);
  // Removes a map member; false if it had none of that name.
  // Throws: nothing (what remains is moved).
  // Exception safety: nothrow.
  bool erase(std::string_view name);

  // DynamoDB's equality: same type and value; numbers as decimals ("1.50" == "1.5"), maps
  // whatever the member order, sets as sets. A plain-JSON body cannot tell a string set from
  // a list of strings, so an SS equals an L holding exactly its strings in any order.
  // Throws: only std::bad_alloc (numbers are compared as decimals).
  // Exception safety: strong.
  friend bool operator==(const AttributeValue& a, const AttributeValue& b);

  // A list whose elements are all strings, read as the string set it stands for in a plain
  // JSON body; anything else is returned as a null value (matching nothing).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  AttributeValue as_string_set() const;
};

// One member of a map. Defined after AttributeValue, which it holds by value: a vector of
// pairs would need the pair complete while AttributeValue is not (clang refuses it).
struct AttributeValue::Member {
  std::string first;  // the name
  // The member's value.
  AttributeValue second;
};

inline AttributeValue AttributeValue::null_value() {
  return {};
}
inline AttributeValue AttributeValue::from_bool(bool b) {
  AttributeValue v;
  v.kind = Kind::boolean;
  v.boolean = b;
  return v;
}
inline AttributeValue AttributeValue::from_number(std::string decimal_text) {
  AttributeValue v;
  v.kind = Kind::number;
  v.text = std::move(decimal_text);
  return v;
}
inline AttributeValue AttributeValue::from_string(std::string s) {
  AttributeValue v;
  v.kind = Kind::string;
  v.text = std::move(s);
  return v;
}
inline AttributeValue AttributeValue::from_binary(std::string bytes) {
  AttributeValue v;
  v.kind = Kind::binary;
  v.text = std::move(bytes);
  return v;
}
inline AttributeValue AttributeValue::empty_map() {
  AttributeValue v;
  v.kind = Kind::map;
  return v;
}
inline AttributeValue AttributeValue::empty_list() {
  AttributeValue v;
  v.kind = Kind::list;
  return v;
}
inline AttributeValue AttributeValue::from_set(std::vector<std::string> strings) {
  AttributeValue v;
  v.kind = Kind::string_set;
  std::sort(strings.begin(), strings.end());
  strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
  v.set = std::move(strings);
  return v;
}

namespace detail {
// Two numbers' order by value; texts that are no decimal after those that are, by bytes.
inline bool number_text_less(const std::string& a, const std::string& b) {
  const auto x = backend::Decimal::parse(a);
  const auto y = backend::Decimal::parse(b);
  if (x && y) return compare(*x, *y) < 0;
  if (x || y) return x.has_value();
  return a < b;
}
inline bool number_text_equal(const std::string& a, const std::string& b) {
  const auto x = backend::Decimal::parse(a);
  const auto y = backend::Decimal::parse(b);
  return x && y ? *x == *y : a == b;
}
}  // namespace detail

inline AttributeValue AttributeValue::from_number_set(std::vector<std::string> decimal_texts) {
  AttributeValue v;
  v.kind = Kind::number_set;
  std::sort(decimal_texts.begin(), decimal_texts.end(), detail::number_text_less);
  decimal_texts.erase(
      std::unique(decimal_texts.begin(), decimal_texts.end(), detail::number_text_equal),
      decimal_texts.end());
  v.set = std::move(decimal_texts);
  return v;
}
inline AttributeValue AttributeValue::from_binary_set(std::vector<std::string> byte_strings) {
  AttributeValue v = from_set(std::move(byte_strings));  // std::string orders bytes unsigned
  v.kind = Kind::binary_set;
  return v;
}

inline const AttributeValue* AttributeValue::find(std::string_view name) const noexcept {
  for (const auto& [key, value] : map) {
    if (key == name) return &value;
  }
  return nullptr;
}
inline AttributeValue* AttributeValue::find(std::string_view name) noexcept {
  return const_cast<AttributeValue*>(std::as_const(*this).find(name));
}
inline AttributeValue& AttributeValue::assign(std::string_view name, AttributeValue value) {
  if (AttributeValue* existing = find(name)) return *existing = std::move(value);
  return map.emplace_back(Member{std::string(name), std::move(value)}).second;
}
inline bool AttributeValue::erase(std::string_view name) {
  const auto it =
      std::find_if(map.begin(), map.end(), [&](const Member& m) { return m.first == name; });
  if (it == map.end()) return false;
  map.erase(it);
  return true;
}

inline bool operator==(const AttributeValue& a, const AttributeValue& b) {
  using Kind = AttributeValue::Kind;
  if (a.kind != b.kind) {
    if (a.kind == Kind::string_set && b.kind == Kind::list) return b.as_string_set() == a;
    if (a.kind == Kind::list && b.kind == Kind::string_set) return a.as_string_set() == b;
    return false;
  }
  switch (a.kind) {
    case Kind::null:
      return true;
    case Kind::boolean:
      return a.boolean == b.boolean;
    case Kind::number: {
      const auto x = backend::Decimal::parse(a.text);
      const auto y = backend::Decimal::parse(b.text);
      return x && y ? *x == *y : a.text == b.text;
    }
    case Kind::string:
    case Kind::binary:
      return a.text == b.text;
    case Kind::list:
      return a.list == b.list;
    case Kind::map:
      if (a.map.size() != b.map.size()) return false;
      for (const auto& [key, value] : a.map) {
        const AttributeValue* other = b.find(key);
        if (other == nullptr || !(*other == value)) return false;
      }
      return true;
    case Kind::string_set:
    case Kind::binary_set:
      return a.set == b.set;
    case Kind::number_set:
      return std::equal(a.set.begin(), a.set.end(), b.set.begin(), b.set.end(),
                        detail::number_text_equal);
  }
  return false;
}

inline AttributeValue AttributeValue::as_string_set() const {
  if (kind == Kind::string_set) return *this;
  if (kind != Kind::list) return {};
  std::vector<std::string> strings;
  for (const AttributeValue& e : list) {
    if (e.kind != Kind::string) return {};
    strings.push_back(e.text);
  }
  AttributeValue s = from_set(std::move(strings));
  // A list with a repeated string is no set.
  return s.set.size() == list.size() ? s : AttributeValue{};
}

const char* to_string(AttributeValue::Kind kind) noexcept;

// DynamoDB's name of the type: "S", "N", "NULL"...
// Throws: nothing.
// Exception safety: nothrow.
inline const char* to_string(AttributeValue::Kind kind) noexcept {
  using Kind = AttributeValue::Kind;
  switch (kind) {
    case Kind::null:
      return "NULL";
    case Kind::boolean:
      return "BOOL";
    case Kind::number:
      return "N";
    case Kind::string:
      return "S";
    case Kind::list:
      return "L";
    case Kind::map:
      return "M";
    case Kind::string_set:
      return "SS";
    case Kind::binary:
      return "B";
    case Kind::number_set:
      return "NS";
    case Kind::binary_set:
      return "BS";
  }
  return "?";
}

// ------------------------------------------------------------------------ DynamoDB item size

// An attribute value's size as DynamoDB measures it: strings by UTF-8 bytes, binary by its
// bytes, numbers by
// significant digits (1 byte per two, plus 1), booleans and null 1 byte, lists and maps 3 bytes
// plus 1 per element plus their elements (and, for maps, the names), sets their elements.
// Throws: nothing.
// Exception safety: nothrow.
inline std::size_t number_size(std::string_view decimal_text) {
  // Counted in the text: a backend::Decimal would allocate its digits for every number of every
  // update. Plain notation ("-12.50"), the form numbers are stored in, in one pass: the digits
  // from the first nonzero to the last.
  std::size_t i = !decimal_text.empty() && decimal_text.front() == '-' ? 1 : 0;
  std::size_t position = 0, first = std::string_view::npos, last = 0;
  bool point = false;
  for (; i < decimal_text.size(); ++i) {
    const char c = decimal_text[i];
    if (c >= '1' && c <= '9') {
      if (first == std::string_view::npos) first = position;
      last = position++;
    } else if (c == '0') {
      ++position;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (i == decimal_text.size() && position != 0) {
    const std::size_t digits = first == std::string_view::npos ? 1 : last - first + 1;
    return (digits + 1) / 2 + 1;
  }
  const std::size_t digits =
      backend::Decimal::well_formed(decimal_text)
          ? std::max<std::size_t>(1, backend::Decimal::shape(decimal_text).digits)
          : decimal_text.size();
  return (digits + 1) / 2 + 1;
}

// The size of a value by DynamoDB's measure (see number_size).
// Throws: nothing.
// Exception safety: nothrow.
inline std::size_t attribute_size(const AttributeValue& v) {
  using Kind = AttributeValue::Kind;
  switch (v.kind) {
    case Kind::null:
    case Kind::boolean:
      return 1;
    case Kind::number:
      return number_size(v.text);
    case Kind::string:
    case Kind::binary:  // its bytes, not their base64
      return v.text.size();
    case Kind::list: {
      std::size_t n = 3;
      for (const AttributeValue& e : v.list) n += 1 + attribute_size(e);
      return n;
    }
    case Kind::map: {
      std::size_t n = 3;
      for (const auto& [key, e] : v.map) n += 1 + key.size() + attribute_size(e);
      return n;
    }
    case Kind::string_set:
    case Kind::binary_set: {
      std::size_t n = 0;
      for (const std::string& s : v.set) n += s.size();
      return n;
    }
    case Kind::number_set: {
      std::size_t n = 0;
      for (const std::string& s : v.set) n += number_size(s);
      return n;
    }
  }
  return 0;
}

// The size of an item's attributes (a map value): names plus values, without map overhead.
// Throws: nothing.
// Exception safety: nothrow.
inline std::size_t attributes_size(const AttributeValue& item) {
  std::size_t n = 0;
  for (const auto& [name, value] : item.map) n += name.size() + attribute_size(value);
  return n;
}

}  // namespace pksk
