// The conformance cases on DynamoDB Local through a pksk::AnyBackend: the run-time body format
// (AttributeValue JSON) and every operation reach the DynamoDB backend as they do directly.

#include <pksk/backend.hpp>
#include <pksk/dynamodb.hpp>

#include "../dynamodb/local_endpoint.hpp"
#include "conformance.hpp"

namespace conformance {

struct OnAnyDynamoDB {
  pksk::AnyBackend backend = pksk::dynamodb::Backend{
      {.endpoint = pksk_test::dynamodb_local_endpoint(),
       .region = "us-east-1",
       .credentials = pksk::dynamodb::Credentials{"pksk", "conformance", ""},
       .create_missing_tables = true}};
};

}  // namespace conformance

using Store = conformance::OnAnyDynamoDB;

#include "cases.hpp"
