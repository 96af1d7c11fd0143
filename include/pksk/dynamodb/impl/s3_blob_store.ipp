// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of S3BlobStore (s3_blob_store.hpp): inline through it in header-only mode,
// compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "../../blob/object_keys.hpp"
#include "../../detail/iso8601.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../credentials/cache.hpp"
#include "../credentials/chain.hpp"
#include "../credentials/detail/xml.hpp"
#include "../detail/http.hpp"
#include "../detail/sigv4.hpp"
#include "../s3_blob_store.hpp"

namespace pksk::dynamodb {

namespace detail {

inline std::string percent_decoded(std::string_view text) {
  std::string out;
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

inline std::string uri_encoded(std::string_view text, std::string_view safe) {
  std::string out;
  append_uri_encoded(out, text, safe);
  return out;
}

inline bool equal_ignoring_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

inline const std::string* header_of(const HttpResponse& response, std::string_view name) {
  for (const HttpHeader& h : response.headers) {
    if (equal_ignoring_case(h.name, name)) return &h.value;
  }
  return nullptr;
}

// "Wed, 12 Oct 2009 17:50:00 GMT" (RFC 7231's IMF-fixdate), as S3 sends Last-Modified.
inline std::chrono::system_clock::time_point parse_http_date(std::string_view text) {
  static constexpr std::string_view months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (text.size() < 29) return {};
  const auto number = [&](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (text[i] - '0');
    return v;
  };
  unsigned month = 0;
  for (unsigned m = 0; m < 12; ++m) {
    if (text.substr(8, 3) == months[m]) month = m + 1;
  }
  if (month == 0) return {};
  const std::chrono::year_month_day day{std::chrono::year(number(12, 4)), std::chrono::month(month),
                                        std::chrono::day(static_cast<unsigned>(number(5, 2)))};
  return std::chrono::sys_days(day) + std::chrono::hours(number(17, 2)) +
         std::chrono::minutes(number(20, 2)) + std::chrono::seconds(number(23, 2));
}

}  // namespace detail

struct S3BlobStore::State {
  S3Options options;
  std::string region;
  std::string endpoint;                                // without a trailing '/'
  std::optional<detail::CredentialCache> credentials;  // the DynamoDB backend's policy
  std::uint64_t id = detail::next_client_id();
  std::shared_ptr<const void> alive = std::make_shared<int>(0);
};

PKSK_DECL S3BlobStore::S3BlobStore(S3Options options) : state_(std::make_shared<State>()) {
  State& s = *state_;
  if (options.bucket.empty()) throw ValidationError("pksk S3 blob store: no bucket is named");
  s.region = resolve_region(options.region, options.credential_chain.profile);
  s.endpoint =
      options.endpoint.empty() ? "https://s3." + s.region + ".amazonaws.com" : options.endpoint;
  while (s.endpoint.ends_with('/')) s.endpoint.pop_back();
  s.credentials.emplace(
      detail::CredentialSettings{.credentials = options.credentials,
                                 .provider = options.credentials_provider,
                                 .chain = options.credential_chain,
                                 .profile = options.credential_chain.profile,
                                 .region = s.region,
                                 .refresh_margin = options.credentials_refresh_margin});
  s.options = std::move(options);
}

PKSK_DECL HttpResponse S3BlobStore::send(HttpRequest request, std::string_view what,
                                         std::string_view key) {
  State& s = *state_;
  HttpResponse response;
  // S3 refuses a request without the payload's hash (or UNSIGNED-PAYLOAD); it is signed too,
  // and the same for every attempt.
  request.headers.push_back({"x-amz-content-sha256", detail::sha256_hex(request.body)});
  bool renewed = false;  // the credentials, once, after S3 said their token has expired
  for (int attempt = 1;; ++attempt) {
    const std::shared_ptr<const Credentials> signer = s.credentials->current();
    detail::sign_v4(request, *signer, s.region, "s3",
                    detail::amz_timestamp(std::chrono::system_clock::now()));
    if (s.options.transport) {
      response = s.options.transport(request);
    } else {
      detail::thread_handle(s.id, s.alive)
          .send(request, s.options.connect_timeout, s.options.request_timeout, response);
    }
    if ((response.status == 400 || response.status == 403) && !renewed &&
        detail::xml_text(response.body, "Code").value_or("") == "ExpiredToken" &&
        s.credentials->renew(signer.get())) {
      renewed = true;  // refused before anything was done: signed again and sent at once
      --attempt;
      continue;
    }
    const bool again = response.status == 0 || response.status >= 500;
    if (!again || attempt >= s.options.max_attempts) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50) * (1 << attempt));
  }
  if (response.status == 0) {
    throw BackendError(errc::unavailable, "pksk S3 blob store, " + std::string(what) + " " +
                                              pksk::detail::quoted(key) + ": no answer from " +
                                              s.endpoint + ": " + response.transport_error);
  }
  return response;
}

namespace detail {

[[noreturn]] inline void throw_s3_failure(std::string_view what, std::string_view key,
                                          const HttpResponse& response) {
  const errc code = response.status == 403   ? errc::access_denied
                    : response.status == 503 ? errc::throttled
                    : response.status >= 500 ? errc::unavailable
                                             : errc::backend_failure;
  std::string s3_code = xml_text(response.body, "Code").value_or("");
  throw BackendError(
      code,
      "pksk S3 blob store, " + std::string(what) + " " + pksk::detail::quoted(key) + ": HTTP " +
          std::to_string(response.status) + (s3_code.empty() ? "" : " " + s3_code) + ": " +
          xml_text(response.body, "Message").value_or(""),
      NativeError{NativeError::Origin::dynamodb, static_cast<int>(response.status), s3_code});
}

inline void check_s3_key(std::string_view key) {
  if (!pksk::detail::is_plain_blob_key(key)) {
    throw ValidationError("pksk S3 blob store: the object key " + pksk::detail::quoted(key) +
                          " is not a relative path of letters, digits, '/', '_', '-' and '.'");
  }
}

}  // namespace detail

