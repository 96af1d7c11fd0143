// SPDX-License-Identifier: BSL-1.0
#pragma once
// Key members read back from an item's keys: a table written by another tool often keeps an
// id only in its keys (PK "CUSTOMER#c1", SK "#ORDER#o9", no CustomerId attribute), and an entity
// that does not store its key members (Entity<T>::store_key_members = false) never has them in
// its body. A key member the body lacks is parsed out of the partition or sort key by inverting
// its template: the literals must match, and a field ends where its template says (a sort-key
// integer after its fixed width, any other field at the first byte of the literal that follows
// it, or at the key's end), which key formatting makes unambiguous (key.hpp).
//
// A field with a format spec cannot be read back (but "{seq:number}", the number itself):
// "{at:month}" keeps only part of the time,
// "{id:shard(8)}" a hash of the value. A member formatted only so is always stored.
//
// The keys of an index are read back too: an item read through a KEYS_ONLY or INCLUDE index
// holds the table's keys and the index's, and a member only the index's templates have (a
// term in "TERM#{term}") is parsed out of the index's key attributes, which the row's keys
// source looks up in the item (IndexKeySource).

#include <charconv>
#include <concepts>
#include <cstddef>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/config.hpp"
#include "../detail/iso8601.hpp"
#include "../detail/std_traits.hpp"
#include "../error.hpp"
#include "../reflect/enum_name.hpp"
#include "entity.hpp"
#include "index.hpp"
#include "key.hpp"

