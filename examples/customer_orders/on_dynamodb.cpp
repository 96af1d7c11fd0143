// SPDX-License-Identifier: BSL-1.0
// The main example on DynamoDB: the same code as main.cpp's (customer_orders.hpp), on the
// endpoint PKSK_DYNAMODB_ENDPOINT names (DynamoDB Local's, say), with credentials and region
// as the AWS SDKs find them. A program of its own so that the SQLite one needs no libcurl.

#include <cstdio>
#include <cstdlib>

#include <pksk/dynamodb.hpp>

#include "customer_orders.hpp"

int main() {
  const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT");
  if (endpoint == nullptr || *endpoint == '\0') {
    std::fprintf(stderr, "set PKSK_DYNAMODB_ENDPOINT to a DynamoDB endpoint\n");
    return 2;
  }
  // The table is created if it is missing: convenient here, off by default for services.
  pksk::dynamodb::Backend backend{{.endpoint = endpoint, .create_missing_tables = true}};
  run(backend);
}
