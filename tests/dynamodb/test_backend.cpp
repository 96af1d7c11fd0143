// SPDX-License-Identifier: BSL-1.0
// What only the DynamoDB backend has, on DynamoDB Local: opening tables (missing, created on
// request, with another key schema), and endpoints that are not URLs. Behaviour both backends
// share is in the conformance suite (tests/conformance/).

#include <catch2/catch.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too

#include <string>
#include <vector>
#include "local_endpoint.hpp"

namespace dynamodb_backend {

struct Note {
  std::string id;
  std::string text;
};

struct Tagged {
  std::string id;
  std::string tag;
};
// Tagged as an earlier version of the program declared it, before it had an index.
struct TaggedBefore {
  std::string id;
  std::string tag;
};

}  // namespace dynamodb_backend

template <>
struct pksk::Entity<dynamodb_backend::Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "N";
};

template <>
struct pksk::Entity<dynamodb_backend::Tagged> {
  static constexpr std::string_view type = "Tagged";
  static constexpr std::string_view pk = "TAGGED#{id}";
  static constexpr std::string_view sk = "T";
  static constexpr std::array indexes = {pksk::Index{"bytag", "TAG#{tag}", "TAGGED#{id}"}};
};

template <>
struct pksk::Entity<dynamodb_backend::TaggedBefore> {
  static constexpr std::string_view type = "Tagged";
  static constexpr std::string_view pk = "TAGGED#{id}";
  static constexpr std::string_view sk = "T";
};

namespace {

using dynamodb_backend::Note;
using dynamodb_backend::Tagged;

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

TEST_CASE("an index added to an existing table: refused, or added and backfilled on request") {
  pksk::dynamodb::Backend strict{local(false)};
  pksk::dynamodb::Backend creating{local(true)};
  const std::string name = fresh_table_name();
  {
    pksk::Table plain{creating, name};
    plain.put(Note{.id = "n", .text = "not tagged"});
    for (const char* id : {"b", "c", "d"}) plain.put(dynamodb_backend::TaggedBefore{id, "red"});
  }
  CHECK_THROWS_WITH((pksk::Table{strict, name, {.indexes = {"bytag"}}}),
                    Catch::Contains("no global secondary index 'bytag'") &&
                        Catch::Contains("create_missing_tables"));
  // UpdateTable adds it; items written before it lack its keys until backfilled.
  pksk::Table indexed{creating, name, {.indexes = {"bytag"}}};
  indexed.put(Tagged{"a", "red"});
  CHECK(indexed.index("bytag").query<Tagged>(pksk::PartitionKey{"TAG#red"}).size() == 1);
  // Now that it exists, the strict backend opens it as it is.
  pksk::Table reopened{strict, name, {.indexes = {"bytag"}}};
  CHECK(reopened.index("bytag").query<Tagged>(pksk::PartitionKey{"TAG#red"}).size() == 1);
  std::size_t reports = 0;
  CHECK(pksk::maintenance(reopened).backfill_index<Tagged>(
            "bytag", [&](const pksk::BackfillProgress&) { ++reports; }, 2) == 3);
  CHECK(reports >= 2);
  std::vector<std::string> ids;
  for (const Tagged& t : reopened.index("bytag").query<Tagged>(pksk::PartitionKey{"TAG#red"})) {
    ids.push_back(t.id);
  }
  CHECK(ids == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(pksk::maintenance(reopened).backfill_index<Tagged>("bytag") == 0);
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
  CHECK_THROWS_WITH(
      pksk::Table(backend, "nowhere"),
      Catch::Contains("pksk table 'nowhere' (dynamodb), ") && Catch::Contains("after 3 attempts"));
}

TEST_CASE("written exactly once, a write cannot return the old item, and says so first") {
  pksk::dynamodb::Backend db(local(true));
  pksk::Table table(db, fresh_table_name());
  table.put(Note{.id = "1", .text = "first"});
  const pksk::dynamodb::ExactlyOnce once;
  try {
    table.put(Note{.id = "1", .text = "second"}, pksk::if_exists, pksk::return_old);
    FAIL("written");
  } catch (const pksk::ValidationError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("return_old") &&
                             Catch::Matchers::Contains("nothing was written"));
  }
  CHECK_THROWS_AS(table.erase(Note{.id = "1"}, pksk::if_exists, pksk::return_old),
                  pksk::ValidationError);
  CHECK(table.get(Note{.id = "1"})->text == "first");
  // The stored item of a failed condition comes back from a one-action transaction too.
  try {
    table.put(Note{.id = "1", .text = "again"}, pksk::if_absent, pksk::return_stored_on_failure);
    FAIL("the condition held");
  } catch (const pksk::ConditionFailed& e) {
    REQUIRE(e.stored() != nullptr);
    CHECK(pksk::decode_body<Note>(*e.stored()).text == "first");
  }
}