namespace pksk::detail {

// Whether a field formatted so parses back into its member's value: with no format spec, or as
// a number ("{seq:number}").
constexpr bool spec_reads_back(KeySpec spec) noexcept {
  return spec == KeySpec::none || spec == KeySpec::number;
}

// Whether a template's segments format member `field` so that it parses back.
template <class Segments>
constexpr bool formats_readably(const Segments& segments, std::size_t field) noexcept {
  for (const auto& s : segments) {
    if (s.kind == SegmentKind::field && s.field == field && spec_reads_back(s.spec.spec))
      return true;
  }
  return false;
}

// Whether a template's segments format, so that it parses back, a member set in `members`.
template <class Segments, class Mask>
constexpr bool reads_back_any(const Segments& segments, const Mask& members) noexcept {
  for (const auto& s : segments) {
    if (s.kind == SegmentKind::field && spec_reads_back(s.spec.spec) && members.test(s.field))
      return true;
  }
  return false;
}

// Whether member `index` of T is formatted, with no format spec (or as a number), into its
// partition or sort key and has a type whose key text parses back (a std::string_view member
// would point into the key's buffer, so it does not).
template <EntityType T>
constexpr bool key_member_readable(std::size_t index) noexcept {
  return formats_readably(partition_key_template<T>::segments, index) ||
         formats_readably(sort_key_template<T>::segments, index);
}

template <EntityType T>
inline constexpr auto readable_key_members_v = [] {
  KeyMemberList<key_members_v<T>.index.size()> out;
  for (std::size_t i = 0; i < key_members_v<T>.count; ++i) {
    const std::size_t index = key_members_v<T>.index[i];
    if (key_member_readable<T>(index)) out.index[out.count++] = index;
  }
  return out;
}();

// Entity<T>::store_key_members = false: the members read back from the keys are not stored as
// attributes too (an item costs what its bytes cost). Default true: they are, as every table
// expects whose other readers look for them.
template <class T>
inline constexpr bool stores_key_members_v = [] {
  if constexpr (requires { Entity<T>::store_key_members; }) {
    return static_cast<bool>(Entity<T>::store_key_members);
  } else {
    return true;
  }
}();

// Whether member `index` of record T is left out of its stored attributes: a key member read
// back from the keys, of an entity that does not store them.
template <class T>
constexpr bool omits_member(std::size_t index) noexcept {
  if constexpr (EntityType<T>) {
    if constexpr (!stores_key_members_v<T>) return key_member_readable<T>(index);
  }
  (void)index;
  return false;
}

// The key members T stores as attributes too (all of key_members_v but those omitted): what
// an update sets besides its actions, so that an item it creates has them.
template <EntityType T>
inline constexpr auto stored_key_members_v = [] {
  KeyMemberList<key_members_v<T>.index.size()> out;
  for (std::size_t i = 0; i < key_members_v<T>.count; ++i) {
    if (!omits_member<T>(key_members_v<T>.index[i]))
      out.index[out.count++] = key_members_v<T>.index[i];
  }
  return out;
}();

// Whether member `field` of T is formatted, with no format spec, into the keys of T's index I.
template <EntityType T, std::size_t I>
constexpr bool index_member_readable(std::size_t field) noexcept {
  return formats_readably(index_partition_key_template<T, I>::segments, field) ||
         formats_readably(index_sort_key_template<T, I>::segments, field);
}

// The members read back from T's index keys alone: those some index's templates format with
// no spec and the table's keys do not give.
template <EntityType T>
inline constexpr auto readable_index_members_v = [] {
  KeyMemberList<field_count_v<T>> out;
  for (std::size_t field = 0; field < field_count_v<T>; ++field) {
    bool readable = false;
    for_each_index<T>([&](auto i) {
      readable = readable || index_member_readable<T, decltype(i)::value>(field);
    });
    if (readable && !key_member_readable<T>(field)) out.index[out.count++] = field;
  }
  return out;
}();

// The members a decode looks for in the body before it reads the missing ones back: the table's
// readable key members, and with WithIndexes those of the index keys too.
template <EntityType T, bool WithIndexes>
inline constexpr auto read_back_members_v = [] {
  KeyMemberList<field_count_v<T>> out;
  for (std::size_t i = 0; i < readable_key_members_v<T>.count; ++i)
    out.index[out.count++] = readable_key_members_v<T>.index[i];
  if constexpr (WithIndexes) {
    for (std::size_t i = 0; i < readable_index_members_v<T>.count; ++i)
      out.index[out.count++] = readable_index_members_v<T>.index[i];
  }
  return out;
}();

// Whether every key member that can be read back is in `seen` (the members a body had): the
// one test a decode pays when the body has them all.
template <EntityType T, bool WithIndexes = false, class Mask>
[[gnu::always_inline]] inline bool key_members_seen(const Mask& seen) noexcept {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (seen.test(read_back_members_v<T, WithIndexes>.index[I]) && ...);
  }(std::make_index_sequence<read_back_members_v<T, WithIndexes>.count>{});
}

// One field's key text parsed back into its member: the inverse of append_component.
template <class F>
bool parse_component(std::string_view text, KeyRole role, F& out) {
  if (text.empty()) return false;
  if constexpr (is_optional_v<F>) {
    // A sparse index's member: an item that has the index's keys has a value.
    typename F::value_type value{};
    if (!parse_component(text, role, value)) return false;
    out = std::move(value);
    return true;
  } else if constexpr (KeyConverted<F>) {
    try {
      out = pksk::Value<F>::from(std::string(text));
    } catch (const std::exception&) {
      return false;  // not a key this template wrote
    }
    return true;
  } else if constexpr (std::is_same_v<F, std::string>) {
    out.assign(text);
    return true;
  } else if constexpr (KeyInteger<F>) {
    const char* const end = text.data() + text.size();
    if (role == KeyRole::sort) {
      using U = std::make_unsigned_t<F>;
      U bits{};
      const auto [at, error] = std::from_chars(text.data(), end, bits);
      if (error != std::errc{} || at != end || text[0] == '-') return false;
      if constexpr (std::is_signed_v<F>) {
        bits = static_cast<U>(bits ^ static_cast<U>(U{1} << (std::numeric_limits<U>::digits - 1)));
      }
      out = static_cast<F>(bits);
      return true;
    } else {
      const auto [at, error] = std::from_chars(text.data(), end, out);
      return error == std::errc{} && at == end;
    }
  } else if constexpr (KeyEnum<F>) {
    const std::optional<F> e = enum_from_name<F>(text);
    if (e) out = *e;
    return e.has_value();
  } else if constexpr (KeyTime<F>) {
    return parse_iso8601(text, out);
  } else {
    return false;  // std::string_view: not readable (key_member_readable)
  }
}

