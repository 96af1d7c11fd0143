// SPDX-License-Identifier: BSL-1.0
// The DynamoDB backend over a transport and a credentials provider the program gives
// (Options::transport, Options::credentials_provider): an in-process transport stands in for
// DynamoDB, so these tests need no server. They hold what the backend puts on the wire (the
// signature with the provider's keys, the operation, the body) and what it makes of an answer.

#include <catch2/catch.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>
#include "../support/numbered.hpp"
#include "stub_service.hpp"

namespace dynamodb_transport {
struct Note {
  std::string id;
  std::string text;
};
}  // namespace dynamodb_transport

template <>
struct pksk::Entity<dynamodb_transport::Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "N";
};

namespace {

using dynamodb_transport::Note;
using pksk::dynamodb::HttpRequest;
using pksk::dynamodb::HttpResponse;
using stub_service::active_table;
using stub_service::FakeDynamoDB;
using stub_service::header;

pksk::dynamodb::Options options(FakeDynamoDB& fake) {
  return {.endpoint = "http://dynamodb.test:8000",
          .region = "eu-west-1",
          .credentials = pksk::dynamodb::Credentials{"EXPLICIT", "unused", ""},
          .transport = fake.transport(),
          .retry = {.max_attempts = 3,
                    .base_delay = std::chrono::milliseconds(1),
                    .max_delay = std::chrono::milliseconds(2)}};
}

}  // namespace

TEST_CASE("a put goes to the given transport, signed with the provider's credentials") {
  FakeDynamoDB fake;
  int provider_calls = 0;
  pksk::dynamodb::Options o = options(fake);
  o.credentials_provider = [&] {
    ++provider_calls;
    return pksk::dynamodb::Credentials{"AKIDPROVIDER", "provider-secret", "provider-token"};
  };
  pksk::dynamodb::Backend backend{o};
  CHECK(provider_calls == 1);  // when the Backend is made: a provider that fails, fails there
  pksk::Table table{backend, "notes"};
  table.put(Note{.id = "1", .text = "hello"});

  REQUIRE(fake.requests.size() == 2);
  CHECK(header(fake.requests[0], "X-Amz-Target") == "DynamoDB_20120810.DescribeTable");
  const HttpRequest& put = fake.requests[1];
  CHECK(put.method == "POST");
  CHECK(put.url == "http://dynamodb.test:8000");
  CHECK(header(put, "X-Amz-Target") == "DynamoDB_20120810.PutItem");
  CHECK(header(put, "Content-Type") == "application/x-amz-json-1.0");
  // Signed with the provider's keys, never the explicit ones: the provider takes precedence.
  CHECK_THAT(header(put, "Authorization"),
             Catch::StartsWith("AWS4-HMAC-SHA256 Credential=AKIDPROVIDER/") &&
                 Catch::Contains("/eu-west-1/dynamodb/aws4_request") &&
                 Catch::Contains("x-amz-security-token") && Catch::Contains("Signature="));
  CHECK(header(put, "X-Amz-Security-Token") == "provider-token");
  CHECK(put.body ==
        R"({"TableName":"notes","Item":{"pk":{"S":"NOTE#1"},"sk":{"S":"N"},"type":{"S":"Note"},)"
        R"("id":{"S":"1"},"text":{"S":"hello"}}})");
  // Long-term credentials (no expiration) are not asked for again.
  table.put(Note{.id = "2", .text = "again"});
  CHECK(provider_calls == 1);
}

TEST_CASE("the transport's 400 ThrottlingException is retried, then errc::throttled") {
  FakeDynamoDB fake;
  pksk::dynamodb::Backend backend{options(fake)};
  pksk::Table table{backend, "notes"};
  int puts = 0;
  fake.answer = [&](const HttpRequest&) {
    ++puts;
    return HttpResponse{.status = 400,
                        .body =
                            R"({"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException",)"
                            R"("message":"Rate of requests exceeds the allowed throughput."})"};
  };
  try {
    table.put(Note{.id = "1", .text = "hello"});
    FAIL("the put did not throw");
  } catch (const pksk::BackendError& e) {
    CHECK(e.code() == pksk::errc::throttled);
    CHECK(e.native().code == 400);
    CHECK(e.native().type == "ThrottlingException");
    CHECK_THAT(e.what(), Catch::Contains("after 3 attempts"));
  }
  CHECK(puts == 3);  // Options::retry.max_attempts
}

