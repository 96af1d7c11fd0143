// SPDX-License-Identifier: BSL-1.0
#pragma once
// Keys of entities: the partition key and sort key of an item, formatted from its key templates
// (Entity<T>::pk and ::sk). The checks an ItemCollection's members must pass are in
// collection_rules.hpp.
//
// Template syntax: literal text and {member} fields. '{' without '}', '}' without '{', an
// empty '{}', a field naming no member and two adjacent fields ("{a}{b}", ambiguous) are
// compile errors, one per mistake, whose error line names the rule, the entity and the text
// (pksk/detail/diagnose.hpp).
//
// Formatting rules, per field of a template:
// - std::string (or std::string_view): the value verbatim. It must be non-empty, valid UTF-8
//   (no overlongs, surrogates or code points above U+10FFFF), free of NUL, of the delimiter '#'
//   and of the first character of the literal that follows the field in the template; otherwise
//   KeyError, naming the entity's type, the field and the (escaped) value. These rules make a
//   key parse back unambiguously, so that no value can forge another item's key.
// - integers: in a partition key, plain decimal ("CUSTOMER#-42"). In a sort key, fixed width so
//   that byte order is numeric order: the value is zero-padded to the number of digits of the
//   maximum of its unsigned type of the same width (uint8_t 3, uint16_t 5, uint32_t 10,
//   uint64_t 20 digits); a signed value is first written as offset binary, value - min as the
//   unsigned type of the same width (int8_t -128 -> "000", 0 -> "128", 127 -> "255").
// - enums: the enumerator's name; KeyError for a value that has none.
// - bool, character, floating-point and other types cannot be key fields (compile error).

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "detail/template.hpp"
#include "entity.hpp"

namespace pksk {

// DynamoDB's limits on key sizes in bytes (UTF-8); a longer key is a KeyError when formatted.
inline constexpr std::size_t max_partition_key_size = detail::max_partition_key_size;
// 1,024 bytes: DynamoDB's limit on a sort key (see max_partition_key_size).
inline constexpr std::size_t max_sort_key_size = detail::max_sort_key_size;

// A partition key's text: what a query over an item collection is given.
struct PartitionKey {
  // The key as stored, "CUSTOMER#123".
  std::string value;

