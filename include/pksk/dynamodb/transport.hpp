// SPDX-License-Identifier: BSL-1.0
#pragma once
// The HTTP exchange of the DynamoDB backend as something a program can supply
// (Options::transport): the signed request the backend sends, the answer it expects back, and
// the function type that sends one. The default is libcurl (detail/http.hpp); a program gives
// its own to send through another HTTP client or a proxy, to record or replay requests, or to
// test with no server at all, while the backend keeps the signing, the retries and the reading
// of DynamoDB's answers.

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace pksk::dynamodb {

// One HTTP header of a request or an answer.
struct HttpHeader {
  // The header's name, as sent.
  std::string name{};
  // Its value.
  std::string value{};
};

// Every member has a default, so that a transport (or a test) may name only those it sets:
// `HttpResponse{.status = 200, .body = "{}"}` compiles under -Wextra.

// A request as the backend sends it: already signed (Authorization, X-Amz-Date and, with
// temporary credentials, X-Amz-Security-Token are among the headers). A transport sends the
// headers and the body as they are: changing them breaks the signature.
struct HttpRequest {
  // The HTTP method: POST for DynamoDB; GET, PUT, HEAD, DELETE for S3.
  std::string method = "POST";
  std::string url{};  // scheme://host[:port][/path], the path percent-encoded as it is sent
  std::vector<std::pair<std::string, std::string>> query{};  // decoded; encoded when signed
  // The signed headers, to send as they are.
  std::vector<HttpHeader> headers{};
  // The body, to send as it is.
  std::string body{};
  // False for a write that would apply twice if sent twice (an UpdateItem, a PutItem or
  // DeleteItem with a condition): once any of it may have reached the server, a transport must
  // not send it again, but answer status 0 with maybe_sent. The libcurl transport refuses
  // libcurl's own resend of a request on a reused connection that closed before answering.
  bool idempotent = true;
};

// What a transport hands back: the answer, or why none came.
struct HttpResponse {
  long status = 0;                // 0 when no answer came (see transport_error)
  std::string body{};             // reused between requests: its capacity stays
  std::string transport_error{};  // why no answer came, when status is 0
  // False when the request surely never reached the server (no connection could be made), so
  // that sending it again cannot apply it twice.
  bool maybe_sent = true;
  // The answer's headers, names as sent. DynamoDB's answers are read from the body alone; the
  // S3 blob store reads an object's size, time and metadata from these.
  std::vector<HttpHeader> headers{};
};

// Sends one request and waits for its answer. Any HTTP status is an answer: the backend reads
// DynamoDB's error from the body (a 400 ThrottlingException is retried, a 400
// ConditionalCheckFailedException becomes ConditionFailed). A request that got no answer
// (refused, timed out, dropped) is status 0 with transport_error set, and is retried like a
// 5xx. Called from every thread that uses the Backend, concurrently; the timeouts of Options
// are the transport's own business (the libcurl one applies connect_timeout and
// request_timeout). Exceptions it throws reach the caller of the backend's operation.
using Transport = std::function<HttpResponse(const HttpRequest&)>;

}  // namespace pksk::dynamodb
