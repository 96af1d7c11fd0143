// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the SQLite backend names itself in its error messages about a table, in the style every
// backend shares (backend/messages.hpp): "pksk table 'orders' (sqlite), put: ...".
// Apart from handle.hpp so that the SQL text (sql.hpp) needs no <sqlite3.h> for its messages.

#include <string>
#include <string_view>

#include "../../backend/messages.hpp"

namespace pksk::sqlite::detail {

inline constexpr std::string_view backend_name = "sqlite";

// "pksk table 'orders' (sqlite), <operation>: ", or "pksk table 'orders' (sqlite): ".
inline std::string context(std::string_view table, std::string_view operation = {}) {
  return pksk::detail::backend_context(backend_name, table, operation);
}

}  // namespace pksk::sqlite::detail
