// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a query asks for (QueryOptions), where a page stops (Cursor) and what it returns (Page).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../detail/diagnose.hpp"
#include "../error.hpp"
#include "../expr/filter.hpp"
#include "../key/condition.hpp"
#include "../key/entity.hpp"
#include "../key/stored_names.hpp"
#include "../key/typed_key_condition.hpp"
#include "../model/collection.hpp"
#include "../reflect/reflect.hpp"
#include "detail/base64url.hpp"
#include "detail/chunks.hpp"

namespace pksk {

// The last evaluated key of a page: where the next page starts, exclusively, in the table,
// index and partition named. Its text form is opaque and URL-safe; it carries a checksum so
// that a token altered in transit or by hand is rejected rather than silently starting
// somewhere else, and, from a table with a cursor_key, an HMAC-SHA256 of its fields, so that
// a client cannot steer a query by editing its cursor (TableOptions::cursor_key).
struct Cursor {
  std::string index{};  // empty for the table itself
  std::string pk{};     // the partition key: of the index, for an index's cursor
  std::string sk{};     // the sort key: of the index, for an index's cursor
  // The table the cursor came from: a cursor of another table is refused.
  std::string table{};
  std::string signature{};  // 32 bytes of HMAC-SHA256 from a table with a cursor_key, or empty
  // An index's cursor: the table key of the last item, since many items may share one index
  // key (DynamoDB's LastEvaluatedKey of an index query holds both keys too). Empty otherwise.
  std::string item_pk{};
  // The table sort key of the last item, for an index's cursor (see item_pk).
  std::string item_sk{};

  // The cursor as an opaque, URL-safe token, checksummed (and signed, with signature).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  std::string to_string() const;
  // The cursor a token from to_string() holds. Its signature is checked when a query uses it.
  // Throws: ValidationError if the token is not one (not base64url, too short, a checksum that does
  // not match, an unknown version or flags, truncated or trailing bytes).
  // Exception safety: strong.
  static Cursor parse(std::string_view token);
  // What the signature covers: every field but the signature, unambiguously.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  std::string signed_bytes() const;

  friend bool operator==(const Cursor&, const Cursor&) = default;
};

namespace diagnostics {
// `.select = pksk::members(&Customer::name)` on a query that reads no Customer.
template <class Query, class Entity>
struct select_names_a_member_of_an_entity_the_query_does_not_read;
// `.filter = pksk::attr(&Customer::name) == "x"` on a query that reads no Customer: the
// filter would hold for no item it reads.
template <class Query, class Entity>
struct filter_names_a_member_of_an_entity_the_query_does_not_read;
// `.sk = pksk::sort_key_of<Prescription>::eq<...>(...)` on a query that reads no Prescription:
// the key text is Prescription's, and would select none of the items the query keeps.
template <class Query, class Entity>
struct sort_key_condition_built_for_an_entity_the_query_does_not_read;
// `.filter = pksk::attr(&Reply::author) == "ada"` on ItemCollection<Thread, Reply> whose Reply
// is chunked (Entity<Reply>::chunked): the table holds a large Reply as a head without its
// members, so the filter, applied to the stored items, would drop it whatever its author.
template <class Collection, class ChunkedEntity>
struct filter_names_a_member_of_the_collections_chunked_entity;
}  // namespace diagnostics

// One member of a projection: its entity's type attribute and its field.
struct SelectedMember {
  std::string_view type;  // type_name_v<T>: static storage
  std::size_t index = 0;  // in field_names_v<T>
  std::string_view name;  // stored_names_v<T>[index]: static storage

