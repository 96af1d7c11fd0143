// SPDX-License-Identifier: BSL-1.0
#pragma once
// The hand-written side of the DynamoDB benchmarks: DynamoDB Local's endpoint, and one libcurl
// handle that signs (pksk's SigV4, so the signing costs both sides the same) and sends one
// request at a time, the answer kept in `body`.

#include <curl/curl.h>

#include <chrono>
#include <cstdlib>
#include <pksk/dynamodb.hpp>
#include <pksk/dynamodb/detail/http.hpp>  // libcurl and SigV4, with PKSK_SEPARATE_COMPILATION too
#include <stdexcept>
#include <string>

namespace pksk_bench {

inline std::string dynamodb_endpoint() {
  const char* e = std::getenv("PKSK_DYNAMODB_ENDPOINT");
  if (e == nullptr || *e == '\0') throw std::runtime_error("set PKSK_DYNAMODB_ENDPOINT");
  return e;
}

class HandDynamoDbClient {
 public:
  std::string body;  // the last answer

  HandDynamoDbClient() : curl_(curl_easy_init()) {
    if (curl_ == nullptr) throw std::runtime_error("curl_easy_init failed");
  }
  HandDynamoDbClient(const HandDynamoDbClient&) = delete;
  HandDynamoDbClient& operator=(const HandDynamoDbClient&) = delete;
  ~HandDynamoDbClient() { curl_easy_cleanup(curl_); }

  // One request of `operation` with `json` as its body, signed and sent; the answer in body.
  void send(const char* operation, std::string json) {
    pksk::dynamodb::detail::HttpRequest request;
    request.url = endpoint_;
    request.body = std::move(json);
    request.headers = {{"Content-Type", "application/x-amz-json-1.0"},
                       {"X-Amz-Target", std::string("DynamoDB_20120810.") + operation}};
    pksk::dynamodb::detail::sign_v4(
        request, credentials_, "us-east-1", "dynamodb",
        pksk::dynamodb::detail::amz_timestamp(std::chrono::system_clock::now()));
    curl_slist* headers = nullptr;
    for (const auto& h : request.headers)
      headers = curl_slist_append(headers, (h.name + ": " + h.value).c_str());
    headers = curl_slist_append(headers, "Expect:");
    body.clear();
    curl_easy_setopt(curl_, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &on_data);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &body);
    const CURLcode code = curl_easy_perform(curl_);
    curl_slist_free_all(headers);
    long status = 0;
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
    if (code != CURLE_OK || status != 200) throw std::runtime_error("request failed: " + body);
  }

 private:
  static std::size_t on_data(char* data, std::size_t size, std::size_t count, void* out) {
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
  }

  CURL* curl_;
  std::string endpoint_ = dynamodb_endpoint();
  const pksk::dynamodb::Credentials credentials_{"pksk", "bench", ""};
};

}  // namespace pksk_bench
