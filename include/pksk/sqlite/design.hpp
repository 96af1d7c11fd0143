// SPDX-License-Identifier: BSL-1.0
#pragma once
// A table's design (pksk::AccessPatterns, pksk/model/access_patterns.hpp) kept in the SQLite
// file beside the table, so that whoever opens the file later (pksk-inspect --patterns) reads
// what it was designed for without the program's entity definitions:
//
//   pksk::sqlite::store_design(backend, "shop", pksk::access_patterns<Customer, Order,
//   CustomerOrders>());
//
// It is stored by this explicit call only, as JSON in the file's metadata table pksk_meta (row
// "design:<table>"), and replaces the one stored before: a program stores it when its design
// changes, typically where it opens the table. A DynamoDB table has no such place (its tags
// hold 256 characters; a reserved item would be read by scans and exports): keep its design
// in the repository, written by to_markdown().

#include <optional>
#include <string_view>

#include "../detail/config.hpp"
#include "../model/access_patterns.hpp"
#include "backend.hpp"

namespace pksk::sqlite {

// Stores `design` with the file's table `table` (a BackendError, errc::missing_table, when the
// file has no such table; errc::access_denied and the like as SQLite answers, a file open
// read-only included).
// Throws: BackendError as above.
// Exception safety: strong (one statement: the design is stored whole or not at all).
PKSK_DECL void store_design(const Backend& backend, std::string_view table,
                            const AccessPatterns& design);

// The design stored with `table`, or none; a BackendError as store_design when the table does
// not exist, and a ValidationError when what is stored is not a design this pksk reads.
// Throws: BackendError, ValidationError, as above.
// Exception safety: strong (a read changes nothing).
PKSK_DECL std::optional<AccessPatterns> stored_design(const Backend& backend,
                                                      std::string_view table);

}  // namespace pksk::sqlite