  friend bool operator==(const SelectedMember&, const SelectedMember&) = default;
};

// What pksk::members(&T::a, &U::b) makes: the members to read, each with its entity.
template <class... Ts>
struct Members {
  // The members, in the order given.
  std::vector<SelectedMember> list;
};

// The members to read, for QueryOptions::select: pksk::members(&Customer::name, &Order::total).
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <class... Ts, class... Ms>
Members<Ts...> members(Ms Ts::*... member) {
  static_assert(sizeof...(Ts) > 0, "pksk: members() needs at least one member");
  static_assert((EntityType<Ts> && ...), "pksk: members() names members of entities");
  return {{SelectedMember{type_name_v<Ts>, detail::member_index(member),
                          stored_names_v<Ts>[detail::member_index(member)]}...}};
}

namespace detail {
template <class R, class T>
inline constexpr bool reads_entity_v = std::is_same_v<R, T>;
template <class... Us, class T>
inline constexpr bool reads_entity_v<ItemCollection<Us...>, T> = (std::is_same_v<Us, T> || ...);

template <class R, class T>
struct FilterCheck {
  static constexpr bool ok =
      diagnose_v<reads_entity_v<R, T>,
                 diagnostics::filter_names_a_member_of_an_entity_the_query_does_not_read<R, T>>;
};

template <class R, class T>
inline constexpr bool filters_chunked_member_v = false;
template <class... Us, class T>
inline constexpr bool filters_chunked_member_v<ItemCollection<Us...>, T> =
    reads_entity_v<ItemCollection<Us...>, T> && chunked_v<T>;

template <class R, class T>
struct ChunkedFilterCheck {
  static constexpr bool ok =
      diagnose_v<!filters_chunked_member_v<R, T>,
                 diagnostics::filter_names_a_member_of_the_collections_chunked_entity<R, T>>;
};

template <class R, class T>
struct SortKeyConditionCheck {
  static constexpr bool ok =
      diagnose_v<reads_entity_v<R, T>,
                 diagnostics::sort_key_condition_built_for_an_entity_the_query_does_not_read<R, T>>;
};

template <class R, class... Ts>
struct SelectCheck {
  static constexpr bool ok =
      (diagnose_v<reads_entity_v<R, Ts>,
                  diagnostics::select_names_a_member_of_an_entity_the_query_does_not_read<R, Ts>> &&
       ...);
};
}  // namespace detail

// The members a query of R reads and decodes (empty: all). Built from pksk::members(...): a
// member of an entity R does not read is a compile-time error (for R = void, the untyped
// QueryOptions, it is checked when the query runs).
template <class R>
class Selection {
 public:
  Selection() = default;
  // From pksk::members(...); a member of an entity R does not read is a compile-time error.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class... Ts>
  Selection(Members<Ts...> m)  // NOLINT(google-explicit-constructor): `.select = members(...)`
      : list_(std::move(m.list)) {
    if constexpr (!std::is_void_v<R>)
      static_assert(detail::checked_v<detail::SelectCheck<R, Ts...>>);
  }

  // Whether no member was selected: every member is read.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool empty() const noexcept { return list_.empty(); }
  // The members selected.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::vector<SelectedMember>& members() const noexcept { return list_; }

  // The untyped selection as one of R (the entities are checked when the query runs).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  template <class S>
  Selection<S> as() const {
    Selection<S> out;
    out.list_ = list_;
    return out;
  }

  friend bool operator==(const Selection&, const Selection&) = default;