// Where the field segment I of Template ends in `key`, the field starting at `from`; npos
// when the key is too short.
template <class Template, std::size_t I>
std::size_t field_end(std::string_view key, std::size_t from) noexcept {
  constexpr CompiledSegment s = Template::segments[I];
  using T = typename Template::entity_type;
  using F = key_field_value_t<field_type_t<T, s.field>>;
  constexpr bool sort = Template::role == KeyRole::sort;
  std::size_t width = 0;
  if constexpr (s.spec.spec == KeySpec::shard && sort) {
    width = static_cast<std::size_t>(shard_width(s.spec.shards));
  } else if constexpr (s.spec.spec == KeySpec::none && KeyInteger<F> && sort) {
    width = static_cast<std::size_t>(sortable_width_v<std::make_unsigned_t<F>>);
  }
  if (width != 0) return from + width <= key.size() ? from + width : std::string_view::npos;
  if constexpr (s.next < 0) {
    return key.size();
  } else {
    const std::size_t end = find_char(key, static_cast<char>(s.next), from);
    return end == std::string_view::npos ? key.size() : end;
  }
}

// Walks `key` by Template: its literals must be where the template has them, and each field's
// text (a segment constant and a string_view) goes to on_field, which returns false to reject
// it. False when the key does not have the template's shape.
template <class Template, class OnField>
bool walk_key_fields(std::string_view key, OnField&& on_field) {
  std::size_t at = 0;
  bool ok = true;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (void)((ok =
                [&] {
                  constexpr CompiledSegment s = Template::segments[I];
                  if constexpr (s.kind == SegmentKind::literal) {
                    const std::string_view literal = Template::text.substr(s.pos, s.len);
                    if (key.substr(at, literal.size()) != literal) return false;
                    at += literal.size();
                    return true;
                  } else {
                    const std::size_t end = field_end<Template, I>(key, at);
                    // What formatting refuses to write (a '#' in a text, ...) no key holds.
                    if (end == std::string_view::npos ||
                        check_component(key.substr(at, end - at), s.next) != ComponentError::none ||
                        !on_field(std::integral_constant<std::size_t, I>{},
                                  key.substr(at, end - at)))
                      return false;
                    at = end;
                    return true;
                  }
                }()) &&
           ...);
  }(std::make_index_sequence<Template::segments.size()>{});
  return ok && at == key.size();
}

// Parses `key` by Template, assigning the fields of the members set in `wanted`; false when
// the key does not have the template's shape.
template <class Template, class T, class Mask>
bool read_back_fields(std::string_view key, T& out, const Mask& wanted) {
  return walk_key_fields<Template>(key, [&]<std::size_t I>(std::integral_constant<std::size_t, I>,
                                                           std::string_view text) {
    constexpr CompiledSegment s = Template::segments[I];
    if constexpr (spec_reads_back(s.spec.spec)) {
      // A number is plain decimal, as an integer in a partition key is.
      constexpr KeyRole role = s.spec.spec == KeySpec::number ? KeyRole::partition : Template::role;
      if (wanted.test(s.field) && !parse_component(text, role, get_field<s.field>(out)))
        return false;
    }
    return true;
  });
}

