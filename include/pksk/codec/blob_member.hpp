// SPDX-License-Identifier: BSL-1.0
#pragma once
// Members kept in a blob store (blob/blob_store.hpp) when they are large: DynamoDB's answer to
// items past 400 KB that keeps the value in Amazon S3 and its name in the item.
//
//   template <> struct pksk::Entity<Message> {
//     ...
//     static constexpr std::array stored_in_blob_store = {"attachment"};  // by C++ member name
//     static constexpr std::size_t blob_threshold = 32 * 1024;  // optional; bytes, default 64 KiB
//   };
//
// A value of at most blob_threshold bytes is stored inline, as a plain member's. A larger one is
// an object in the table's blob store (TableOptions::blob_store), and the item keeps a map
// naming it:
//
//   {"blob": "<object key>", "size": <bytes>, "sha256": "<64 hex digits of the bytes>"}
//
// which every read (get, query, scan, collections) follows transparently, checking the size
// and the digest. A member may be std::string, std::vector<std::byte>, or an std::optional of
// either. Only Table::put writes objects; a write that cannot (put_all, a transaction, upsert)
// refuses a value over the threshold with ValidationError.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../detail/config.hpp"
#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../detail/std_traits.hpp"
#include "../key/entity.hpp"
#include "../key/index.hpp"
#include "../key/key.hpp"
#include "../reflect/reflect.hpp"
#include "detail/json_path.hpp"
#include "detail/marked_members.hpp"

namespace pksk {

class BlobStore;  // blob/blob_store.hpp

namespace diagnostics {
// A name in Entity<T>::stored_in_blob_store that is not a member of Record (by its C++ name).
template <class Record, detail::fixed_string Name>
struct stored_in_blob_store_names_no_member_of_the_entity;
// A blob member whose type is neither std::string nor std::vector<std::byte> (nor an
// std::optional of either).
template <class Record, detail::fixed_string Member, class Type>
struct blob_member_must_be_a_string_or_binary;
// A member named twice in Entity<T>::stored_in_blob_store.
template <class Record, detail::fixed_string Member>
struct member_is_stored_in_the_blob_store_twice;
// A blob member in a key template (the entity's or an index's): a key is stored in the item.
template <class Record, detail::fixed_string Member>
struct blob_member_appears_in_a_key_template;
}  // namespace diagnostics

namespace detail {

template <class T>
consteval auto blob_names_of() {
  if constexpr (requires { Entity<T>::stored_in_blob_store; }) {
    return marked_names(Entity<T>::stored_in_blob_store);
  } else {
    return std::array<std::string_view, 0>{};
  }
}

template <class T>
inline constexpr auto blob_names_v = blob_names_of<T>();

// Whether T keeps members in a blob store: everything below is compiled only then.
template <class T>
inline constexpr bool has_blob_members_v = blob_names_v<T>.size() != 0;

template <class T>
inline constexpr auto blob_fields_v = marked_fields<T>(blob_names_v<T>);

template <class M>
inline constexpr bool blob_storable_member_v =
    std::is_same_v<unwrap_optional_t<M>, std::string> || is_binary_v<unwrap_optional_t<M>>;

using BlobProblem = MarkedProblem;

template <class T>
consteval BlobProblem blob_problem() {
  std::array<bool, field_count_v<T>> storable{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((storable[I] = blob_storable_member_v<field_type_t<T, I>>), ...);
  }(std::make_index_sequence<field_count_v<T>>{});
  return marked_problem<T>(blob_names_v<T>, storable);
}

template <class T, std::size_t N>
inline constexpr fixed_string<blob_names_v<T>[N].size()> blob_name_text_v{blob_names_v<T>[N]};

template <class T, BlobProblem P = blob_problem<T>()>
struct BlobCheck {
  static constexpr bool ok = true;
};
template <class T, BlobProblem P>
  requires(P.kind == BlobProblem::Kind::no_member)
struct BlobCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::stored_in_blob_store_names_no_member_of_the_entity<
                            T, blob_name_text_v<T, P.name>>>;
};
template <class T, BlobProblem P>
  requires(P.kind == BlobProblem::Kind::twice)
struct BlobCheck<T, P> {
  static constexpr bool ok = diagnose_v<
      false, diagnostics::member_is_stored_in_the_blob_store_twice<T, blob_name_text_v<T, P.name>>>;
};
template <class T, BlobProblem P>
  requires(P.kind == BlobProblem::Kind::type)
struct BlobCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::blob_member_must_be_a_string_or_binary<
                            T, field_name_text_v<T, P.field>, field_type_t<T, P.field>>>;
};
template <class T, BlobProblem P>
  requires(P.kind == BlobProblem::Kind::key)
