// SPDX-License-Identifier: BSL-1.0
#pragma once
// What tests that stand in for DynamoDB behind a pksk::dynamodb::Transport share: reading a
// request's header, and DescribeTable's answer for an active table.

#include <pksk/dynamodb.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace stub_service {

// The request's header `name` (compared without case, as HTTP does), or "<none>".
inline std::string header(const pksk::dynamodb::HttpRequest& request, std::string_view name) {
  for (const auto& h : request.headers) {
    if (h.name.size() == name.size() &&
        std::equal(h.name.begin(), h.name.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return h.value;
    }
  }
  return "<none>";
}

// DescribeTable's answer for pksk's default key schema (pk HASH, sk RANGE, both strings).
inline const std::string active_table =
    R"({"Table":{"TableStatus":"ACTIVE",)"
    R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],)"
    R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
    R"({"AttributeName":"sk","AttributeType":"S"}]}})";

}  // namespace stub_service
