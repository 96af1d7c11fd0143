// The conformance cases on DynamoDB Local (started for the ctest run by the fixture
// dynamodb_local; see tests/CMakeLists.txt).

#include <pksk/dynamodb.hpp>

#include "../dynamodb/local_endpoint.hpp"
#include "conformance.hpp"

namespace conformance {

inline pksk::dynamodb::Options local_options() {
  return {.endpoint = pksk_test::dynamodb_local_endpoint(),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "conformance", ""},
          .create_missing_tables = true};
}

struct OnDynamoDB {
  static constexpr auto origin = pksk::NativeError::Origin::dynamodb;
  pksk::dynamodb::Backend backend{local_options()};

  // A backend that opens tables without creating them, as in production.
  struct NoCreate {
    pksk::dynamodb::Backend backend{make()};
    static pksk::dynamodb::Options make() {
      pksk::dynamodb::Options options = local_options();
      options.create_missing_tables = false;
      return options;
    }
  };
};

}  // namespace conformance

using Store = conformance::OnDynamoDB;

#include "cases.hpp"
