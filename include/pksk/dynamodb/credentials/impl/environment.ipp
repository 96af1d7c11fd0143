// SPDX-License-Identifier: BSL-1.0
#pragma once
// The environment's keys.

#include <optional>
#include <string>
#include <utility>

#include "../../credentials.hpp"
#include "../sources.hpp"

namespace pksk::dynamodb {

PKSK_DECL std::optional<Credentials> environment_credentials() {
  std::string token = detail::environment("AWS_SESSION_TOKEN");
  if (token.empty()) token = detail::environment("AWS_SECURITY_TOKEN");
  return detail::credentials_from(detail::environment("AWS_ACCESS_KEY_ID"),
                                  detail::environment("AWS_SECRET_ACCESS_KEY"), std::move(token),
                                  "the environment");
}

}  // namespace pksk::dynamodb
