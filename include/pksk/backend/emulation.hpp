// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a backend that is not DynamoDB must emulate of DynamoDB's semantics, in one room, so
// that every such backend refuses and reports as DynamoDB would and as the others do: the
// limits of key attributes, a query's partition key, an item's size after an update, the
// error of a canceled transaction, and the in-process evaluation of conditions and updates
// (emulation/evaluate.hpp). The SQLite backend is built on it; a test double or a new backend
// calls the same functions. The checks are inline for their fast path; what builds a message
// is compiled once with PKSK_SEPARATE_COMPILATION (impl/emulation.ipp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "../codec/item_size.hpp"
#include "../detail/config.hpp"
#include "../error.hpp"
#include "../key/limits.hpp"
#include "backend.hpp"
#include "emulation/evaluate.hpp"
#include "write.hpp"

namespace pksk::backend::emulation {

// DynamoDB refuses a key attribute that is empty or longer than its limit (2,048 bytes for the
// partition key, 1,024 for the sort key) with a ValidationException, before anything is read
// or written. `backend` names the backend in the message ("sqlite"), `operation` the call
// ("put", "transaction"). A table without a sort key (`sorted` false) takes keys whose sort
// key is empty, and refuses any other, as DynamoDB refuses a key that does not match the key
// schema.
// Throws: always ValidationError, saying which limit the key broke.
// Exception safety: strong (it changes nothing).
[[noreturn]] PKSK_DECL void throw_key_refused(std::string_view backend, std::string_view table,
                                              std::string_view operation, backend::ItemKey key,
                                              bool sorted = true);

// Nothing for a key within DynamoDB's limits, else throw_key_refused.
// Throws: ValidationError, as throw_key_refused.
// Exception safety: strong (it changes nothing).
inline void check_item_key(std::string_view backend, std::string_view table,
                           std::string_view operation, backend::ItemKey key, bool sorted = true) {
  if (!key.pk.empty() && key.pk.size() <= detail::max_partition_key_size &&
      (sorted ? !key.sk.empty() && key.sk.size() <= detail::max_sort_key_size : key.sk.empty()))
      [[likely]] {
    return;
  }
  throw_key_refused(backend, table, operation, key, sorted);
}

// A query's partition key has the same limits (DynamoDB: "Size of hashkey has exceeded the
// maximum size limit"), in the table and in an index alike; a longer one could match nothing.
// `index` is empty for a query of the table.
// Throws: always ValidationError.
// Exception safety: strong (it changes nothing).
[[noreturn]] PKSK_DECL void throw_query_key_refused(std::string_view backend,
                                                    std::string_view table, std::string_view index,
                                                    std::string_view pk);

// Nothing for a query key within the limits, else throw_query_key_refused.
// Throws: ValidationError.
// Exception safety: strong (it changes nothing).
inline void check_query_key(std::string_view backend, std::string_view table,
                            const backend::RawQuery& query) {
  if (!query.pk.empty() && query.pk.size() <= detail::max_partition_key_size) [[likely]]
    return;
  throw_query_key_refused(backend, table, query.index, query.pk);
}

// A table whose sort key is a number (TableOptions::sk_type = KeyType::number) holds integers
// there, in canonical decimal within int64_t ("-5", "42": what "{seq:number}" writes, and what
// DynamoDB gives back of a number). Anything else is refused as DynamoDB refuses a string where
// its key schema has a number, and a key condition on such a table may not be begins_with
// (DynamoDB has no prefix of a number). Queries of an index are not concerned: its keys are
// strings.
// The integer such a key spells; none for any other text.
// Throws: nothing.
// Exception safety: nothrow.
PKSK_DECL std::optional<std::int64_t> number_key(std::string_view text) noexcept;

// Refuses a sort key that is not such a number, as DynamoDB does.
// Throws: always ValidationError.
// Exception safety: strong (it changes nothing).
[[noreturn]] PKSK_DECL void throw_sort_key_not_a_number(std::string_view backend,
                                                        std::string_view table,
                                                        std::string_view operation,
                                                        std::string_view sk);

// Nothing unless the table's sort key is a number and `sk` is not one.
// Throws: ValidationError, as throw_sort_key_not_a_number.
// Exception safety: strong (it changes nothing).
inline void check_number_sort_key(std::string_view backend, const backend::TableSpec& spec,
                                  std::string_view operation, std::string_view sk) {
  if (spec.sk_type != KeyType::number || spec.sk_attribute.empty() || number_key(sk)) [[likely]]
    return;
  throw_sort_key_not_a_number(backend, spec.name, operation, sk);
}

// The query's sort-key condition and exclusive start on a table whose sort key is a number:
// numbers, in order for between, and no begins_with.
// Throws: ValidationError for a condition or start DynamoDB would refuse.
// Exception safety: strong (it changes nothing).
PKSK_DECL void check_number_sort_key_query(std::string_view backend, const backend::TableSpec& spec,
                                           const backend::RawQuery& query);

// An update that would make the item larger than DynamoDB's 400 KB (by its measure, codec/
// item_size.hpp) is refused with ItemTooLarge, and nothing is written. A put's item is
// measured by the Table layer before it reaches a backend; an update's only once applied.
// Throws: always ItemTooLarge.
// Exception safety: strong (it changes nothing).
[[noreturn]] PKSK_DECL void throw_item_too_large(std::string_view backend, std::string_view table,
                                                 std::string_view operation, backend::ItemKey key,
                                                 std::size_t size);

// Nothing for an item of at most 400 KB, else throw_item_too_large.
// Throws: ItemTooLarge.
// Exception safety: strong (it changes nothing).
inline void check_item_size(std::string_view backend, std::string_view table,
                            std::string_view operation, backend::ItemKey key, std::size_t size) {
  if (size > max_item_bytes) [[unlikely]]
    throw_item_too_large(backend, table, operation, key, size);
}

// The error of a transaction DynamoDB would cancel: nothing of it written, reasons[i] the
// reason of the i-th write (CancellationReason::none for those that were fine).
// `stored`: the items of the writes that asked for them (backend::WriteReturns), or empty.
// Throws: only std::bad_alloc (it returns the error, to throw).
// Exception safety: strong.
PKSK_DECL TransactionCanceled transaction_canceled(
    std::string_view backend, std::string_view table, std::vector<CancellationReason> reasons,
    std::vector<std::shared_ptr<const RawItem>> stored = {});

}  // namespace pksk::backend::emulation

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/emulation.ipp"
#endif
