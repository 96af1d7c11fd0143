// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the tests on DynamoDB Local share: its address, and table names no other test of the
// process uses.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace pksk_test {

// The endpoint in the file the environment variable `variable` names (written by
// scripts/dynamodb-local.sh or fault_proxy.py). Missing is a failure, not a skip.
inline std::string endpoint_in(const char* variable) {
  const char* file = std::getenv(variable);
  if (file == nullptr) FAIL(variable << " is not set");
  std::ifstream in(file);
  std::string endpoint;
  std::getline(in, endpoint);
  if (endpoint.empty()) FAIL("no endpoint in " << file);
  return endpoint;
}

// DynamoDB Local's address: PKSK_DYNAMODB_ENDPOINT, else the file PKSK_DYNAMODB_ENDPOINT_FILE
// names.
inline std::string dynamodb_local_endpoint() {
  if (const char* e = std::getenv("PKSK_DYNAMODB_ENDPOINT"); e != nullptr && *e != '\0') return e;
  return endpoint_in("PKSK_DYNAMODB_ENDPOINT_FILE");
}

// prefix, the process id and a counter. Built with += : g++ 12 at -O3 warns falsely
// (-Wrestrict, GCC bug 105651) on "x" + std::to_string(n).
inline std::string fresh_table_name(std::string_view prefix) {
  static int next = 0;
  std::string name(prefix);
  name += std::to_string(::getpid());
  name += '_';
  name += std::to_string(next++);
  return name;
}

}  // namespace pksk_test