// Whether `sk` is a key T's sort-key template can produce: how an item stored without a type
// (a table whose TableOptions::type_attribute is "", or an item another tool wrote without
// one) is known to be a T. The digits of a sort-key integer are checked; other fields' text
// only by the rules every key field follows.
template <EntityType T>
bool sort_key_matches(std::string_view sk) {
  using S = sort_key_template<T>;
  return walk_key_fields<S>(
      sk, []<std::size_t I>(std::integral_constant<std::size_t, I>, std::string_view text) {
        constexpr CompiledSegment s = S::segments[I];
        using F = key_field_value_t<field_type_t<T, s.field>>;
        if constexpr ((s.spec.spec == KeySpec::none && KeyInteger<F>) ||
                      s.spec.spec == KeySpec::shard) {
          for (const char c : text) {
            if (c < '0' || c > '9') return false;
          }
        } else if constexpr (s.spec.spec == KeySpec::number) {
          F value{};
          return parse_component(text, KeyRole::partition, value);
        }
        return true;
      });
}

// Whether a stored item (an ItemView) is a T: its type says so, or it has none and its sort key
// matches T's template (apart, so that a typed item's test is one comparison).
template <EntityType T, class Row>
[[gnu::cold, gnu::noinline]] bool stored_untyped_as(const Row& row) {
  return row.type.empty() && sort_key_matches<T>(row.sort_key());
}

template <EntityType T, class Row>
[[gnu::always_inline]] inline bool stored_as(const Row& row) {
  return row.type == type_name_v<T> || stored_untyped_as<T>(row);
}

// The type of the first of Ts whose sort-key template `sk` matches; empty when none does.
template <class... Ts>
std::string_view type_of_sort_key(std::string_view sk) {
  std::string_view type;
  (void)((sort_key_matches<Ts>(sk) && (type = type_name_v<Ts>, true)) || ...);
  return type;
}

// DecodeError: a key that does not have its template's shape, so that the members an item does
// not store cannot be read from it; `index` names the index whose key it is (empty: the table).
[[noreturn]] PKSK_DECL void throw_key_shape_error(std::string_view entity,
                                                  std::string_view key_template, KeyRole role,
                                                  std::string_view key,
                                                  std::string_view index = {});

// ValidationError: a condition, filter or update path names a member its entity keeps only in
// its keys (store_key_members = false), which is no attribute: a condition on it would never
// hold.
[[noreturn]] PKSK_DECL void throw_member_not_stored(std::string_view entity,
                                                    std::string_view member);

// The key members set in `missing` read back from the item's keys: DecodeError when a key
// does not have its template's shape.
template <EntityType T, class Mask>
[[gnu::cold, gnu::noinline]] void read_back_key_members(std::string_view pk, std::string_view sk,
                                                        T& out, const Mask& missing) {
  using P = partition_key_template<T>;
  using S = sort_key_template<T>;
  const auto needs = [&](const auto& segments) { return reads_back_any(segments, missing); };
  if (needs(P::segments) && !read_back_fields<P>(pk, out, missing))
    throw_key_shape_error(Entity<T>::type, P::text, KeyRole::partition, pk);
  if (needs(S::segments) && !read_back_fields<S>(sk, out, missing))
    throw_key_shape_error(Entity<T>::type, S::text, KeyRole::sort, sk);
}

// What gives a row's index keys besides its table keys (table/detail/indexed_row.hpp):
// index_keys(name, pk, sk) assigns the item's keys in T's index `name` and is false when the
// item does not hold them (not in the index, or read through another index that does not
// project them); read_through() names the index the item was read through ("": the table).
template <class Keys>
concept IndexKeySource = requires(const Keys& keys, std::string& pk, std::string& sk) {
  { keys.index_keys(std::string_view(), pk, sk) } -> std::same_as<bool>;
  { keys.read_through() } -> std::same_as<std::string_view>;
};

