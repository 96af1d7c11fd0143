// SPDX-License-Identifier: BSL-1.0
#pragma once
// An entity as the backend stores it: its keys (an entity member named as a key attribute
// refused), its body in the backend's format with its index keys appended, and its size by
// DynamoDB's measure, refused over 400 KB before anything is written; for a versioned entity,
// the body of the next version. What every write of an item (put, put_all, a transaction's
// put) does first, from the item and the table's spec alone.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "../../backend/backend.hpp"
#include "../../codec/body_format.hpp"
#include "../../codec/entity_code.hpp"
#include "../../codec/item_size.hpp"
#include "../../codec/ttl.hpp"
#include "../../detail/config.hpp"
#include "../../error.hpp"
#include "../../key/entity.hpp"
#include "../../key/index.hpp"
#include "../../key/key.hpp"
#include "../../key/stored_names.hpp"
#include "../../reflect/reflect.hpp"
#include "../access_counts.hpp"
#include "../index_upkeep.hpp"
#include "entity_writes.hpp"
#include "messages.hpp"

namespace pksk::detail {

// An entity member stored under the name of a key attribute or the discriminator would be
// overwritten by them (DynamoDB has one namespace of attributes per item). `members`: the
// entity's C++ names, `stored`: the names they are stored under (stored_names_v).
PKSK_DECL void refuse_reserved_members(const backend::TableSpec& spec,
                                       std::span<const std::string_view> members,
                                       std::span<const std::string_view> stored,
                                       std::string_view type, std::string_view operation);

// An entity with a ttl member (Entity<T>::ttl) on a table whose ttl_attribute is not the name
// that member is stored under: its items would never expire.
[[noreturn]] PKSK_DECL void throw_ttl_not_the_tables(const backend::TableSpec& spec,
                                                     std::string_view operation,
                                                     std::string_view type, std::string_view member,
                                                     std::string_view stored);

// The keys' error, said of the table, the operation and the entity type.
[[noreturn]] PKSK_DECL void throw_key_error(const backend::TableSpec& spec,
                                            std::string_view operation, std::string_view type,
                                            const KeyError& error);

// The encoder's error (EncodeError, or ValidationError for what DynamoDB refuses as a request),
// said of the table, the operation and the entity type.
[[noreturn]] PKSK_DECL void throw_encode_error(const backend::TableSpec& spec,
                                               std::string_view operation, std::string_view type,
                                               const Error& error);

// DynamoDB's 400 KB limit, by its measure, checked before anything is written.
[[noreturn]] PKSK_DECL void throw_item_too_large(const backend::TableSpec& spec,
                                                 std::string_view operation, std::string_view type,
                                                 std::string_view pk, std::string_view sk,
                                                 std::size_t size);

// A Table's spec: fixed once the Table is made, and numbered, so that what depends only on the
// entity type and the table is checked once per pair rather than on every write. No two Tables
// made share a number; a copy of a Table has its spec, and its number with it.
struct TableSpecOfTable : backend::TableSpec {
  std::uint64_t serial;
  // TableOptions::count_access: shared by the Table's copies. Null: nothing counted.
  std::shared_ptr<AccessCounters> access;
  explicit TableSpecOfTable(backend::TableSpec spec)
      : backend::TableSpec(std::move(spec)),
        serial(next_serial()),
        access(count_access ? std::make_shared<AccessCounters>() : nullptr) {}

  // A keyed operation's access of its partition, when counted (access_counts.hpp).
  void count_access_of(std::string_view pk, std::string_view operation) const {
    if (access) [[unlikely]] {
      const bool read = operation == "get" || operation == "get_all" || operation == "transact_get";
      access->count(pk, !read);
    }
  }
  void count_read(std::string_view pk) const {
    if (access) [[unlikely]]
      access->count(pk, false);
  }
  // A page of a query of the table (index null) or of one of its secondary indexes.
  void count_query_page(std::string_view pk, const TableIndex* index) const {
    if (access) [[unlikely]] {
      if (index == nullptr) {
        access->count(pk, false);
      } else {
        access->count_index_read(index->name, pk);
      }
    }
  }

