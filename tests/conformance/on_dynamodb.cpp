// SPDX-License-Identifier: BSL-1.0
// The conformance cases on DynamoDB Local (started for the ctest run by the fixture
// dynamodb_local; see tests/CMakeLists.txt).

#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too

#include "conformance.hpp"
#include "dynamodb_store.hpp"

namespace conformance {

struct OnDynamoDB {
  pksk::dynamodb::Backend backend{local_options()};
  using NoCreate = DynamoDBWithoutCreate;
  static constexpr bool keeps_expired_items = false;  // DynamoDB deletes them itself
};

}  // namespace conformance

using Store = conformance::OnDynamoDB;

#include "cases.hpp"
