// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the DynamoDB stores of the conformance suite share: DynamoDB Local's options, and a
// backend that opens tables without creating them, as in production.

#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too

#include "../dynamodb/local_endpoint.hpp"

namespace conformance {

inline pksk::dynamodb::Options local_options(bool create_missing_tables = true) {
  return {.endpoint = pksk_test::dynamodb_local_endpoint(),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "conformance", ""},
          .create_missing_tables = create_missing_tables};
}

struct DynamoDBWithoutCreate {
  pksk::dynamodb::Backend backend{local_options(false)};
};

}  // namespace conformance
