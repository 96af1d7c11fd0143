// SPDX-License-Identifier: BSL-1.0
// The Conan package's test of the DynamoDB component: its headers compile and it links
// libcurl. Making a Backend opens no connection, so no server is needed.

#include <cstdio>

#include <pksk/dynamodb.hpp>

int main() {
  const pksk::dynamodb::Backend backend{
      {.endpoint = "http://127.0.0.1:8000",
       .region = "eu-west-1",
       .credentials = pksk::dynamodb::Credentials{"id", "key", ""}}};
  const bool ok = backend.region() == "eu-west-1" && backend.endpoint() == "http://127.0.0.1:8000";
  std::printf("pksk test_package dynamodb: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