TEST_CASE("throttling is retried until answered; validation and auth failures never are") {
  FakeDynamoDB fake;
  pksk::dynamodb::Backend backend{options(fake)};
  pksk::Table table{backend, "notes"};
  int calls = 0;
  const auto refuse_with = [&](std::string type, int refusals) {
    calls = 0;
    fake.answer = [&calls, type, refusals](const HttpRequest&) {
      if (++calls > refusals) return HttpResponse{.status = 200, .body = "{}"};
      return HttpResponse{.status = 400,
                          .body = R"({"__type":"com.amazonaws.dynamodb.v20120810#)" + type +
                                  R"(","message":"refused"})"};
    };
  };
  refuse_with("ThrottlingException", 2);
  table.put(Note{.id = "1", .text = "hello"});
  CHECK(calls == 3);
  refuse_with("ProvisionedThroughputExceededException", 2);
  // Throttling refuses a request before it is applied: an update is sent again too.
  (void)table.update(Note{.id = "1"}, pksk::set(&Note::text, std::string("again")));
  CHECK(calls == 3);
  const struct {
    const char* type;
    pksk::errc code;
  } never[] = {{"ValidationException", pksk::errc::validation},
               {"UnrecognizedClientException", pksk::errc::access_denied},
               {"AccessDeniedException", pksk::errc::access_denied},
               {"MissingAuthenticationTokenException", pksk::errc::access_denied}};
  for (const auto& refusal : never) {
    INFO(refusal.type);
    refuse_with(refusal.type, 100);
    try {
      table.put(Note{.id = "1", .text = "hello"});
      FAIL("the put was answered");
    } catch (const pksk::Error& e) {
      CHECK(e.code() == refusal.code);
      CHECK_FALSE(e.retryable());
      CHECK(e.native().type == refusal.type);
    }
    CHECK(calls == 1);
  }
}

TEST_CASE("a request without an answer from the transport is retried like a 5xx") {
  FakeDynamoDB fake;
  pksk::dynamodb::Backend backend{options(fake)};
  pksk::Table table{backend, "notes"};
  int calls = 0;
  fake.answer = [&](const HttpRequest&) {
    if (++calls == 1) return HttpResponse{.transport_error = "connection reset"};
    return HttpResponse{.status = 200, .body = "{}"};
  };
  table.put(Note{.id = "1", .text = "hello"});  // unconditional: safe to send again
  CHECK(calls == 2);
}

TEST_CASE("expiring credentials are asked for again, and an expired token once more") {
  FakeDynamoDB fake;
  int provider_calls = 0;
  // The first credentials last 20 ms: past half their lifetime (a margin shorter than five
  // minutes, Options::credentials_refresh_margin), the first request asks for new ones.
  auto expiration = std::chrono::system_clock::now() + std::chrono::milliseconds(20);
  pksk::dynamodb::Options o = options(fake);
  o.credentials_provider = [&] {
    ++provider_calls;
    return pksk::dynamodb::Credentials{.access_key_id = support::numbered("AKID", provider_calls),
                                       .secret_access_key = "secret",
                                       .session_token = support::numbered("token", provider_calls),
                                       .expiration = expiration};
  };
  pksk::dynamodb::Backend backend{o};
  CHECK(provider_calls == 1);
  expiration = std::chrono::system_clock::now() + std::chrono::hours(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(15));
  pksk::Table table{backend, "notes"};
  CHECK(provider_calls == 2);  // DescribeTable, signed with the second ones
  CHECK(header(fake.requests.back(), "X-Amz-Security-Token") == "token2");
  table.put(Note{.id = "1", .text = "hello"});
  CHECK(provider_calls == 2);  // an hour left
  CHECK(header(fake.requests.back(), "X-Amz-Security-Token") == "token2");
  CHECK_THAT(header(fake.requests.back(), "Authorization"), Catch::Contains("Credential=AKID2/"));

  // DynamoDB says the token expired (revoked early): renewed once, and the request resent.
  std::vector<std::string> tokens;
  fake.answer = [&](const HttpRequest& request) {
    tokens.push_back(header(request, "X-Amz-Security-Token"));
    if (tokens.size() == 1)
      return HttpResponse{
          .status = 400,
          .body = R"({"__type":"com.amazon.coral.service#ExpiredTokenException",)"
                  R"("message":"The security token included in the request is expired"})"};
    return HttpResponse{.status = 200, .body = "{}"};
  };
  table.put(Note{.id = "2", .text = "hello"});
  CHECK(provider_calls == 3);
  CHECK(tokens == std::vector<std::string>{"token2", "token3"});
}

TEST_CASE("a provider that gives no keys fails when the Backend is made") {
  FakeDynamoDB fake;
  pksk::dynamodb::Options o = options(fake);
  o.credentials_provider = [] { return pksk::dynamodb::Credentials{}; };
  try {
    pksk::dynamodb::Backend backend{o};
    FAIL("the Backend was made");
  } catch (const pksk::BackendError& e) {
    CHECK(e.code() == pksk::errc::access_denied);
    CHECK_THAT(e.what(), Catch::Contains("credentials_provider"));
  }
  CHECK(fake.requests.empty());
}

