// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the DynamoDB backend names itself in its error messages about a table, in the style every
// backend shares (backend/messages.hpp): "pksk table 'orders' (dynamodb), put: ...".
// Its own header so that the request builders (request.hpp) need nothing of the client's.

#include <string>
#include <string_view>

#include "../../backend/messages.hpp"

namespace pksk::dynamodb::detail {

inline constexpr std::string_view backend_name = "dynamodb";

// "pksk table 'orders' (dynamodb), <operation>: ", or "pksk table 'orders' (dynamodb): ".
inline std::string context(std::string_view table, std::string_view operation = {}) {
  return pksk::detail::backend_context(backend_name, table, operation);
}

}  // namespace pksk::dynamodb::detail
