// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the Table layer's error messages name what they are about: the table, the operation, the
// entity type, and keys or names quoted so that bytes a terminal would not show are escaped.

#include <string>
#include <string_view>

#include "../../detail/config.hpp"

namespace pksk::detail {

// A key or name in an error message, quoted, with bytes a terminal would not show escaped:
// keys read back from a store are not trusted to be printable.
PKSK_DECL std::string quoted(std::string_view text);

// The start of an error message about one operation on one entity type of a table.
PKSK_DECL std::string table_context(std::string_view table, std::string_view operation,
                                    std::string_view type);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/messages.ipp"
#endif
