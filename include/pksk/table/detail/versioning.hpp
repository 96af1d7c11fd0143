// SPDX-License-Identifier: BSL-1.0
#pragma once
// Optimistic locking's errors. A versioned write carries the condition "the stored version is
// the one the caller read" (version 0: "no item yet"); when it fails, the backend can only say
// that a condition was false. These say what it means: the copy written was stale, or the write
// was blind (version 0 on an item that exists), naming the entity, its version member and the
// version expected.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "../../detail/config.hpp"
#include "../../error.hpp"
#include "../../key/entity.hpp"
#include "../../key/stored_names.hpp"
#include "../../reflect/reflect.hpp"

namespace pksk::detail {

// What a write of a versioned entity expected to find.
struct VersionedWrite {
  std::string_view type{};
  std::string_view member{};      // the version member's name
  long long expected = 0;         // the version the write's copy carries; 0: a new item
  bool other_conditions = false;  // the write had conditions of its own besides the version
};

template <VersionedEntity T>
VersionedWrite versioned_write(const T& item, bool other_conditions) {
  return {type_name_v<T>, stored_names_v<T>[version_index_v<T>],
          static_cast<long long>(get_field<version_index_v<T>>(item)), other_conditions};
}

// Why a versioned write's condition failed, as a sentence: "the stored 'rev' is not 3, the
// version this copy of the Cart was read at: ...".
PKSK_DECL std::string stale_version_text(const VersionedWrite& write);

// ConditionFailed again, with the same code and the backend's error as its cause, saying that
// the version was stale or missing: returned (for a try_ write), or thrown.
PKSK_DECL ConditionFailed stale_version(std::string_view table, std::string_view operation,
                                        const VersionedWrite& write, const ConditionFailed& failed);
[[noreturn]] PKSK_DECL void throw_stale_version(std::string_view table, std::string_view operation,
                                                const VersionedWrite& write,
                                                const ConditionFailed& failed);

// TransactionCanceled again, with the same reasons, saying for each versioned action whose
// condition failed that its version was stale or missing. versions[i]: the i-th action's, or
// none for an action that is not a versioned write.
[[noreturn]] PKSK_DECL void throw_canceled_versions(
    const TransactionCanceled& canceled, std::span<const std::optional<VersionedWrite>> versions);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/versioning.ipp"
#endif