 private:
  template <class>
  friend class Selection;
  std::vector<SelectedMember> list_;
};

// The filter of a query of R: a condition on the members of an entity R does not read is a
// compile-time error (for R = void, the untyped QueryOptions, it is not checked). A Filter made
// by combining conditions (&&, ||, !), or on the sort key or the type, is taken as it is.
template <class R>
class BasicFilter : public Filter {
 public:
  BasicFilter() = default;
  // A filter taken as it is: conditions combined with &&, || and !, or on the key or type.
  // Throws: nothing.
  // Exception safety: nothrow.
  BasicFilter(Filter filter)  // NOLINT(google-explicit-constructor): `.filter = a || b`
      : Filter(std::move(filter)) {}
  // A condition on a member of T; for a query of R, T must be an entity R reads (compile error).
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class T>
  BasicFilter(Expr<T> expr)  // NOLINT(google-explicit-constructor): `.filter = expr`
      : Filter(std::move(expr)) {
    if constexpr (!std::is_void_v<R>) {
      static_assert(detail::checked_v<detail::FilterCheck<R, T>>);
      if constexpr (detail::reads_entity_v<R, T>)
        static_assert(detail::checked_v<detail::ChunkedFilterCheck<R, T>>);
    }
  }
};

// The sort-key condition of a query of R, if any: a typed one (sort_key_of<T>) built for an
// entity R does not read is a compile-time error; the one of an untyped QueryOptions (R = void),
// and which index it was built for, are checked when the query runs.
template <class R>
class BasicSortKeyCondition : public std::optional<KeyCondition> {
 public:
  BasicSortKeyCondition() = default;
  // No condition: every item of the partition.
  // Throws: nothing.
  // Exception safety: nothrow.
  BasicSortKeyCondition(std::nullopt_t) {}  // NOLINT(google-explicit-constructor)
  // A condition given by hand (eq, between, ...), checked by no key space.
  // Throws: nothing (the condition is moved).
  // Exception safety: nothrow.
  BasicSortKeyCondition(KeyCondition condition)  // NOLINT(google-explicit-constructor)
      : std::optional<KeyCondition>(std::move(condition)) {}
  // A condition or none, as an untyped QueryOptions holds it.
  // Throws: nothing (the condition is moved).
  // Exception safety: nothrow.
  BasicSortKeyCondition(
      std::optional<KeyCondition> condition)  // NOLINT(google-explicit-constructor)
      : std::optional<KeyCondition>(std::move(condition)) {}
  // A sort_key_of<T> condition: T must be an entity R reads (one compile error naming both).
  // Throws: nothing (the condition is moved).
  // Exception safety: nothrow.
  template <class T, detail::fixed_string... IndexName>
  BasicSortKeyCondition(TypedKeyCondition<T, IndexName...> condition)  // NOLINT: `.sk = ...`
      : std::optional<KeyCondition>(std::move(condition)) {
    if constexpr (!std::is_void_v<R>)
      static_assert(detail::checked_v<detail::SortKeyConditionCheck<R, T>>);
  }
};

// The options of a query or scan of R, in this order: sk, forward, limit, start, filter,
// select, segment, segments, consistent, keep_undecodable, parallel, max_partitions. `{}` means
// all items, forward.
// BasicQueryOptions<R> (what query<R> takes) checks `filter` and `select` against R at compile
// time; QueryOptions (R = void) is the type to keep options in a variable, and converts to any R.
template <class R = void>
struct BasicQueryOptions {
  BasicSortKeyCondition<R> sk{};  // none: every item of the partition (or of the type)
  bool forward = true;            // sort-key order; false for newest first
  // Items evaluated, as DynamoDB's Limit, before the filter; 0 = no limit. In query() and
  // scan() a limit on the whole; in query_page(), scan_page() and each() on each page.
  std::size_t limit = 0;
  std::optional<Cursor> start{};  // resume after this key (a Page's next)
  // Applied to each item evaluated, before it is decoded: an item it rejects still counts
  // toward limit and the 1 MB page, as in DynamoDB.
  BasicFilter<R> filter{};
  // Only these members are read and decoded; the others keep their default values.
  Selection<R> select{};
  // Scans only: DynamoDB's parallel scan. segments = 0 (or 1) reads the whole table; otherwise
  // this call reads segment `segment` of `segments` (0-based), and the segments together hold
  // every item exactly once.
  std::size_t segment = 0;
  // How many segments the scan is cut into (see segment); 0 or 1: none.
  std::size_t segments = 0;
  // DynamoDB's ConsistentRead: every write answered before the read began is seen, at twice
  // the read capacity. Off (the default), a query or scan on DynamoDB may miss a write of the
  // last second. A global secondary index is only ever eventually consistent: a consistent
  // query on one is a ValidationError, as DynamoDB answers. The SQLite backend always reads
  // consistently.
  bool consistent = false;
  // ItemCollection reads: an item of a member type that does not decode (a number stored as a
  // string by another tool) goes to unknown(), its RawItem::error saying why, instead of
  // failing the read. False: the read throws DecodeError. An entity read, which has no
  // unknown(), refuses it (ValidationError).
  bool keep_undecodable = false;
  // Fan-out reads only (query_buckets, query_shards): how many partitions are read at once, on
  // threads the Table keeps. 0 (the default): 8 on DynamoDB, where each read is a round trip,
  // and 1 on SQLite, whose reads are local; 1: one partition after another.
  std::size_t parallel = 0;
  // Fan-out reads only: the most partitions one read may touch, each a request (at least) on
  // DynamoDB; more is a ValidationError before anything is read, so that ten years of daily
  // buckets are not 3,650 requests by accident. 0: no bound.
  std::size_t max_partitions = 1000;

