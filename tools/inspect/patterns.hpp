// SPDX-License-Identifier: BSL-1.0
#pragma once
// --patterns: the design a program stored with a table (pksk/sqlite/design.hpp), as Markdown.

#include <ostream>

#include <pksk/backend/backend.hpp>

#include "location.hpp"

namespace pksk::inspect {

// Prints the table's stored design as AccessPatterns::to_markdown() renders it; false, having
// printed nothing, when the table has none.
bool print_patterns(std::ostream& out, const Location& where, const backend::TableSpec& table);

}  // namespace pksk::inspect
