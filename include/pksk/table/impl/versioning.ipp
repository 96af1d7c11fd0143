// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/versioning.hpp: inline through it in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <cstddef>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../detail/messages.hpp"
#include "../detail/versioning.hpp"

namespace pksk::detail {

PKSK_DECL std::string stale_version_text(const VersionedWrite& write) {
  std::string out;
  if (write.expected == 0) {
    out = "the version is missing: its " + quoted(write.member) +
          " is 0, which writes a new item, and the item exists (read it, and write the copy read)";
  } else {
    out = "stale version: the stored " + quoted(write.member) + " is not " +
          std::to_string(write.expected) + ", the version this copy of the " +
          std::string(write.type) +
          " was read at; another write changed or removed the item since (read it again)";
  }
  if (write.other_conditions) out += ", or another condition of the write is false";
  return out;
}

PKSK_DECL ConditionFailed stale_version(std::string_view table, std::string_view operation,
                                        const VersionedWrite& write,
                                        const ConditionFailed& failed) {
  return ConditionFailed(table_context(table, operation, write.type) + stale_version_text(write) +
                             " (optimistic locking; the store said: " +
                             std::string(without_origin(failed.what())) + ")",
                         failed.native(), std::make_exception_ptr(failed), failed.stored_item());
}

PKSK_DECL void throw_stale_version(std::string_view table, std::string_view operation,
                                   const VersionedWrite& write, const ConditionFailed& failed) {
  throw stale_version(table, operation, write, failed);
}

PKSK_DECL void throw_canceled_versions(const TransactionCanceled& canceled,
                                       std::span<const std::optional<VersionedWrite>> versions) {
  std::string message = canceled.what();
  const std::vector<CancellationReason>& reasons = canceled.reasons();
  for (std::size_t i = 0; i < reasons.size() && i < versions.size(); ++i) {
    if (reasons[i] == CancellationReason::condition_failed && versions[i]) {
      message += "; action " + std::to_string(i) + ", a write of the " +
                 std::string(versions[i]->type) + ": " + stale_version_text(*versions[i]);
    }
  }
  throw TransactionCanceled(message, reasons, canceled.native(), canceled.stored_items());
}

}  // namespace pksk::detail