  friend bool operator==(const PartitionKey&, const PartitionKey&) = default;
};

namespace detail {

template <EntityType T>
inline constexpr fixed_string<std::string_view(Entity<T>::pk).size()> pk_text_v{
    std::string_view(Entity<T>::pk)};

// An entity without a sort key has the empty template: its items' sort key is "", which a
// table without a sort key never stores.
template <EntityType T>
inline constexpr std::string_view sk_view_v = [] {
  if constexpr (declares_sort_key<T>) {
    return std::string_view(Entity<T>::sk);
  } else {
    return std::string_view{};
  }
}();

template <EntityType T>
inline constexpr fixed_string<sk_view_v<T>.size()> sk_text_v{sk_view_v<T>};

template <EntityType T>
inline constexpr fixed_string<std::string_view(Entity<T>::type).size()> type_text_v{
    std::string_view(Entity<T>::type)};

template <EntityType T>
using partition_key_template = KeyTemplate<T, pk_text_v<T>, KeyRole::partition>;

template <EntityType T>
using sort_key_template = KeyTemplate<T, sk_text_v<T>, KeyRole::sort>;

}  // namespace detail

// Assigns T's partition key into out, reusing its capacity. Throws KeyError (see above), after
// which out's content is unspecified.
// Throws: KeyError if a key member's value cannot be part of a key.
// Exception safety: basic: on a KeyError, out holds unspecified text.
template <EntityType T>
void format_partition_key(const T& record, std::string& out) {
  detail::partition_key_template<T>::format(record, out);
}

// Assigns T's sort key into out, reusing its capacity. Throws KeyError (see above), after which
// out's content is unspecified.
// Throws: KeyError if a key member's value cannot be part of a key.
// Exception safety: basic: on a KeyError, out holds unspecified text.
template <EntityType T>
void format_sort_key(const T& record, std::string& out) {
  detail::sort_key_template<T>::format(record, out);
}

// The partition key of `record` by Entity<T>::pk (only its key members are read):
// partition(Customer{.id = "123"}) is "CUSTOMER#123".
// Throws: KeyError if a key member's value cannot be part of a key (see above).
// Exception safety: strong.
template <EntityType T>
PartitionKey partition(const T& record) {
  PartitionKey key;
  format_partition_key(record, key.value);
  return key;
}

// sort_key(record): the item's sort key. `sort_key` is an object, so that it also names the
// sort key attribute in filters: contains(pksk::sort_key, "#inventory::") (expr/filter.hpp).
struct SortKeyTag {
  // The sort key of `record` by Entity<T>::sk.
  // Throws: KeyError if a key member's value cannot be part of a key.
  // Exception safety: strong.
  template <EntityType T>
  std::string operator()(const T& record) const {
    std::string key;
    format_sort_key(record, key);
    return key;
  }
};
// sort_key(record), and the sort key attribute in filters (see SortKeyTag).
inline constexpr SortKeyTag sort_key{};

namespace detail {
// Whether member `index` of T appears in its partition- or sort-key template.
template <EntityType T>
constexpr bool is_key_member(std::size_t index) noexcept {
  for (const auto& s : partition_key_template<T>::segments) {
    if (s.kind == SegmentKind::field && s.field == index) return true;
  }
  for (const auto& s : sort_key_template<T>::segments) {
    if (s.kind == SegmentKind::field && s.field == index) return true;
  }
  return false;
}

// Field Index's name as a template argument, for diagnostics.
template <class T, std::size_t Index>
inline constexpr fixed_string<field_names_v<T>[Index].size()> field_name_text_v{
    field_names_v<T>[Index]};

// The members T's key templates are formatted from, each once, in the order they first appear.
template <std::size_t N>
struct KeyMemberList {
  std::array<std::size_t, N> index{};
  std::size_t count = 0;
};

template <EntityType T>
inline constexpr auto key_members_v = [] {
  constexpr auto& pk = partition_key_template<T>::segments;
  constexpr auto& sk = sort_key_template<T>::segments;
  KeyMemberList<pk.size() + sk.size()> out;
  const auto take = [&](const auto& segments) {
    for (const auto& s : segments) {
      if (s.kind != SegmentKind::field) continue;
      bool seen = false;
      for (std::size_t i = 0; i < out.count; ++i) seen = seen || out.index[i] == s.field;
      if (!seen) out.index[out.count++] = s.field;
    }
  };
  take(pk);
  take(sk);
  return out;
}();
}  // namespace detail

// Whether T's sort key is a number ("{seq:number}"): its items belong in a table whose sort key
// is one (TableOptions::sk_type = KeyType::number).
template <EntityType T>
inline constexpr bool sort_key_is_number_v = [] {
  constexpr auto& segments = detail::sort_key_template<T>::segments;
  if constexpr (segments.size() == 1) {
    return segments[0].spec.spec == detail::KeySpec::number;
  } else {
    return false;
  }
}();

// The literal text of T's sort-key template before its first field ("#ORDER#" for
// "#ORDER#{order_id}", the whole template when it has no field, "" when it starts with a
// field): the begins_with prefix of a query for T alone. Reading `diagnosed` reports a bad
// template where its prefix is first used; such a template then has no prefix, as it has no
// segments, so that its error is the only one.
template <EntityType T>
inline constexpr std::string_view sort_key_prefix_v =
    detail::sort_key_template<T>::diagnosed ? detail::sort_key_template<T>::prefix
                                            : std::string_view{};

// The literal prefix of T's partition-key template, likewise.
template <EntityType T>
inline constexpr std::string_view partition_key_prefix_v =
    detail::partition_key_template<T>::diagnosed ? detail::partition_key_template<T>::prefix
                                                 : std::string_view{};

// True when A's and B's partition-key templates have the same literal text and the same number
// and order of fields, whatever the fields' names: their items can share partitions.
template <EntityType A, EntityType B>
inline constexpr bool same_partition_shape_v =
    detail::same_key_shape<detail::pk_text_v<A>, detail::pk_text_v<B>>();

}  // namespace pksk
