// SPDX-License-Identifier: BSL-1.0
// What the DynamoDB backend tells the program about its requests: Options::on_request's record
// of each one, the capacity DynamoDB says it consumed (Options::return_consumed_capacity) and
// CapacityTally. The cases tagged [local] run on DynamoDB Local (the test
// test_dynamodb_request_hook.local, with the fixture that starts it); the others over an
// in-process transport that stands in for DynamoDB, which can throttle, lose answers and say
// any consumed capacity.

#include <catch2/catch.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>
#include "local_endpoint.hpp"
#include "stub_service.hpp"

namespace request_hook {

struct Note {
  std::string id;
  std::string text;
};

// Many to a partition, for queries of several pages.
struct Entry {
  std::string list;
  std::string n;
  int value{};
};

// Spread over four shards, for fan-out reads.
struct Spread {
  std::string list;
  std::string n;
};

struct Tagged {
  std::string id;
  std::string tag;
};

}  // namespace request_hook

template <>
struct pksk::Entity<request_hook::Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "N";
};

template <>
struct pksk::Entity<request_hook::Entry> {
  static constexpr std::string_view type = "Entry";
  static constexpr std::string_view pk = "LIST#{list}";
  static constexpr std::string_view sk = "ENTRY#{n}";
};

template <>
struct pksk::Entity<request_hook::Spread> {
  static constexpr std::string_view type = "Spread";
  static constexpr std::string_view pk = "SPREAD#{list}#{n:shard(4)}";
  static constexpr std::string_view sk = "{n}";
};
template <>
struct pksk::Entity<request_hook::Tagged> {
  static constexpr std::string_view type = "Tagged";
  static constexpr std::string_view pk = "TAGGED#{id}";
  static constexpr std::string_view sk = "T";
  static constexpr std::array indexes = {pksk::Index{"bytag", "TAG#{tag}", "TAGGED#{id}"}};
};

namespace {

using pksk::dynamodb::ConsumedCapacity;
using pksk::dynamodb::HttpRequest;
using pksk::dynamodb::HttpResponse;
using pksk::dynamodb::RequestRecord;
using pksk::dynamodb::ReturnConsumedCapacity;
using request_hook::Entry;
using request_hook::Note;
using request_hook::Spread;
using request_hook::Tagged;
using stub_service::FakeDynamoDB;
using stub_service::header;

// A RequestRecord kept past the hook's call: its views copied.
struct Kept {
  std::string operation;
  std::string table;
  std::size_t request_bytes = 0;
  std::size_t response_bytes = 0;
  std::chrono::nanoseconds latency{};
  std::chrono::nanoseconds last_attempt{};
  int attempts = 0;
  int http_status = 0;
  std::optional<ConsumedCapacity> consumed;
  std::string consumed_json;
  pksk::errc error{};
  std::string error_type;
  std::string error_message;
  std::thread::id thread;
};

struct Recorder {
  std::mutex mutex;
  std::vector<Kept> records;

  pksk::dynamodb::RequestHook hook() {
    return [this](const RequestRecord& r) {
      const std::lock_guard lock(mutex);
      records.push_back({std::string(r.operation), std::string(r.table), r.request_bytes,
                         r.response_bytes, r.latency, r.last_attempt, r.attempts, r.http_status,
                         r.consumed_capacity, std::string(r.consumed_capacity_json), r.error,
                         std::string(r.error_type), std::string(r.error_message),
                         std::this_thread::get_id()});
    };
  }
  // The one record made since the last call, checked to be alone.
  Kept only() {
    const std::lock_guard lock(mutex);
    REQUIRE(records.size() == 1);
    Kept out = records.front();
    records.clear();
    return out;
  }
  std::vector<std::string> operations() {
    const std::lock_guard lock(mutex);
    std::vector<std::string> out;
    for (const Kept& k : records) out.push_back(k.operation);
    records.clear();
    return out;
  }
};

pksk::dynamodb::Options stubbed(FakeDynamoDB& fake) {
  return {.endpoint = "http://dynamodb.test:8000",
          .region = "eu-west-1",
          .credentials = pksk::dynamodb::Credentials{"AKID", "secret", ""},
          .transport = fake.transport(),
          .retry = {.max_attempts = 3,
                    .base_delay = std::chrono::milliseconds(1),
                    .max_delay = std::chrono::milliseconds(2)}};
}

HttpResponse refusal(std::string_view type, long status = 400) {
  return HttpResponse{.status = status,
                      .body = R"({"__type":"com.amazonaws.dynamodb.v20120810#)" +
                              std::string(type) + R"(","message":"refused"})"};
}