  // The untyped options as those of a query of S; `select` and `filter` are checked when the query
  // runs.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  template <class S>
    requires(std::is_void_v<R> && !std::is_void_v<S>)
  operator BasicQueryOptions<S>() const {  // NOLINT(google-explicit-constructor)
    return {sk,         forward,
            limit,      start,
            filter,     select.template as<S>(),
            segment,    segments,
            consistent, keep_undecodable,
            parallel,   max_partitions};
  }
};

// The untyped options: the type to keep options in a variable; converts to any query's.
using QueryOptions = BasicQueryOptions<>;

// One page of a query or scan: its items, and the cursor to resume after it.
template <class Items>
struct Page {
  // The page's items (a vector of T, or an ItemCollection).
  Items items{};
  std::optional<Cursor> next{};  // empty on the last page

  friend bool operator==(const Page&, const Page&) = default;
};

namespace detail {

inline constexpr char cursor_version = 3;
inline constexpr char cursor_signed = 1;  // flag: a 32-byte signature follows the fields

inline std::uint32_t fnv1a(std::string_view bytes) noexcept {
  std::uint32_t hash = 2166136261u;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return hash;
}

inline void append_varint(std::string& out, std::size_t n) {
  do {
    const auto low = static_cast<unsigned char>(n & 0x7F);
    n >>= 7;
    out += static_cast<char>(n ? (low | 0x80) : low);
  } while (n);
}

[[noreturn]] inline void bad_cursor(std::string_view why) {
  throw ValidationError("pksk: not a valid cursor token (" + std::string(why) + ")");
}

class CursorReader {
 public:
  explicit CursorReader(std::string_view bytes) : bytes_(bytes) {}

  std::string read_field() {
    std::size_t length = 0;
    for (int shift = 0;; shift += 7) {
      if (at_ >= bytes_.size() || shift > 28) bad_cursor("truncated length");
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      length |= static_cast<std::size_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) break;
    }
    if (length > bytes_.size() - at_) bad_cursor("truncated key");
    std::string field(bytes_.substr(at_, length));
    at_ += length;
    return field;
  }
  bool done() const noexcept { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace detail

inline std::string Cursor::signed_bytes() const {
  std::string bytes;
  bytes.reserve(12 + index.size() + pk.size() + sk.size() + table.size() + item_pk.size() +
                item_sk.size());
  bytes += detail::cursor_version;
  for (const std::string* field : {&index, &pk, &sk, &table, &item_pk, &item_sk}) {
    detail::append_varint(bytes, field->size());
    bytes += *field;
  }
  return bytes;
}

inline std::string Cursor::to_string() const {
  std::string bytes = signed_bytes();
  bytes.insert(1, 1, signature.empty() ? char{0} : detail::cursor_signed);
  bytes += signature;
  const std::uint32_t sum = detail::fnv1a(bytes);
  for (int shift = 24; shift >= 0; shift -= 8) bytes += static_cast<char>((sum >> shift) & 0xFF);
  return detail::base64url_encode(bytes);
}

inline Cursor Cursor::parse(std::string_view token) {
  const std::optional<std::string> bytes = detail::base64url_decode(token);
  if (!bytes) detail::bad_cursor("not base64url");
  if (bytes->size() < 6) detail::bad_cursor("too short");
  std::string_view body = std::string_view(*bytes).substr(0, bytes->size() - 4);
  std::uint32_t sum = 0;
  for (std::size_t i = body.size(); i < bytes->size(); ++i) {
    sum = sum << 8 | static_cast<unsigned char>((*bytes)[i]);
  }
  if (sum != detail::fnv1a(body)) detail::bad_cursor("checksum mismatch");
  if (body[0] != detail::cursor_version) detail::bad_cursor("unknown version");
  const char flags = body[1];
  if (flags != 0 && flags != detail::cursor_signed) detail::bad_cursor("unknown flags");
  Cursor cursor;
  if (flags == detail::cursor_signed) {
    if (body.size() < 2 + 32) detail::bad_cursor("truncated signature");
    cursor.signature = std::string(body.substr(body.size() - 32));
    body.remove_suffix(32);
  }
  detail::CursorReader reader(body.substr(2));
  cursor.index = reader.read_field();
  cursor.pk = reader.read_field();
  cursor.sk = reader.read_field();
  cursor.table = reader.read_field();
  cursor.item_pk = reader.read_field();
  cursor.item_sk = reader.read_field();
  if (!reader.done()) detail::bad_cursor("trailing bytes");
  return cursor;
}

}  // namespace pksk
