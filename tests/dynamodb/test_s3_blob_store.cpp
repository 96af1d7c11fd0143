// SPDX-License-Identifier: BSL-1.0
// S3BlobStore against moto's server (the credential_servers fixture's moto, which serves S3 as
// well as STS), and blob members of a table on DynamoDB Local kept there: every operation of
// the store with the metadata that names an item, then the round trip, a refused write leaving
// no object, and the sweep of an object a crashed put left behind.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pksk/dynamodb.hpp>
#include <pksk/dynamodb/detail/http.hpp>
#include <pksk/dynamodb/detail/sigv4.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too

#include "local_endpoint.hpp"

namespace s3_test {

struct Document {
  std::string folder;
  std::string name;
  std::string body;
  friend bool operator==(const Document&, const Document&) = default;
};

}  // namespace s3_test

template <>
struct pksk::Entity<s3_test::Document> {
  static constexpr std::string_view type = "Document";
  static constexpr std::string_view pk = "FOLDER#{folder}";
  static constexpr std::string_view sk = "DOC#{name}";
  static constexpr std::array stored_in_blob_store = {"body"};
  static constexpr std::size_t blob_threshold = 1000;
};

namespace {

using s3_test::Document;

const pksk::dynamodb::Credentials test_credentials{"pksk", "blobs", ""};

std::string moto_endpoint() {
  const char* dir = std::getenv("PKSK_CREDENTIAL_SERVERS_DIR");
  if (dir == nullptr) FAIL("PKSK_CREDENTIAL_SERVERS_DIR is not set");
  std::ifstream file(std::filesystem::path(dir) / "sts");
  std::string url;
  file >> url;
  if (url.empty()) FAIL("no moto endpoint in " << dir);
  return url;
}

// A new bucket in moto: S3BlobStore uses buckets, it does not make them.
std::string fresh_bucket() {
  const std::string bucket = "pksk-blobs-" + pksk_test::fresh_table_name("b").substr(1);
  pksk::dynamodb::HttpRequest request;
  request.method = "PUT";
  request.url = moto_endpoint() + "/" + bucket;
  request.headers.push_back({"x-amz-content-sha256", pksk::dynamodb::detail::sha256_hex("")});
  pksk::dynamodb::detail::sign_v4(
      request, test_credentials, "us-east-1", "s3",
      pksk::dynamodb::detail::amz_timestamp(std::chrono::system_clock::now()));
  pksk::dynamodb::detail::ensure_curl_global();
  pksk::dynamodb::detail::CurlHandle curl;
  pksk::dynamodb::HttpResponse response;
  curl.send(request, std::chrono::seconds(3), std::chrono::seconds(10), response);
  REQUIRE(response.status == 200);
  return bucket;
}

std::shared_ptr<pksk::dynamodb::S3BlobStore> make_store() {
  return std::make_shared<pksk::dynamodb::S3BlobStore>(
      pksk::dynamodb::S3Options{.bucket = fresh_bucket(),
                                .endpoint = moto_endpoint(),
                                .region = "us-east-1",
                                .credentials = test_credentials});
}

pksk::dynamodb::Options local_options() {
  return {.endpoint = pksk_test::dynamodb_local_endpoint(),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "conformance", ""},
          .create_missing_tables = true};
}

}  // namespace

TEST_CASE("S3BlobStore puts, reads, lists and removes objects with their item's metadata") {
  const auto store = make_store();
  const pksk::BlobMetadata item{"docs", "FOLDER#ä b", "DOC#x/y%z", "body"};
  const std::string bytes = std::string("\0\x01\xff binary", 10) + std::string(5000, 'b');
  const auto before = std::chrono::system_clock::now() - std::chrono::seconds(2);
  store->put("docs/abc/body/1", bytes, item);
  store->put("docs/abc/body/2", "two", item);
  store->put("other/x", "x", item);

  CHECK(store->get("docs/abc/body/1") == bytes);
  CHECK(store->get("docs/abc/body/3") == std::nullopt);

  const auto head = store->head("docs/abc/body/1");
  REQUIRE(head);
  CHECK(head->size == bytes.size());
  CHECK(head->metadata == item);
  CHECK(head->modified >= before);
  CHECK(store->head("docs/nothing") == std::nullopt);

  const auto listed = store->list("docs/");
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].key == "docs/abc/body/1");
  CHECK(listed[0].size == bytes.size());
  CHECK(listed[0].modified >= before);
  CHECK(listed[1].key == "docs/abc/body/2");

  store->remove("docs/abc/body/1");
  store->remove("docs/abc/body/1");  // no error when already gone
  CHECK(store->get("docs/abc/body/1") == std::nullopt);
  CHECK(store->list("docs/").size() == 1);
  CHECK_THROWS_AS(store->get("../escape"), pksk::ValidationError);
}

