// SPDX-License-Identifier: BSL-1.0
#pragma once
// AWS Signature Version 4 (the "AWS4-HMAC-SHA256" Authorization header), built as botocore's
// SigV4Auth builds it, so that pksk and the AWS SDKs sign a request byte for byte alike
// (tests/dynamodb/check_sigv4.py compares them): the canonical request (method, normalised and
// encoded path, sorted encoded query, lower-cased sorted headers with their values trimmed,
// the signed header names, the payload's SHA-256), the string to sign, and the key derived from
// the secret through date, region, service and "aws4_request".

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../detail/hmac_sha256.hpp"
#include "../../error.hpp"
#include "../credentials.hpp"
#include "../transport.hpp"

namespace pksk::dynamodb::detail {

// The request types are public (transport.hpp): a program's transport sends them.
using dynamodb::HttpHeader;
using dynamodb::HttpRequest;

// "20150830T123600Z": the time SigV4 signs, in UTC.
inline std::string amz_timestamp(std::chrono::system_clock::time_point now) {
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char out[17];
  std::strftime(out, sizeof out, "%Y%m%dT%H%M%SZ", &utc);
  return out;
}

using pksk::detail::append_hex;
using pksk::detail::sha256_hex;

inline std::string_view as_view(const pksk::detail::Sha256Digest& digest) {
  return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

// Percent-encoding as Python's urllib.parse.quote: unreserved characters and `safe` stay,
// every other byte becomes %XX in upper case.
inline void append_uri_encoded(std::string& out, std::string_view s, std::string_view safe) {
  constexpr char digits[] = "0123456789ABCDEF";
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    const bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
                            (b >= '0' && b <= '9') || c == '-' || c == '_' || c == '.' || c == '~';
    if (unreserved || safe.find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += digits[b >> 4];
      out += digits[b & 15];
    }
  }
}

struct UrlParts {
  std::string scheme;
  std::string host;  // as the Host header carries it: lower case, the port unless the default
  std::string path;
  std::string query;
};

inline UrlParts split_url(std::string_view url) {
  UrlParts parts;
  const std::size_t colon = url.find("://");
  if (colon == std::string_view::npos) {
    throw ValidationError("pksk::dynamodb: endpoint \"" + std::string(url) +
                          "\" is not a URL (expected http:// or https://)");
  }
  for (const char c : url.substr(0, colon))
    parts.scheme += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  std::string_view rest = url.substr(colon + 3);
  const std::size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
  std::string_view authority = rest.substr(0, authority_end);
  rest.remove_prefix(authority_end);
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos)
    authority.remove_prefix(at + 1);
  // The port follows the last ':' outside an IPv6 literal's brackets.
  std::string_view host = authority;
  std::string_view port;
  if (const std::size_t c = authority.rfind(':');
      c != std::string_view::npos && authority.find(']', c) == std::string_view::npos) {
    host = authority.substr(0, c);
    port = authority.substr(c + 1);
  }
  for (const char ch : host) parts.host += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
  const std::string_view default_port = parts.scheme == "https" ? "443" : "80";
  if (!port.empty() && port != default_port) {
    parts.host += ':';
    parts.host += port;
  }
  const std::size_t fragment = std::min(rest.find('#'), rest.size());
  rest = rest.substr(0, fragment);
  const std::size_t question = std::min(rest.find('?'), rest.size());
  parts.path = std::string(rest.substr(0, question));
  if (question < rest.size()) parts.query = std::string(rest.substr(question + 1));
  return parts;
}

// RFC 3986's remove_dot_segments, with empty segments dropped as AWS requires.
inline std::string normalized_path(std::string_view path) {
  if (path.empty()) return "/";
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view segment = path.substr(start, end - start);
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(segment);
    }
    start = end + 1;
  }
  std::string out = path.front() == '/' ? "/" : "";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) out += '/';
    out += segments[i];
  }
  if (path.back() == '/' && !segments.empty()) out += '/';
  return out;
}

