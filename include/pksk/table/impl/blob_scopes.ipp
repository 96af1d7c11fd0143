// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/blob_scopes.hpp: inline through it in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string>
#include <string_view>

#include "../../error.hpp"
#include "../detail/blob_scopes.hpp"
#include "../detail/messages.hpp"

namespace pksk::detail {

PKSK_DECL void throw_no_blob_store(std::string_view table, std::string_view type,
                                   std::string_view operation) {
  throw ValidationError(table_context(table, operation, type) +
                        "the entity keeps members in a blob store (stored_in_blob_store), and "
                        "the table has none (TableOptions::blob_store)");
}

}  // namespace pksk::detail
