// The conformance cases on DynamoDB Local (started for the ctest run by the fixture
// dynamodb_local; see tests/CMakeLists.txt).

#include <cstdlib>
#include <fstream>
#include <pksk/dynamodb.hpp>

#include "conformance.hpp"

namespace conformance {

// DynamoDB Local's address: PKSK_DYNAMODB_ENDPOINT, else the file PKSK_DYNAMODB_ENDPOINT_FILE
// names (written by scripts/dynamodb-local.sh). Neither set is a failure, not a skip.
inline pksk::dynamodb::Options local_options() {
  std::string endpoint;
  if (const char* e = std::getenv("PKSK_DYNAMODB_ENDPOINT")) endpoint = e;
  if (endpoint.empty()) {
    if (const char* file = std::getenv("PKSK_DYNAMODB_ENDPOINT_FILE")) {
      std::ifstream in(file);
      std::getline(in, endpoint);
    }
  }
  if (endpoint.empty()) {
    FAIL("no DynamoDB endpoint: set PKSK_DYNAMODB_ENDPOINT or PKSK_DYNAMODB_ENDPOINT_FILE");
  }
  return {.endpoint = endpoint,
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "conformance", ""},
          .create_missing_tables = true};
}

struct OnDynamoDB {
  pksk::dynamodb::Backend backend{local_options()};
};

}  // namespace conformance

using Store = conformance::OnDynamoDB;

#include "cases.hpp"