namespace {

// TransactGetItems' refusal when a transaction is writing one of the items (DynamoDB's
// TransactionConflict), or when a key is otherwise refused.
HttpResponse canceled_answer(std::string_view second_reason) {
  return HttpResponse{
      .status = 400,
      .body = R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
              R"("message":"Transaction cancelled","CancellationReasons":[{"Code":"None"},)"
              R"({"Code":")" +
              std::string(second_reason) + R"(","Message":"refused"}]})"};
}

const std::string two_notes_answer =
    R"({"Responses":[{"Item":{"pk":{"S":"NOTE#1"},"sk":{"S":"N"},"type":{"S":"Note"},)"
    R"("id":{"S":"1"},"text":{"S":"one"}}},{}]})";

}  // namespace

TEST_CASE("transact_get is one TransactGetItems; a conflict is retried, then TransactionCanceled") {
  FakeDynamoDB fake;
  pksk::dynamodb::Backend backend{options(fake)};
  pksk::Table table{backend, "notes"};
  int calls = 0;
  fake.answer = [&](const HttpRequest&) {
    return ++calls < 3 ? canceled_answer("TransactionConflict")
                       : HttpResponse{.status = 200, .body = two_notes_answer};
  };
  const auto [one, two] = table.transact_get(Note{.id = "1"}, Note{.id = "2"});
  CHECK(calls == 3);
  REQUIRE(one);
  CHECK(one->text == "one");
  CHECK_FALSE(two);
  const HttpRequest& sent = fake.requests.back();
  CHECK(header(sent, "X-Amz-Target") == "DynamoDB_20120810.TransactGetItems");
  CHECK(sent.body == R"({"TransactItems":[{"Get":{"TableName":"notes","Key":{"pk":{"S":"NOTE#1"},)"
                     R"("sk":{"S":"N"}}}},{"Get":{"TableName":"notes","Key":{"pk":{"S":"NOTE#2"},)"
                     R"("sk":{"S":"N"}}}}]})");

  // Conflicts past Options::retry.max_attempts: the cancellation, with its reasons.
  calls = 0;
  fake.answer = [&](const HttpRequest&) { return ++calls, canceled_answer("TransactionConflict"); };
  try {
    (void)table.transact_get(std::vector<Note>{Note{.id = "1"}, Note{.id = "2"}});
    FAIL("the read was answered");
  } catch (const pksk::TransactionCanceled& e) {
    using R = pksk::CancellationReason;
    CHECK(e.reasons() == std::vector<R>{R::none, R::conflict});
    CHECK(e.retryable());
    CHECK(e.native().type == "TransactionCanceledException");
  }
  CHECK(calls == 3);

  // A reason that another attempt would not change is not retried.
  calls = 0;
  fake.answer = [&](const HttpRequest&) { return ++calls, canceled_answer("ValidationError"); };
  CHECK_THROWS_AS(table.transact_get(Note{.id = "1"}, Note{.id = "2"}), pksk::TransactionCanceled);
  CHECK(calls == 1);
}

TEST_CASE("count is Select=COUNT, every page's Count summed") {
  FakeDynamoDB fake;
  pksk::dynamodb::Backend backend{options(fake)};
  pksk::Table table{backend, "notes"};
  std::vector<std::string> bodies;
  fake.answer = [&](const HttpRequest& request) {
    bodies.push_back(request.body);
    if (bodies.size() == 1) {
      return HttpResponse{.status = 200,
                          .body = R"({"Count":4,"ScannedCount":6,"LastEvaluatedKey":)"
                                  R"({"pk":{"S":"NOTE#1"},"sk":{"S":"N"}}})"};
    }
    return HttpResponse{.status = 200, .body = R"({"Count":1,"ScannedCount":2})"};
  };
  CHECK(table.count<Note>(pksk::partition(Note{.id = "1"}),
                          {.filter = pksk::attr(&Note::text) != "x"}) == 5);
  REQUIRE(bodies.size() == 2);
  CHECK_THAT(bodies[0], Catch::Contains(R"("Select":"COUNT")") &&
                            !Catch::Contains("ProjectionExpression") &&
                            !Catch::Contains("ExclusiveStartKey"));
  CHECK_THAT(bodies[1], Catch::Contains(R"("Select":"COUNT")") &&
                            Catch::Contains(R"("ExclusiveStartKey":{"pk":{"S":"NOTE#1"})"));
}
