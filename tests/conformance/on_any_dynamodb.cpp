// SPDX-License-Identifier: BSL-1.0
// The conformance cases on DynamoDB Local through a pksk::AnyBackend: the run-time body format
// (AttributeValue JSON) and every operation reach the DynamoDB backend as they do directly.

#include <pksk/backend.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too

#include "conformance.hpp"
#include "dynamodb_store.hpp"

namespace conformance {

struct OnAnyDynamoDB {
  pksk::AnyBackend backend = pksk::dynamodb::Backend{local_options()};
  struct NoCreate {
    DynamoDBWithoutCreate held;
    pksk::AnyBackend backend = pksk::AnyBackend::ref(held.backend);
  };
  static constexpr bool keeps_expired_items = false;  // DynamoDB deletes them itself
};

}  // namespace conformance

using Store = conformance::OnAnyDynamoDB;

#include "cases.hpp"