struct BlobCheck<T, P> {
  static constexpr bool ok = diagnose_v<
      false, diagnostics::blob_member_appears_in_a_key_template<T, field_name_text_v<T, P.field>>>;
};

// Whether field I of T is a blob member, once T's declaration has been checked.
template <class T, std::size_t I>
inline constexpr bool blob_field_v = [] {
  if constexpr (has_blob_members_v<T>) {
    return BlobCheck<T>::ok && blob_fields_v<T>[I] && blob_storable_member_v<field_type_t<T, I>>;
  } else {
    return false;
  }
}();

template <class T>
consteval std::size_t blob_threshold_of() {
  if constexpr (requires { Entity<T>::blob_threshold; }) {
    return Entity<T>::blob_threshold;
  } else {
    return 64 * 1024;
  }
}

// What the item holds for a value kept in the blob store.
struct BlobRef {
  std::string blob;  // the object's key
  std::int64_t size = 0;
  std::string sha256;  // lowercase hex
};

// The objects a Table::put has stored for the item it is writing, by field: the encoder writes
// their references in place of the values. Set for one entity type at a time.
struct BlobWrites {
  std::vector<const BlobRef*> refs;  // by field index; null: the value is stored inline
};
template <class T>
inline thread_local const BlobWrites* blob_writes_v = nullptr;

// What a read of a blob member does: fetch from `store` (null: the table has none), and note
// each object key read in `keys` when set (a put learning what the item it replaces held);
// `fetch` false leaves the members empty.
struct BlobReads {
  BlobStore* store = nullptr;
  std::string_view table;
  std::vector<std::string>* keys = nullptr;
  bool fetch = true;
};
inline thread_local const BlobReads* blob_reads = nullptr;

// The bytes of a blob member's value.
template <class V>
std::string_view blob_bytes_of(const V& value) noexcept {
  if constexpr (std::is_same_v<V, std::string>) {
    return value;
  } else {
    return {reinterpret_cast<const char*>(value.data()), value.size()};
  }
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_blob_value_unwritable(std::size_t size,
                                                                               std::size_t limit) {
  throw_pathed_validation(
      "a blob member's value of " + std::to_string(size) + " bytes is over the entity's " +
      "blob_threshold (" + std::to_string(limit) +
      "), and only Table::put stores such a value in the blob store (not put_all, a "
      "transaction, update or upsert)");
}

// The beginning of every object key of `table`'s items: "<table>/", the name's characters
// outside [A-Za-z0-9_.-] replaced by '_'.
PKSK_DECL std::string blob_key_prefix(std::string_view table);

// A new object's key for member `member` of the item (pk, sk) of `table`:
// "<table>/<32 hex digits of the item's key>/<member>/<ULID>", so that every write names a new
// object (the item it replaces still refers to its own until the write succeeds) and one
// item's objects list together.
PKSK_DECL std::string blob_object_key(std::string_view table, std::string_view pk,
                                      std::string_view sk, std::string_view member);

// The object's bytes for a reference read from an item; throws BlobError naming the member
// and the object (the decoding of the item adds the table and the item's key).
PKSK_DECL std::string fetch_blob(const BlobReads& reads, const BlobRef& ref,
                                 std::string_view member);

}  // namespace detail
}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/blob_reads.ipp"
#endif