inline std::string canonical_query(const HttpRequest& request, const UrlParts& url) {
  std::vector<std::pair<std::string, std::string>> pairs;
  if (!request.query.empty()) {
    for (const auto& [key, value] : request.query) {
      auto& pair = pairs.emplace_back();
      append_uri_encoded(pair.first, key, "");
      append_uri_encoded(pair.second, value, "");
    }
  } else {
    // A query written into the URL is taken as it stands, already encoded.
    std::string_view rest = url.query;
    while (!rest.empty()) {
      const std::size_t end = std::min(rest.find('&'), rest.size());
      const std::string_view pair = rest.substr(0, end);
      const std::size_t equals = std::min(pair.find('='), pair.size());
      pairs.emplace_back(std::string(pair.substr(0, equals)),
                         std::string(pair.substr(std::min(equals + 1, pair.size()))));
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out += '&';
    out += key;
    out += '=';
    out += value;
  }
  return out;
}

inline bool is_unsigned_header(std::string_view lower_name) {
  constexpr std::string_view skipped[] = {"connection",
                                          "expect",
                                          "keep-alive",
                                          "proxy-authenticate",
                                          "proxy-authorization",
                                          "te",
                                          "trailer",
                                          "transfer-encoding",
                                          "upgrade",
                                          "user-agent",
                                          "x-amzn-trace-id"};
  return std::find(std::begin(skipped), std::end(skipped), lower_name) != std::end(skipped);
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return out;
}

// Trimall: no white space before or after, runs of it inside become one space (Python's
// str.split() white space, ASCII part).
inline void append_trimmed(std::string& out, std::string_view value) {
  const auto space = [](char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
  };
  bool pending_space = false;
  bool any = false;
  for (const char c : value) {
    if (space(c)) {
      pending_space = any;
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    any = true;
    out += c;
  }
}

inline void remove_header(HttpRequest& request, std::string_view lower_name) {
  std::erase_if(request.headers, [&](const HttpHeader& h) { return lower(h.name) == lower_name; });
}

inline const HttpHeader* find_header(const HttpRequest& request, std::string_view lower_name) {
  for (const auto& h : request.headers) {
    if (lower(h.name) == lower_name) return &h;
  }
  return nullptr;
}

// Signs `request` for `service` in `region` at `timestamp` (amz_timestamp): replaces any
// Authorization, X-Amz-Date and X-Amz-Security-Token headers with fresh ones, so a retried
// request is signed anew.
inline void sign_v4(HttpRequest& request, const Credentials& credentials, std::string_view region,
                    std::string_view service, std::string_view timestamp) {
  remove_header(request, "authorization");
  remove_header(request, "x-amz-date");
  request.headers.push_back({"X-Amz-Date", std::string(timestamp)});
  if (!credentials.session_token.empty()) {
    remove_header(request, "x-amz-security-token");
    request.headers.push_back({"X-Amz-Security-Token", credentials.session_token});
  }
  const UrlParts url = split_url(request.url);

  // Signed headers: lower-cased names, sorted; the values of a repeated name joined by ','.
  std::vector<std::pair<std::string, std::string_view>> signed_headers;
  for (const auto& h : request.headers) {
    std::string name = lower(h.name);
    if (!is_unsigned_header(name)) signed_headers.emplace_back(std::move(name), h.value);
  }
  const bool has_host = std::any_of(signed_headers.begin(), signed_headers.end(),
                                    [](const auto& h) { return h.first == "host"; });
  if (!has_host) signed_headers.emplace_back("host", url.host);
  std::stable_sort(signed_headers.begin(), signed_headers.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  std::string canonical;
  canonical.reserve(512);
  for (const char c : request.method)
    canonical += static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  canonical += '\n';
  append_uri_encoded(canonical, normalized_path(url.path), "/~");
  canonical += '\n';
  canonical += canonical_query(request, url);
  canonical += '\n';
  std::string names;
  for (std::size_t i = 0; i < signed_headers.size(); ++i) {
    const bool repeated = i > 0 && signed_headers[i - 1].first == signed_headers[i].first;
    if (repeated) {
      canonical += ',';
    } else {
      if (i > 0) canonical += '\n';
      canonical += signed_headers[i].first;
      canonical += ':';
      if (!names.empty()) names += ';';
      names += signed_headers[i].first;
    }
    append_trimmed(canonical, signed_headers[i].second);
  }
  canonical += "\n\n";
  canonical += names;
  canonical += '\n';
  if (const HttpHeader* content_hash = find_header(request, "x-amz-content-sha256")) {
    canonical += content_hash->value;
  } else {
    canonical += sha256_hex(request.body);
  }

  const std::string_view date = timestamp.substr(0, 8);
  std::string scope;
  scope.append(date).append("/").append(region).append("/").append(service).append("/aws4_request");
  std::string to_sign = "AWS4-HMAC-SHA256\n";
  to_sign.append(timestamp).append("\n").append(scope).append("\n");
  to_sign += sha256_hex(canonical);

  using pksk::detail::hmac_sha256;
  const auto k_date = hmac_sha256("AWS4" + credentials.secret_access_key, date);
  const auto k_region = hmac_sha256(as_view(k_date), region);
  const auto k_service = hmac_sha256(as_view(k_region), service);
  const auto k_signing = hmac_sha256(as_view(k_service), "aws4_request");

  std::string authorization = "AWS4-HMAC-SHA256 Credential=";
  authorization.append(credentials.access_key_id).append("/").append(scope);
  authorization.append(", SignedHeaders=").append(names).append(", Signature=");
  append_hex(authorization, hmac_sha256(as_view(k_signing), to_sign));
  request.headers.push_back({"Authorization", std::move(authorization)});
}

}  // namespace pksk::dynamodb::detail
