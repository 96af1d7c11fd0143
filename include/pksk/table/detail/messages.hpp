// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the Table layer's error messages name what they are about: the table, the operation and
// the entity type. Keys are written by key_text and sizes by over_limit, the backends' own
// helpers (backend/messages.hpp), so that an item's key reads the same in every message.

#include <span>
#include <string>
#include <string_view>

#include "../../backend/messages.hpp"
#include "../../detail/config.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../../key/condition.hpp"

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

// An entity whose key shape is not the table's: one without a sort key (Entity<T> declares no
// sk) on a table that has one, or one with a sort key on a table without
// (TableOptions::sk_attribute empty). A ValidationError, as DynamoDB refuses a key that does not
// match the table's key schema.
[[noreturn]] PKSK_DECL void throw_key_schema_mismatch(std::string_view table,
                                                      std::string_view operation,
                                                      std::string_view type,
                                                      bool entity_has_sort_key);

// An entity whose sort key is a number ("{seq:number}") on a table whose sort key is a string,
// or the other way round.
[[noreturn]] PKSK_DECL void throw_sort_key_type_mismatch(std::string_view table,
                                                         std::string_view operation,
                                                         std::string_view type, bool entity_number);

// A sort-key condition on a table without a sort key.
[[noreturn]] PKSK_DECL void throw_sort_key_condition_without_sort_key(std::string_view table,
                                                                      std::string_view type);

// A typed sort-key condition (sort_key_of<T>) used where T's key space is not read: a query
// of other entities (entity_read false), or on an index (or the table) where T's sort key has
// another template (template_read, empty when T is not there).
[[noreturn]] PKSK_DECL void throw_sort_key_condition_of_another_key_space(
    std::string_view table, std::string_view index, const KeySpace& built,
    std::span<const std::string_view> types_read, std::string_view template_read, bool entity_read);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/messages.ipp"
#endif