PKSK_DECL void S3BlobStore::put(std::string_view key, std::string_view bytes,
                                const BlobMetadata& metadata) {
  detail::check_s3_key(key);
  HttpRequest request;
  request.method = "PUT";
  request.url = state_->endpoint + "/" + state_->options.bucket + "/" + std::string(key);
  request.body.assign(bytes);
  request.headers.push_back({"Content-Type", "application/octet-stream"});
  request.headers.push_back({"x-amz-meta-pksk-table", detail::uri_encoded(metadata.table, "")});
  request.headers.push_back({"x-amz-meta-pksk-pk", detail::uri_encoded(metadata.pk, "")});
  request.headers.push_back({"x-amz-meta-pksk-sk", detail::uri_encoded(metadata.sk, "")});
  request.headers.push_back({"x-amz-meta-pksk-member", detail::uri_encoded(metadata.member, "")});
  const HttpResponse response = send(std::move(request), "put", key);
  if (response.status != 200) detail::throw_s3_failure("put", key, response);
}

PKSK_DECL std::optional<std::string> S3BlobStore::get(std::string_view key) {
  detail::check_s3_key(key);
  HttpRequest request;
  request.method = "GET";
  request.url = state_->endpoint + "/" + state_->options.bucket + "/" + std::string(key);
  HttpResponse response = send(std::move(request), "get", key);
  if (response.status == 404) return std::nullopt;
  if (response.status != 200) detail::throw_s3_failure("get", key, response);
  return std::move(response.body);
}

PKSK_DECL void S3BlobStore::remove(std::string_view key) {
  detail::check_s3_key(key);
  HttpRequest request;
  request.method = "DELETE";
  request.url = state_->endpoint + "/" + state_->options.bucket + "/" + std::string(key);
  const HttpResponse response = send(std::move(request), "remove", key);
  if (response.status != 204 && response.status != 200 && response.status != 404)
    detail::throw_s3_failure("remove", key, response);
}

PKSK_DECL std::optional<BlobInfo> S3BlobStore::head(std::string_view key) {
  detail::check_s3_key(key);
  HttpRequest request;
  request.method = "HEAD";
  request.url = state_->endpoint + "/" + state_->options.bucket + "/" + std::string(key);
  const HttpResponse response = send(std::move(request), "head", key);
  if (response.status == 404) return std::nullopt;
  if (response.status != 200) detail::throw_s3_failure("head", key, response);
  BlobInfo info;
  info.key = std::string(key);
  if (const std::string* length = detail::header_of(response, "content-length"))
    info.size = std::stoull(*length);
  if (const std::string* modified = detail::header_of(response, "last-modified"))
    info.modified = detail::parse_http_date(*modified);
  const auto meta = [&](std::string_view name) {
    const std::string* value = detail::header_of(response, name);
    return value == nullptr ? std::string() : detail::percent_decoded(*value);
  };
  info.metadata = BlobMetadata{meta("x-amz-meta-pksk-table"), meta("x-amz-meta-pksk-pk"),
                               meta("x-amz-meta-pksk-sk"), meta("x-amz-meta-pksk-member")};
  return info;
}

PKSK_DECL std::vector<BlobInfo> S3BlobStore::list(std::string_view prefix) {
  std::vector<BlobInfo> out;
  std::string token;
  for (;;) {
    HttpRequest request;
    request.method = "GET";
    request.url = state_->endpoint + "/" + state_->options.bucket +
                  "?list-type=2&prefix=" + detail::uri_encoded(prefix, "");
    if (!token.empty()) request.url += "&continuation-token=" + detail::uri_encoded(token, "");
    const HttpResponse response = send(std::move(request), "list", prefix);
    if (response.status != 200) detail::throw_s3_failure("list", prefix, response);
    std::string_view rest = response.body;
    for (;;) {
      const std::size_t open = rest.find("<Contents>");
      if (open == std::string_view::npos) break;
      const std::size_t close = rest.find("</Contents>", open);
      if (close == std::string_view::npos) break;
      const std::string_view entry = rest.substr(open, close - open);
      BlobInfo info;
      info.key = detail::xml_text(entry, "Key").value_or("");
      const std::string size = detail::xml_text(entry, "Size").value_or("");
      info.size = size.empty() ? 0 : std::stoull(size);
      std::string modified = detail::xml_text(entry, "LastModified").value_or("");
      // "2009-10-12T17:50:30.000Z": whole seconds are enough for a grace period.
      if (modified.size() > 20) modified = modified.substr(0, 19) + "Z";
      pksk::detail::parse_iso8601(modified, info.modified);
      out.push_back(std::move(info));
      rest.remove_prefix(close);
    }
    if (detail::xml_text(response.body, "IsTruncated").value_or("") != "true") break;
    token = detail::xml_text(response.body, "NextContinuationToken").value_or("");
    if (token.empty()) break;
  }
  return out;
}

}  // namespace pksk::dynamodb
