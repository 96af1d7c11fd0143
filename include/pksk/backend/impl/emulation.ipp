// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of backend/emulation.hpp: inline through it in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION. Each builds the message of one of
// DynamoDB's refusals.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../detail/messages.hpp"
#include "../emulation.hpp"

namespace pksk::backend::emulation {

PKSK_DECL void throw_key_refused(std::string_view backend, std::string_view table,
                                 std::string_view operation, backend::ItemKey key, bool sorted) {
  if (!sorted && !key.sk.empty() && !key.pk.empty() &&
      key.pk.size() <= detail::max_partition_key_size) {
    throw ValidationError(detail::backend_context(backend, table, operation) +
                          "the table has no sort key, and the key has one (" +
                          detail::key_text(key) + ")");
  }
  const bool partition = key.pk.empty() || key.pk.size() > detail::max_partition_key_size;
  const std::string_view value = partition ? key.pk : key.sk;
  std::string msg = detail::backend_context(backend, table, operation) + "the " +
                    (partition ? "partition" : "sort") + " key ";
  if (value.empty()) {
    msg += "is empty (" + detail::key_text(key) + ")";
  } else {
    msg += "is " + detail::over_limit(value.size(), partition ? detail::max_partition_key_size
                                                              : detail::max_sort_key_size);
  }
  throw ValidationError(msg);
}

PKSK_DECL void throw_query_key_refused(std::string_view backend, std::string_view table,
                                       std::string_view index, std::string_view pk) {
  throw ValidationError(
      detail::backend_context(
          backend, table,
          index.empty() ? std::string("query") : "query on index " + detail::quoted(index)) +
      "the partition key " +
      (pk.empty() ? std::string("is empty")
                  : "is " + detail::over_limit(pk.size(), detail::max_partition_key_size)));
}

PKSK_DECL void throw_item_too_large(std::string_view backend, std::string_view table,
                                    std::string_view operation, backend::ItemKey key,
                                    std::size_t size) {
  throw ItemTooLarge(detail::backend_context(
                         backend, table, std::string(operation) + " of " + detail::key_text(key)) +
                     "the item would be " + detail::over_limit(size, max_item_bytes));
}

PKSK_DECL TransactionCanceled transaction_canceled(std::string_view backend, std::string_view table,
                                                   std::vector<CancellationReason> reasons) {
  std::string msg = detail::backend_context(backend, table, "transaction") + "canceled, reasons [";
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    if (i) msg += ", ";
    msg += to_string(reasons[i]);
  }
  msg += ']';
  return TransactionCanceled(msg, std::move(reasons));
}

}  // namespace pksk::backend::emulation