 private:
  static std::uint64_t next_serial() noexcept {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
  }
};

// T's key shape against the table's, as DynamoDB's key schema refuses an item or a query of
// another: a sort key or none, and a number or a string (ValidationError).
template <EntityType T>
void check_key_shape(const backend::TableSpec& spec, std::string_view operation) {
  if (partition_key_only_v<T> != spec.sk_attribute.empty()) [[unlikely]]
    throw_key_schema_mismatch(spec.name, operation, type_name_v<T>, !partition_key_only_v<T>);
  if (!partition_key_only_v<T> && sort_key_is_number_v<T> != (spec.sk_type == KeyType::number))
      [[unlikely]]
    throw_sort_key_type_mismatch(spec.name, operation, type_name_v<T>, sort_key_is_number_v<T>);
}

// refuse_reserved_members for T on the table, unless it passed there already: the last table
// T passed on is remembered per type (a data race at worst repeats the check, which is pure).
template <EntityType T>
void refuse_reserved_members_once(const TableSpecOfTable& spec, std::string_view operation) {
  static std::atomic<std::uint64_t> passed{0};
  if (passed.load(std::memory_order_relaxed) == spec.serial) [[likely]]
    return;
  check_key_shape<T>(spec, operation);
  detail::refuse_reserved_members(spec, field_names_v<T>, stored_names_v<T>, type_name_v<T>,
                                  operation);
  if constexpr (has_ttl_v<T>) {
    if constexpr (ttl_field_v<T> < field_count_v<T>) {  // else TtlCheck reports it
      constexpr std::string_view stored = stored_names_v<T>[ttl_field_v<T>];
      if (spec.ttl_attribute != stored) {
        throw_ttl_not_the_tables(spec, operation, type_name_v<T>, ttl_name_v<T>, stored);
      }
    }
  }
  passed.store(spec.serial, std::memory_order_relaxed);
}

template <EntityType T>
void format_keys(const TableSpecOfTable& spec, const T& item, std::string& pk, std::string& sk,
                 std::string_view operation) {
  detail::refuse_reserved_members_once<T>(spec, operation);
  try {
    EntityCode<T>::format_keys(item, pk, sk);
  } catch (const KeyError& e) {
    throw_key_error(spec, operation, type_name_v<T>, e);
  }
  spec.count_access_of(pk, operation);
}

// The body of an item whose keys are formatted already; returns the item's size, which may be
// over 400 KB (a chunked entity's item).
template <EntityType T, class Format>
std::size_t encode_sized(Format format, const backend::TableSpec& spec, const T& item,
                         const std::string& pk, const std::string& sk, std::string& body,
                         std::string_view operation) {
  std::size_t size = 0;
  try {
    // A table without a type attribute stores no type.
    const KeyAttributeSizes keys{
        spec.pk_attribute,
        pk,
        spec.sk_attribute,
        sk,
        spec.type_attribute,
        spec.type_attribute.empty() ? std::string_view() : std::string_view(type_name_v<T>)};
    size = EntityCode<T>::encode(format, item, keys, body);
  } catch (const EncodeError& e) {
    throw_encode_error(spec, operation, type_name_v<T>, e);
  } catch (const ValidationError& e) {
    throw_encode_error(spec, operation, type_name_v<T>, e);
  }
  if constexpr (index_count_v<T> != 0)
    size += detail::add_index_attributes(format, spec, item, body, operation);
  return size;
}

// The body of an item whose keys are formatted already; returns the item's size, refusing one
// over 400 KB.
template <EntityType T, class Format>
std::size_t encode_checked(Format format, const backend::TableSpec& spec, const T& item,
                           const std::string& pk, const std::string& sk, std::string& body,
                           std::string_view operation) {
  const std::size_t size = encode_sized(format, spec, item, pk, sk, body, operation);
  if (size > max_item_bytes) throw_item_too_large(spec, operation, type_name_v<T>, pk, sk, size);
  return size;
}

// Keys and body of the item as the backend stores them, with the version incremented for a
// versioned entity; returns the item's size, refusing one over 400 KB before anything is
// written.
template <EntityType T, class Format>
std::size_t encode_versioned(Format format, const TableSpecOfTable& spec, const T& item,
                             std::string& pk, std::string& sk, std::string& body,
                             std::string_view operation) {
  detail::format_keys(spec, item, pk, sk, operation);
  if constexpr (VersionedEntity<T>) {
    T next = item;
    ++get_field<version_index_v<T>>(next);
    return detail::encode_checked(format, spec, next, pk, sk, body, operation);
  } else {
    return detail::encode_checked(format, spec, item, pk, sk, body, operation);
  }
}

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/item_encoding.ipp"
#endif