bool asks_capacity(const HttpRequest& request) {
  return request.body.find("ReturnConsumedCapacity") != std::string::npos;
}

}  // namespace

// ------------------------------------------------------------------- over a stand-in transport

TEST_CASE("unset, the hook and the capacity change nothing in the requests") {
  FakeDynamoDB fake;
  std::vector<std::string> plain_bodies;
  {
    pksk::dynamodb::Backend backend{stubbed(fake)};
    pksk::Table table{backend, "notes"};
    const pksk::dynamodb::CapacityTally tally;  // counts nothing: no capacity is asked for
    table.put(Note{.id = "1", .text = "hello"});
    (void)table.get(Note{.id = "1"});
    CHECK(tally.requests() == 0);
    CHECK(tally.consumed() == ConsumedCapacity{});
    for (const HttpRequest& r : fake.requests) plain_bodies.push_back(r.body);
  }
  REQUIRE(plain_bodies.size() == 3);  // DescribeTable, PutItem, GetItem
  for (const std::string& body : plain_bodies)
    CHECK(body.find("ReturnConsumedCapacity") == std::string::npos);

  // A hook alone measures, but asks DynamoDB for nothing more: the same bodies go.
  fake.requests.clear();
  Recorder recorder;
  pksk::dynamodb::Options options = stubbed(fake);
  options.on_request = recorder.hook();
  pksk::dynamodb::Backend backend{options};
  pksk::Table table{backend, "notes"};
  table.put(Note{.id = "1", .text = "hello"});
  (void)table.get(Note{.id = "1"});
  REQUIRE(fake.requests.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(fake.requests[i].body == plain_bodies[i]);
  const std::vector<Kept> records = recorder.records;
  REQUIRE(records.size() == 3);
  CHECK(records[0].operation == "DescribeTable");
  CHECK(records[1].operation == "PutItem");
  CHECK(records[2].operation == "GetItem");
  for (const Kept& r : records) {
    CHECK(r.table == "notes");
    CHECK(r.attempts == 1);
    CHECK(r.http_status == 200);
    CHECK(r.error == pksk::errc{});
    CHECK(r.error_type.empty());
    CHECK_FALSE(r.consumed.has_value());
    CHECK(r.consumed_json.empty());
  }
  CHECK(records[1].request_bytes == plain_bodies[1].size());
  CHECK(records[1].response_bytes == 2);  // "{}"
}

TEST_CASE("a throttled request is one record, with all its attempts") {
  FakeDynamoDB fake;
  Recorder recorder;
  pksk::dynamodb::Options options = stubbed(fake);
  options.on_request = recorder.hook();
  options.retry.base_delay = std::chrono::milliseconds(5);
  options.retry.max_delay = std::chrono::milliseconds(5);
  pksk::dynamodb::Backend backend{options};
  pksk::Table table{backend, "notes"};
  (void)recorder.only();  // DescribeTable

  int calls = 0;
  fake.answer = [&](const HttpRequest&) {
    if (++calls <= 2) return refusal("ThrottlingException");
    return HttpResponse{.status = 200, .body = "{}"};
  };
  table.put(Note{.id = "1", .text = "hello"});
  Kept put = recorder.only();
  CHECK(put.operation == "PutItem");
  CHECK(put.attempts == 3);
  CHECK(put.error == pksk::errc{});
  CHECK(put.http_status == 200);
  CHECK(put.response_bytes == 2);
  // The whole call holds the attempts before the last, and the delays between them.
  CHECK(put.last_attempt > std::chrono::nanoseconds(0));
  CHECK(put.latency > put.last_attempt);

  // Refused on every attempt: the record is the error the call throws.
  calls = 0;
  fake.answer = [&](const HttpRequest&) {
    ++calls;
    return refusal("ThrottlingException");
  };
  CHECK_THROWS_AS(table.put(Note{.id = "1", .text = "hello"}), pksk::BackendError);
  CHECK(calls == 3);
  Kept failed = recorder.only();
  CHECK(failed.operation == "PutItem");
  CHECK(failed.attempts == 3);
  CHECK(failed.error == pksk::errc::throttled);
  CHECK(failed.error_type == "ThrottlingException");
  CHECK_THAT(failed.error_message, Catch::Contains("after 3 attempts"));
  CHECK(failed.http_status == 400);
  CHECK(failed.response_bytes > 0);
  CHECK_FALSE(failed.consumed.has_value());
}

TEST_CASE("refusals and lost answers are recorded as the errors the calls throw") {
  FakeDynamoDB fake;
  Recorder recorder;
  pksk::dynamodb::Options options = stubbed(fake);
  options.on_request = recorder.hook();
  pksk::dynamodb::Backend backend{options};
  pksk::Table table{backend, "notes"};
  (void)recorder.only();

  fake.answer = [](const HttpRequest&) { return refusal("ConditionalCheckFailedException"); };
  CHECK_THROWS_AS(table.put(Note{.id = "1"}, pksk::if_absent), pksk::ConditionFailed);
  Kept refused = recorder.only();
  CHECK(refused.operation == "PutItem");
  CHECK(refused.error == pksk::errc::condition_failed);
  CHECK(refused.error_type == "ConditionalCheckFailedException");
  CHECK(refused.attempts == 1);

  // An update whose answer is lost is never sent again: one attempt, no answer, no status.
  fake.answer = [](const HttpRequest&) {
    return HttpResponse{.transport_error = "connection reset"};
  };
  CHECK_THROWS_AS(table.update(Note{.id = "1"}, pksk::set(&Note::text, std::string("x"))),
                  pksk::BackendError);
  Kept lost = recorder.only();
  CHECK(lost.operation == "UpdateItem");
  CHECK(lost.error == pksk::errc::unknown_outcome);
  CHECK(lost.error_type.empty());
  CHECK(lost.http_status == 0);
  CHECK(lost.response_bytes == 0);
  CHECK(lost.attempts == 1);

  // The transport's own exception reaches the caller as it is; the record says backend_failure.
  fake.answer = [](const HttpRequest&) -> HttpResponse { throw std::runtime_error("offline"); };
  CHECK_THROWS_MATCHES(table.put(Note{.id = "1"}), std::runtime_error, Catch::Message("offline"));
  Kept thrown = recorder.only();
  CHECK(thrown.operation == "PutItem");
  CHECK(thrown.error == pksk::errc::backend_failure);
  CHECK(thrown.error_message == "offline");
  CHECK(thrown.attempts == 1);
}

TEST_CASE("the hook runs on the calling thread, and what it throws changes no outcome") {
  FakeDynamoDB fake;
  pksk::dynamodb::Options options = stubbed(fake);
  std::vector<std::thread::id> threads;
  std::mutex mutex;
  options.on_request = [&](const RequestRecord&) {
    {
      const std::lock_guard lock(mutex);
      threads.push_back(std::this_thread::get_id());
    }
    throw std::runtime_error("the hook failed");
  };
  pksk::dynamodb::Backend backend{options};
  pksk::Table table{backend, "notes"};  // DescribeTable: the hook threw, the table is open
  std::thread::id other_id;
  std::thread other([&] {
    other_id = std::this_thread::get_id();
    table.put(Note{.id = "2", .text = "there"});
  });
  other.join();
  table.put(Note{.id = "1", .text = "hello"});
  REQUIRE(threads.size() == 3);
  CHECK(threads[0] == std::this_thread::get_id());
  CHECK(threads[1] == other_id);
  CHECK(threads[2] == std::this_thread::get_id());

  // A failed call throws its own error, not the hook's.
  fake.answer = [](const HttpRequest&) { return refusal("ConditionalCheckFailedException"); };
  CHECK_THROWS_AS(table.put(Note{.id = "1"}, pksk::if_absent), pksk::ConditionFailed);
  // And the answer a visitor reads is whole: the hook runs once it was read.
  fake.answer = [](const HttpRequest&) {
    return HttpResponse{.status = 200,
                        .body = R"({"Item":{"pk":{"S":"NOTE#1"},"sk":{"S":"N"},)"
                                R"("type":{"S":"Note"},"id":{"S":"1"},"text":{"S":"hi"}}})"};
  };
  CHECK(table.get(Note{.id = "1"})->text == "hi");
}

TEST_CASE("a hook may call the backend itself: its requests are recorded after the outer one") {
  FakeDynamoDB fake;
  Recorder recorder;
  pksk::dynamodb::Options options = stubbed(fake);
  pksk::Table<pksk::dynamodb::Backend>* audit = nullptr;
  bool auditing = false;
  const pksk::dynamodb::RequestHook record = recorder.hook();
  options.on_request = [&](const RequestRecord& r) {
    record(r);
    if (audit == nullptr || auditing || r.operation != "PutItem") return;
    auditing = true;  // the audit's own put is recorded, not audited
    audit->put(Note{.id = "audit", .text = std::string(r.operation)});
    auditing = false;
  };
  options.return_consumed_capacity = ReturnConsumedCapacity::total;
  fake.answer = [](const HttpRequest& request) {
    if (header(request, "X-Amz-Target") == "DynamoDB_20120810.DescribeTable")
      return HttpResponse{.status = 200, .body = stub_service::active_table};
    const bool is_audit = request.body.find("audit") != std::string::npos;
    return HttpResponse{.status = 200,
                        .body = is_audit ? R"({"ConsumedCapacity":{"CapacityUnits":2}})"
                                         : R"({"ConsumedCapacity":{"CapacityUnits":1}})"};
  };
  pksk::dynamodb::Backend backend{options};
  pksk::Table table{backend, "notes"};
  audit = &table;
  (void)recorder.operations();
  table.put(Note{.id = "1", .text = "hello"});
  const std::vector<Kept> records = recorder.records;
  REQUIRE(records.size() == 2);
  // The outer put's record went first, whole; the audit's own, made from the hook, after it.
  CHECK(records[0].consumed->units == 1);
  CHECK(records[1].consumed->units == 2);
  CHECK(records[0].request_bytes != records[1].request_bytes);
}

TEST_CASE("consumed capacity is asked for, summed over tables, and split as DynamoDB splits it") {
  FakeDynamoDB fake;
  Recorder recorder;
  pksk::dynamodb::Options options = stubbed(fake);
  options.on_request = recorder.hook();
  options.return_consumed_capacity = ReturnConsumedCapacity::total;
  pksk::dynamodb::Backend backend{options};
  pksk::Table table{backend, "notes"};
  REQUIRE(fake.requests.size() == 1);
  CHECK_FALSE(asks_capacity(fake.requests[0]));  // DescribeTable takes none
  CHECK_FALSE(recorder.only().consumed.has_value());

  const pksk::dynamodb::CapacityTally outer;
  std::optional<pksk::dynamodb::CapacityTally> inner{std::in_place};
  // A get: the units are read units when DynamoDB does not split them.
  fake.answer = [](const HttpRequest&) {
    return HttpResponse{.status = 200,
                        .body = R"({"ConsumedCapacity":{"TableName":"notes","CapacityUnits":0.5},)"
                                R"("Item":{"pk":{"S":"NOTE#1"},"sk":{"S":"N"},"type":{"S":"Note"},)"
                                R"("id":{"S":"1"},"text":{"S":"hi"}}})"};
  };
  CHECK(table.get(Note{.id = "1"})->text == "hi");
  CHECK_THAT(fake.requests.back().body, Catch::EndsWith(R"(,"ReturnConsumedCapacity":"TOTAL"})"));
  Kept get = recorder.only();
  REQUIRE(get.consumed.has_value());
  CHECK(*get.consumed == ConsumedCapacity{.units = 0.5, .read_units = 0.5, .write_units = 0});
  CHECK(get.consumed_json == R"({"TableName":"notes","CapacityUnits":0.5})");
  inner.reset();

  // A transaction: an array of one entry per table, split by DynamoDB.
  fake.answer = [](const HttpRequest&) {
    return HttpResponse{.status = 200,
                        .body =
                            R"({"ConsumedCapacity":[)"
                            R"({"TableName":"notes","CapacityUnits":4.0,"ReadCapacityUnits":1.0,)"
                            R"("WriteCapacityUnits":3.0},{"TableName":"other","CapacityUnits":2,)"
                            R"("WriteCapacityUnits":2}]})"};
  };
  table.transact().put(Note{.id = "1", .text = "a"}).put(Note{.id = "2", .text = "b"}).commit();
  CHECK(asks_capacity(fake.requests.back()));
  Kept transaction = recorder.only();
  CHECK(transaction.operation == "TransactWriteItems");
  REQUIRE(transaction.consumed.has_value());
  CHECK(*transaction.consumed == ConsumedCapacity{.units = 6, .read_units = 1, .write_units = 5});
  CHECK_THAT(transaction.consumed_json, Catch::StartsWith("[{") && Catch::EndsWith("}]"));

  // A put, whose answer the operation itself does not read.
  fake.answer = [](const HttpRequest&) {
    return HttpResponse{.status = 200,
                        .body = R"({"ConsumedCapacity":{"TableName":"notes","CapacityUnits":1}})"};
  };
  table.put(Note{.id = "3", .text = "c"});
  CHECK(*recorder.only().consumed ==
        ConsumedCapacity{.units = 1, .read_units = 0, .write_units = 1});

  // The outer tally saw all three; the inner one, only the get.
  CHECK(outer.requests() == 3);
  CHECK(outer.consumed() == ConsumedCapacity{.units = 7.5, .read_units = 1.5, .write_units = 6});

  // An answer without it: none.
  fake.answer = [](const HttpRequest&) { return HttpResponse{.status = 200, .body = "{}"}; };
  table.put(Note{.id = "4", .text = "d"});
  CHECK_FALSE(recorder.only().consumed.has_value());
  CHECK(outer.requests() == 3);
}

TEST_CASE("return_consumed_capacity indexes asks for INDEXES, on item requests only") {
  FakeDynamoDB fake;
  pksk::dynamodb::Options options = stubbed(fake);
  options.return_consumed_capacity = ReturnConsumedCapacity::indexes;  // no hook: still asked
  pksk::dynamodb::Backend backend{options};
  pksk::Table table{backend, "notes"};
  const std::vector<Note> notes{{"1", "a"}, {"2", "b"}};
  table.put_all(notes);
  (void)table.get_all(notes);
  (void)table.query<Note>(pksk::partition(Note{.id = "1"}));
  (void)table.scan<Note>();
  (void)table.erase(Note{.id = "1"});
  REQUIRE(fake.requests.size() == 6);
  CHECK_FALSE(asks_capacity(fake.requests[0]));
  for (std::size_t i = 1; i < fake.requests.size(); ++i) {
    INFO(header(fake.requests[i], "X-Amz-Target"));
    CHECK_THAT(fake.requests[i].body, Catch::EndsWith(R"(,"ReturnConsumedCapacity":"INDEXES"})"));
  }
}

// ------------------------------------------------------------------------- on DynamoDB Local

namespace {

pksk::dynamodb::Options local(Recorder& recorder, ReturnConsumedCapacity capacity) {
  return {.endpoint = pksk_test::dynamodb_local_endpoint(),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "hook", ""},
          .create_missing_tables = true,
          .on_request = recorder.hook(),
          .return_consumed_capacity = capacity};
}

// The record of a successful request, with the capacity DynamoDB Local says it consumed.
void check_record(const Kept& r, std::string_view operation, const std::string& table,
                  const ConsumedCapacity& consumed) {
  INFO(operation);
  CHECK(r.operation == operation);
  CHECK(r.table == table);
  CHECK(r.attempts == 1);
  CHECK(r.http_status == 200);
  CHECK(r.error == pksk::errc{});
  CHECK(r.error_type.empty());
  CHECK(r.error_message.empty());
  CHECK(r.request_bytes > 0);
  CHECK(r.response_bytes > 0);
  CHECK(r.latency > std::chrono::nanoseconds(0));
  CHECK(r.last_attempt == r.latency);  // one attempt
  CHECK(r.thread == std::this_thread::get_id());
  REQUIRE(r.consumed.has_value());
  CHECK(*r.consumed == consumed);
  CHECK_THAT(r.consumed_json, Catch::Contains(R"("TableName":")" + table + '"'));
}

}  // namespace

TEST_CASE("on DynamoDB Local, each kind of call is recorded with what it consumed", "[local]") {
  Recorder recorder;
  pksk::dynamodb::Backend backend{local(recorder, ReturnConsumedCapacity::total)};
  const std::string name = pksk_test::fresh_table_name("hook_");
  pksk::Table table{backend, name};
  // Opening a missing table: DescribeTable, CreateTable, DescribeTable until it is active.
  const std::vector<std::string> opening = recorder.operations();
  REQUIRE(opening.size() >= 3);
  CHECK(opening[0] == "DescribeTable");
  CHECK(opening[1] == "CreateTable");
  CHECK(opening.back() == "DescribeTable");

  // Items under 1 KB: a write unit per item written, a read unit per consistent read of one
  // item, half for an eventually consistent query or scan (DynamoDB's prices and Local's).
  const ConsumedCapacity one_write{.units = 1, .read_units = 0, .write_units = 1};
  table.put(Note{.id = "1", .text = "hello"});
  check_record(recorder.only(), "PutItem", name, one_write);
  CHECK(table.get(Note{.id = "1"})->text == "hello");
  check_record(recorder.only(), "GetItem", name, {.units = 1, .read_units = 1, .write_units = 0});
  CHECK(table.update(Note{.id = "1"}, pksk::set(&Note::text, std::string("again"))).text ==
        "again");
  check_record(recorder.only(), "UpdateItem", name, one_write);
  CHECK(table.erase(Note{.id = "1"}));
  check_record(recorder.only(), "DeleteItem", name, one_write);

  std::vector<Entry> entries;
  for (int i = 0; i < 3; ++i) entries.push_back({"a", std::to_string(i), i});
  table.put_all(entries);
  check_record(recorder.only(), "BatchWriteItem", name,
               {.units = 3, .read_units = 0, .write_units = 3});
  CHECK(table.get_all(entries).size() == 3);
  check_record(recorder.only(), "BatchGetItem", name,
               {.units = 3, .read_units = 3, .write_units = 0});
  CHECK(table.query<Entry>(pksk::partition(entries[0])).size() == 3);
  check_record(recorder.only(), "Query", name, {.units = 0.5, .read_units = 0.5, .write_units = 0});
  CHECK(table.scan<Entry>().size() == 3);
  check_record(recorder.only(), "Scan", name, {.units = 0.5, .read_units = 0.5, .write_units = 0});

  table.transact().put(Note{.id = "2", .text = "b"}).put(Note{.id = "3", .text = "c"}).commit();
  const Kept transaction = recorder.only();
  CHECK(transaction.operation == "TransactWriteItems");
  CHECK(transaction.error == pksk::errc{});
  REQUIRE(transaction.consumed.has_value());
  // DynamoDB Local counts a transaction's units its own way; they are write units.
  CHECK(transaction.consumed->units > 0);
  CHECK(transaction.consumed->write_units == transaction.consumed->units);
  CHECK(transaction.consumed->read_units == 0);
}

TEST_CASE("on DynamoDB Local, a failed condition is recorded with DynamoDB's error", "[local]") {
  Recorder recorder;
  pksk::dynamodb::Backend backend{local(recorder, ReturnConsumedCapacity::total)};
  const std::string name = pksk_test::fresh_table_name("hook_");
  pksk::Table table{backend, name};
  table.put(Note{.id = "1", .text = "hello"});
  (void)recorder.operations();

  CHECK_THROWS_AS(table.put(Note{.id = "1", .text = "again"}, pksk::if_absent),
                  pksk::ConditionFailed);
  Kept put = recorder.only();
  CHECK(put.operation == "PutItem");
  CHECK(put.attempts == 1);
  CHECK(put.http_status == 400);
  CHECK(put.error == pksk::errc::condition_failed);
  CHECK(put.error_type == "ConditionalCheckFailedException");
  CHECK_THAT(put.error_message, Catch::Contains("condition failed"));
  CHECK_FALSE(put.consumed.has_value());  // DynamoDB does not say it with a refusal

  CHECK_THROWS_AS(table.transact().check(Note{.id = "2"}, pksk::exists).commit(),
                  pksk::TransactionCanceled);
  Kept transaction = recorder.only();
  CHECK(transaction.operation == "TransactWriteItems");
  CHECK(transaction.error == pksk::errc::transaction_canceled);
  CHECK(transaction.error_type == "TransactionCanceledException");

  // Sent exactly once, a conditional write is a one-action transaction, reported as the plain
  // write's error; the erase then reads the item to tell a failed condition from a missing item.
  {
    const pksk::dynamodb::ExactlyOnce once;
    CHECK_THROWS_AS(table.erase(Note{.id = "1"}, pksk::when(pksk::attr(&Note::text) == "x")),
                    pksk::ConditionFailed);
  }
  const std::vector<Kept> erase = recorder.records;
  REQUIRE(erase.size() == 2);
  CHECK(erase[0].operation == "TransactWriteItems");
  CHECK(erase[0].error == pksk::errc::condition_failed);
  CHECK(erase[0].error_type == "TransactionCanceledException");
  CHECK(erase[1].operation == "GetItem");
  CHECK(erase[1].error == pksk::errc{});
}

TEST_CASE("on DynamoDB Local, a tally sums the capacity of every request of a call", "[local]") {
  Recorder recorder;
  pksk::dynamodb::Backend backend{local(recorder, ReturnConsumedCapacity::total)};
  const std::string name = pksk_test::fresh_table_name("hook_");
  pksk::Table table{backend, name};
  (void)recorder.operations();
  std::vector<Entry> entries;
  for (int i = 0; i < 30; ++i) entries.push_back({"a", std::to_string(i), i});

  const pksk::dynamodb::CapacityTally tally;
  table.put_all(entries);  // 25 writes a request
  const std::vector<Kept> batches = recorder.records;
  REQUIRE(batches.size() == 2);
  CHECK(batches[0].consumed->units == 25);
  CHECK(batches[1].consumed->units == 5);
  CHECK(tally.requests() == 2);
  CHECK(tally.consumed() == ConsumedCapacity{.units = 30, .read_units = 0, .write_units = 30});
  {
    const pksk::dynamodb::CapacityTally query;
    CHECK(table.query<Entry>(pksk::partition(entries[0])).size() == 30);
    CHECK(query.requests() == 1);
    // 30 small items, under 4 KB in all, read eventually consistent: half a read unit.
    CHECK(query.consumed() == ConsumedCapacity{.units = 0.5, .read_units = 0.5, .write_units = 0});
  }
  CHECK(tally.requests() == 3);
  CHECK(tally.consumed() == ConsumedCapacity{.units = 30.5, .read_units = 0.5, .write_units = 30});
}

TEST_CASE("on DynamoDB Local, a fan-out read under a tally reads on the calling thread",
          "[local]") {
  Recorder recorder;
  pksk::dynamodb::Backend backend{local(recorder, ReturnConsumedCapacity::total)};
  const std::string name = pksk_test::fresh_table_name("hook_");
  pksk::Table table{backend, name};
  for (int i = 0; i < 20; ++i) table.put(Spread{.list = "s", .n = std::to_string(100 + i)});
  (void)recorder.operations();
  const std::vector<std::string> four_queries(4, "Query");
  {
    // Read in parallel, the shards' requests would be made, and counted, on other threads.
    const pksk::dynamodb::CapacityTally tally;
    CHECK(table.query_shards<Spread>(Spread{.list = "s"}, {.parallel = 4}).size() == 20);
    CHECK(tally.requests() == 4);
    CHECK(tally.consumed().read_units == 2);  // half a unit a shard
  }
  std::vector<Kept> records;
  {
    const std::lock_guard lock(recorder.mutex);
    records = std::exchange(recorder.records, {});
  }
  REQUIRE(records.size() == 4);
  for (const Kept& r : records) {
    CHECK(r.operation == "Query");
    CHECK(r.thread == std::this_thread::get_id());
  }
  // Without a tally the same four requests are made, and the same items come back.
  CHECK(table.query_shards<Spread>(Spread{.list = "s"}, {.parallel = 4}).size() == 20);
  CHECK(recorder.operations() == four_queries);
}

TEST_CASE("on DynamoDB Local, indexes says each index's share", "[local]") {
  Recorder recorder;
  pksk::dynamodb::Backend backend{local(recorder, ReturnConsumedCapacity::indexes)};
  const std::string name = pksk_test::fresh_table_name("hook_");
  pksk::Table table{backend, name, {.indexes = {"bytag"}}};
  (void)recorder.operations();
  table.put(Tagged{"a", "red"});
  const Kept put = recorder.only();
  REQUIRE(put.consumed.has_value());
  CHECK(put.consumed->units == 2);  // the table's unit and the index's
  CHECK_THAT(put.consumed_json,
             Catch::Contains(R"("Table":{"CapacityUnits":1.0})") &&
                 Catch::Contains(R"("GlobalSecondaryIndexes":{"bytag":{"CapacityUnits":1.0}})"));
}
