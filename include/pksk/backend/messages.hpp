// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a backend's error messages about a table begin, in the style of the Table layer's
// (table/detail/messages.hpp): "pksk table 'orders' (sqlite), put of pk 'a', sk 'b': ...",
// the table named first, the backend after it, then the operation and its key, all quoted by
// detail/quoted.hpp. A backend's messages about no table keep their "pksk::sqlite: " origin.
// For backends and the table layer, not for users: public so that every backend folder and
// table/ begin their messages alike without including backend/'s private headers.

#include <cstddef>
#include <string>
#include <string_view>

#include "../detail/config.hpp"
#include "../detail/quoted.hpp"
#include "write.hpp"

namespace pksk::detail {

// "pksk table 'orders' (sqlite), <operation>: ", or without an operation
// "pksk table 'orders' (sqlite): ".
PKSK_DECL std::string backend_context(std::string_view backend, std::string_view table,
                                      std::string_view operation = {});

// "pk 'a', sk 'b'": every message that names an item's key, table layer and backends alike.
PKSK_DECL std::string key_text(backend::ItemKey key);

// "412000 bytes, over DynamoDB's limit of 409600": every refusal of a size.
PKSK_DECL std::string over_limit(std::size_t size, std::size_t limit);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/messages.ipp"
#endif
