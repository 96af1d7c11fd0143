// SPDX-License-Identifier: BSL-1.0
#include "patterns.hpp"

#include <optional>

#include <pksk/sqlite.hpp>

namespace pksk::inspect {

bool print_patterns(std::ostream& out, const Location& where, const backend::TableSpec& table) {
  // Only an SQLite file keeps a design (a DynamoDB table has no place for one).
  const sqlite::Backend* file = where.backend.target<sqlite::Backend>();
  if (file == nullptr) return false;
  const std::optional<AccessPatterns> design = sqlite::stored_design(*file, table.name);
  if (!design) return false;
  out << design->to_markdown();
  return true;
}

}  // namespace pksk::inspect
