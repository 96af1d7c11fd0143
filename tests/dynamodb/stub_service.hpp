// SPDX-License-Identifier: BSL-1.0
#pragma once
// What tests that stand in for DynamoDB behind a pksk::dynamodb::Transport share: reading a
// request's header, and DescribeTable's answer for an active table.

#include <pksk/dynamodb.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

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

// A stand-in for DynamoDB: records each request and answers it with `answer` (by default, an
// active table to DescribeTable and {} to anything else).
struct FakeDynamoDB {
  std::mutex mutex;
  std::vector<pksk::dynamodb::HttpRequest> requests;
  std::function<pksk::dynamodb::HttpResponse(const pksk::dynamodb::HttpRequest&)> answer =
      [](const pksk::dynamodb::HttpRequest& request) {
        if (header(request, "X-Amz-Target") == "DynamoDB_20120810.DescribeTable")
          return pksk::dynamodb::HttpResponse{.status = 200, .body = active_table};
        return pksk::dynamodb::HttpResponse{.status = 200, .body = "{}"};
      };

  pksk::dynamodb::Transport transport() {
    return [this](const pksk::dynamodb::HttpRequest& request) {
      const std::lock_guard lock(mutex);
      requests.push_back(request);
      return answer(request);
    };
  }
};

}  // namespace stub_service
