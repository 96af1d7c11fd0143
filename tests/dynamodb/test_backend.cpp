// What only the DynamoDB backend has, on DynamoDB Local: opening tables (missing, created on
// request, with another key schema), and endpoints that are not URLs. Behaviour both backends
// share is in the conformance suite (tests/conformance/).

#include <catch2/catch.hpp>
#include <pksk/dynamodb.hpp>

#include <string>
#include "local_endpoint.hpp"

namespace dynamodb_backend {

struct Note {
  std::string id;
  std::string text;
};

}  // namespace dynamodb_backend

template <>
struct pksk::Entity<dynamodb_backend::Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "N";
};

namespace {

using dynamodb_backend::Note;

pksk::dynamodb::Options local(bool create) {
  return {.endpoint = pksk_test::dynamodb_local_endpoint(),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "backend", ""},
          .create_missing_tables = create};
}

std::string fresh_table_name() {
  return pksk_test::fresh_table_name("backend_");
}

}  // namespace

TEST_CASE("a missing table is a BackendError unless creating it was asked for") {
  pksk::dynamodb::Backend strict{local(false)};
  const std::string name = fresh_table_name();
  CHECK_THROWS_AS(pksk::Table(strict, name), pksk::BackendError);
  CHECK_THROWS_WITH(pksk::Table(strict, name), Catch::Contains(name) &&
                                                   Catch::Contains("does not exist") &&
                                                   Catch::Contains("create_missing_tables"));

  pksk::dynamodb::Backend creating{local(true)};
  pksk::Table created{creating, name};
  created.put(Note{.id = "1", .text = "hello"});
  // Once it exists, a backend that does not create tables opens it too.
  pksk::Table opened{strict, name};
  CHECK(opened.get(Note{.id = "1"})->text == "hello");
}

TEST_CASE("a table whose key schema is not the spec's is a BackendError naming both") {
  pksk::dynamodb::Backend backend{local(true)};
  const std::string name = fresh_table_name();
  pksk::Table upper{backend, name, {.pk_attribute = "PK", .sk_attribute = "SK"}};
  try {
    pksk::Table lower{backend, name};
    FAIL("a table with keys PK and SK was opened as one with pk and sk");
  } catch (const pksk::BackendError& e) {
    CHECK_THAT(e.what(), Catch::Contains("[PK HASH S, SK RANGE S]") &&
                             Catch::Contains("[pk HASH S, sk RANGE S]"));
  }
}

TEST_CASE("an endpoint that is not a URL is refused when the backend is made") {
  pksk::dynamodb::Options options = local(false);
  options.endpoint = "127.0.0.1:8000";
  CHECK_THROWS_AS(pksk::dynamodb::Backend{options}, pksk::ValidationError);
}

TEST_CASE("an endpoint where nothing listens fails after the retries, naming the table") {
  pksk::dynamodb::Options options = local(false);
  options.endpoint = "http://127.0.0.1:1";
  options.retry = {.max_attempts = 3, .base_delay = std::chrono::milliseconds(1)};
  pksk::dynamodb::Backend backend{options};
  CHECK_THROWS_WITH(pksk::Table(backend, "nowhere"),
                    Catch::Contains("\"nowhere\"") && Catch::Contains("after 3 attempts"));
}
