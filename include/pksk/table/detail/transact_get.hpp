// SPDX-License-Identifier: BSL-1.0
#pragma once
// What DynamoDB refuses in a TransactGetItems request, refused by Table before any backend sees
// it, so that every backend refuses the same requests: more than 100 keys, or two keys naming
// one item.

#include <span>
#include <string_view>

#include "../../backend/backend.hpp"
#include "../../detail/config.hpp"

namespace pksk::detail {

// ValidationError naming the count, or the first two keys that name one item and that item.
PKSK_DECL void check_transact_get_keys(std::string_view table,
                                       std::span<const backend::ItemKey> keys);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/transact_get.ipp"
#endif
