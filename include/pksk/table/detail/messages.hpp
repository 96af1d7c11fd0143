// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the Table layer's error messages name what they are about: the table, the operation and
// the entity type. Keys are written by key_text and sizes by over_limit, the backends' own
// helpers (backend/detail/messages.hpp), so that an item's key reads the same in every message.

#include <string>
#include <string_view>

#include "../../backend/detail/messages.hpp"
#include "../../detail/config.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"

namespace pksk::detail {

// The start of an error message about one operation on one entity type of a table.
PKSK_DECL std::string table_context(std::string_view table, std::string_view operation,
                                    std::string_view type);

// An error's message as a part of another's: without the "pksk: " its own layer starts it with,
// so that a message says where it comes from once ("pksk table 't', put Order: invalid key ...").
PKSK_DECL std::string_view without_origin(std::string_view message) noexcept;

// An update whose condition that the item exists (write_conditions.hpp: update_parts) failed:
// a ValidationError saying it would have created an item without the index member, which a put
// of that item refuses; nothing was written.
[[noreturn]] PKSK_DECL void throw_update_would_create(std::string_view table, std::string_view type,
                                                      std::string_view index,
                                                      std::string_view member,
                                                      const ConditionFailed& failed);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/messages.ipp"
#endif