TEST_CASE("S3BlobStore asks its provider again when S3 says the token expired, as the backend") {
  // A transport of the test's own: the first answer refuses the token, and the request is
  // signed again with the provider's next credentials and sent at once.
  int asked = 0;
  std::vector<std::string> tokens;
  int sent = 0;
  pksk::dynamodb::S3Options options{
      .bucket = "b",
      .endpoint = "http://127.0.0.1:9",
      .region = "us-east-1",
      .credentials_provider =
          [&] {
            ++asked;
            return pksk::dynamodb::Credentials{
                "id", "secret", "token" + std::to_string(asked),
                std::chrono::system_clock::now() + std::chrono::hours(1)};
          },
      .transport =
          [&](const pksk::dynamodb::HttpRequest& request) {
            ++sent;
            for (const auto& h : request.headers) {
              if (h.name == "X-Amz-Security-Token") tokens.push_back(h.value);
            }
            pksk::dynamodb::HttpResponse response;
            if (sent == 1) {
              response.status = 400;
              response.body =
                  "<Error><Code>ExpiredToken</Code><Message>The provided token has "
                  "expired.</Message></Error>";
            } else {
              response.status = 200;
            }
            return response;
          }};
  pksk::dynamodb::S3BlobStore store{options};
  store.put("k", "bytes", pksk::BlobMetadata{"t", "p", "s", "m"});
  CHECK(sent == 2);
  CHECK(asked == 2);
  CHECK(tokens == std::vector<std::string>{"token1", "token2"});

  // Explicit keys never change: an expired token is then S3's refusal, reported.
  pksk::dynamodb::S3Options fixed = options;
  fixed.credentials_provider = nullptr;
  fixed.credentials = pksk::dynamodb::Credentials{"id", "secret", "old", std::nullopt};
  sent = 0;
  pksk::dynamodb::S3BlobStore refused{fixed};
  CHECK_THROWS_AS(refused.put("k", "bytes", pksk::BlobMetadata{"t", "p", "s", "m"}),
                  pksk::BackendError);
  CHECK(sent == 1);
}

TEST_CASE("S3BlobStore refuses a bucket that does not exist with a BackendError") {
  pksk::dynamodb::S3BlobStore store({.bucket = "pksk-no-such-bucket",
                                     .endpoint = moto_endpoint(),
                                     .region = "us-east-1",
                                     .credentials = test_credentials});
  CHECK_THROWS_AS(store.put("a/b", "x", {}), pksk::BackendError);
}

TEST_CASE("blob members of a table on DynamoDB Local kept in S3") {
  const auto store = make_store();
  pksk::dynamodb::Backend backend{local_options()};
  const std::string name = pksk_test::fresh_table_name("blobs");
  pksk::TableOptions options;
  options.blob_store = store;
  pksk::Table table{backend, name, options};

  Document doc{"f", "big", std::string(20'000, 'd')};
  const Document small{"f", "small", "tiny"};
  table.put(doc);
  table.put(small);
  CHECK(table.get(Document{"f", "big", {}}) == doc);
  CHECK(table.template query<Document>(pksk::PartitionKey{"FOLDER#f"}) == std::vector{doc, small});
  const auto objects = store->list(name + "/");
  REQUIRE(objects.size() == 1);
  const auto head = store->head(objects[0].key);
  REQUIRE(head);
  CHECK(head->metadata == pksk::BlobMetadata{name, "FOLDER#f", "DOC#big", "body"});

  // A write refused by DynamoDB leaves the objects as they were.
  Document other{"f", "big", std::string(30'000, 'e')};
  CHECK_THROWS_AS(table.put(other, pksk::if_absent), pksk::ConditionFailed);
  REQUIRE(store->list(name + "/").size() == 1);

  // A put that crashed between its object and its item left an orphan: the sweep removes it
  // once past the grace period, and leaves the live object.
  const std::string orphan = pksk::detail::blob_object_key(name, "FOLDER#f", "DOC#big", "body");
  store->put(orphan, "lost", pksk::BlobMetadata{name, "FOLDER#f", "DOC#big", "body"});
  CHECK(pksk::maintenance(table).sweep_blobs(std::chrono::hours(1)) == 0);
  CHECK(pksk::maintenance(table).sweep_blobs(std::chrono::seconds(-5)) == 1);
  const auto left = store->list(name + "/");
  REQUIRE(left.size() == 1);
  CHECK(left[0].key == objects[0].key);

  // A replacement under the threshold removes the object.
  doc.body = "now small";
  table.put(doc);
  CHECK(store->list(name + "/").empty());
  CHECK(table.get(doc) == doc);
}