// The members set in `missing` that T's index I formats, read back from the item's keys in that
// index when it holds them, and cleared from `missing`: DecodeError when a key does not have its
// template's shape.
template <EntityType T, std::size_t I, class Keys, class Mask>
void read_back_index_fields(const Keys& keys, T& out, Mask& missing) {
  using P = index_partition_key_template<T, I>;
  using S = index_sort_key_template<T, I>;
  const auto needs = [&](const auto& segments) { return reads_back_any(segments, missing); };
  const bool in_pk = needs(P::segments);
  const bool in_sk = needs(S::segments);
  if (!in_pk && !in_sk) return;
  constexpr std::string_view name = indexes_v<T>[I].name;
  std::string pk, sk;
  if (!keys.index_keys(name, pk, sk)) return;
  if (in_pk && !read_back_fields<P>(pk, out, missing))
    throw_key_shape_error(Entity<T>::type, P::text, KeyRole::partition, pk, name);
  if (in_sk && !read_back_fields<S>(sk, out, missing))
    throw_key_shape_error(Entity<T>::type, S::text, KeyRole::sort, sk, name);
  for (std::size_t field = 0; field < field_count_v<T>; ++field) {
    if (index_member_readable<T, I>(field)) missing.reset(field);
  }
}

// The members only T's index keys give that the body lacked (`seen`), read back from the index
// keys the item holds: those of the index it was read through (which holds a value for each of
// its members), or from the table those of any index, but for optional members, whose absence
// means an empty optional (it is left out of a body) far more often than a missing attribute.
template <EntityType T, class Keys, class Mask>
void read_back_index_members(const Keys& keys, T& out, const Mask& seen) {
  Mask missing;
  for (std::size_t i = 0; i < readable_index_members_v<T>.count; ++i) {
    const std::size_t field = readable_index_members_v<T>.index[i];
    if (!seen.test(field)) missing.set(field);
  }
  const std::string_view through = keys.read_through();
  if (through.empty()) {
    [&]<std::size_t... F>(std::index_sequence<F...>) {
      ((is_optional_v<field_type_t<T, F>> ? void(missing.reset(F)) : void()), ...);
    }(std::make_index_sequence<field_count_v<T>>{});
  }
  for_each_index<T>([&](auto i) {
    constexpr std::size_t I = decltype(i)::value;
    if (missing.any() && (through.empty() || through == indexes_v<T>[I].name))
      read_back_index_fields<T, I>(keys, out, missing);
  });
}

// Keys a caller has in hand, for complete_key_members.
struct KnownKeys {
  std::string_view pk;
  std::string_view sk;
  std::string_view partition_key() const noexcept { return pk; }
  std::string_view sort_key() const noexcept { return sk; }
};

// No keys to read from (a caller of ItemCollection's builder that gives none): the members
// stay as the body left them.
struct NoKeys {};

// complete_key_members' work when the body lacked a member it looks for: apart, so that the
// decode of an item that has them all carries none of it.
template <EntityType T, class Mask, class Keys>
[[gnu::cold, gnu::noinline]] void complete_missing_key_members(const Keys& row, T& out,
                                                               const Mask& seen) {
  Mask missing;
  for (std::size_t i = 0; i < readable_key_members_v<T>.count; ++i) {
    if (!seen.test(readable_key_members_v<T>.index[i]))
      missing.set(readable_key_members_v<T>.index[i]);
  }
  if (missing.any()) read_back_key_members(row.partition_key(), row.sort_key(), out, missing);
  if constexpr (IndexKeySource<Keys>) {
    if constexpr (readable_index_members_v<T>.count != 0) read_back_index_members(row, out, seen);
  }
}

// After a decode that returned `seen`: the readable key members the body lacked, read from
// the keys `row` gives (partition_key(), sort_key(): read only then), and for a row that gives
// its index keys (IndexKeySource) the members only they hold.
template <EntityType T, class Mask, class Keys>
[[gnu::always_inline]] inline void complete_key_members(const Keys& row, T& out, const Mask& seen) {
  if constexpr (std::is_same_v<Keys, NoKeys>) {
    (void)row, (void)out, (void)seen;
  } else if (!key_members_seen<T, IndexKeySource<Keys>>(seen)) [[unlikely]] {
    complete_missing_key_members(row, out, seen);
  }
}

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/read_back.ipp"
#endif
