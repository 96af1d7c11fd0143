// SPDX-License-Identifier: BSL-1.0
#pragma once
// The two metadata endpoints: the container credentials endpoint (ECS, EKS Pod Identity) and
// the EC2 instance metadata service (IMDSv2: a session token, the role, its credentials).

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "../../../error.hpp"
#include "../../detail/sigv4.hpp"
#include "../detail/exchange.hpp"
#include "../detail/json.hpp"
#include "../sources.hpp"
#include "sts.ipp"  // excerpt, read_token_file, the STS calls

namespace pksk::dynamodb::detail {

// Whether plain http may carry credentials to `host` (as UrlParts gives it, port included):
// only to this machine or to the link-local addresses of the container agents.
inline bool trusted_container_host(std::string host) {
  if (!host.starts_with('[')) {
    if (const std::size_t colon = host.rfind(':'); colon != std::string::npos) host.resize(colon);
  } else if (const std::size_t close = host.find(']'); close != std::string::npos) {
    host.resize(close + 1);
  }
  if (host == "localhost" || host == "[::1]" || host == "169.254.170.2" ||
      host == "169.254.170.23" || host == "[fd00:ec2::23]") {
    return true;
  }
  // 127.0.0.0/8, written as four numbers.
  if (!host.starts_with("127.")) return false;
  int dots = 0;
  for (const char c : host) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots == 3;
}

// An answer's failure as a BackendError: no answer or a 5xx is errc::unavailable, any other
// status errc::access_denied.
[[noreturn]] inline void fail_metadata(const std::string& what, const HttpResponse& response) {
  if (response.status == 0) {
    throw BackendError(errc::unavailable, what + ": no answer: " + response.transport_error,
                       {NativeError::Origin::dynamodb, 0, {}});
  }
  throw BackendError(
      response.status >= 500 ? errc::unavailable : errc::access_denied,
      what + ": HTTP " + std::to_string(response.status) + ": " + excerpt(response.body),
      {NativeError::Origin::dynamodb, static_cast<int>(response.status), {}});
}

inline bool has_line_break(std::string_view s) {
  return s.find_first_of("\r\n") != std::string_view::npos;
}

}  // namespace pksk::dynamodb::detail

namespace pksk::dynamodb {

PKSK_DECL std::optional<Credentials> container_credentials(const CredentialOptions& options) {
  const std::string relative = detail::environment("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
  const std::string full = detail::environment("AWS_CONTAINER_CREDENTIALS_FULL_URI");
  if (relative.empty() && full.empty()) return std::nullopt;
  const std::string url = relative.empty() ? full : "http://169.254.170.2" + relative;
  const std::string what = "pksk::dynamodb: container credentials at " + url;
  if (relative.empty()) {
    detail::UrlParts parts;
    try {
      parts = detail::split_url(full);
    } catch (const ValidationError&) {
      throw BackendError(errc::access_denied,
                         what + ": AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL");
    }
    if (parts.scheme != "https" &&
        !(parts.scheme == "http" && detail::trusted_container_host(parts.host))) {
      throw BackendError(errc::access_denied,
                         what +
                             ": AWS_CONTAINER_CREDENTIALS_FULL_URI must be https, or http to "
                             "a loopback address, 169.254.170.2, 169.254.170.23 or "
                             "fd00:ec2::23");
    }
  }
  std::string token;
  if (const std::string file = detail::environment("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
      !file.empty()) {
    token = detail::read_token_file(file, what);
  } else {
    token = detail::environment("AWS_CONTAINER_AUTHORIZATION_TOKEN");
  }
  if (detail::has_line_break(token)) {
    throw BackendError(errc::access_denied, what + ": the authorization token has a line break");
  }
  HttpRequest request;
  request.method = "GET";
  request.url = url;
  request.headers.push_back({"Accept", "application/json"});
  if (!token.empty()) request.headers.push_back({"Authorization", token});
  detail::CredentialHttp http(options);
  // Three attempts, as the AWS SDKs make: the agent may be starting.
  HttpResponse response;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    if (attempt > 1) std::this_thread::sleep_for(std::chrono::milliseconds(100 * (attempt - 1)));
    response = http.send(request, options.metadata_timeout);
    if (response.status > 0 && response.status < 500) break;
  }
  if (response.status != 200) detail::fail_metadata(what, response);
  return detail::credentials_from_json(
      response.body, {.token_key = "Token", .versioned = false, .coded = false}, what);
}

PKSK_DECL std::optional<Credentials> imds_credentials(const CredentialOptions& options) {
  std::string disabled = detail::lower(detail::environment("AWS_EC2_METADATA_DISABLED"));
  if (disabled == "true") return std::nullopt;
  std::string endpoint = detail::environment("AWS_EC2_METADATA_SERVICE_ENDPOINT");
  if (endpoint.empty()) {
    endpoint =
        detail::lower(detail::environment("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE")) == "ipv6"
            ? "http://[fd00:ec2::254]"
            : "http://169.254.169.254";
  }
  while (endpoint.ends_with('/')) endpoint.pop_back();
  const std::string what = "pksk::dynamodb: instance metadata at " + endpoint;
  detail::CredentialHttp http(options);

  HttpRequest request;
  request.method = "PUT";
  request.url = endpoint + "/latest/api/token";
  request.headers.push_back({"X-aws-ec2-metadata-token-ttl-seconds", "21600"});
  HttpResponse response = http.send(request, options.metadata_timeout);
  if (response.status != 200) {
    // IMDSv1 is not used: without a session token there are no credentials from here.
    if (response.status > 0 && response.status < 500) {
      throw BackendError(errc::unavailable,
                         what + ": no IMDSv2 session token: HTTP " +
                             std::to_string(response.status) + ": " +
                             detail::excerpt(response.body),
                         {NativeError::Origin::dynamodb, static_cast<int>(response.status), {}});
    }
    detail::fail_metadata(what + ": the session token", response);
  }
  const std::string token(detail::trim_ini(response.body));
  if (token.empty() || detail::has_line_break(token))
    throw BackendError(errc::access_denied, what + ": the session token is not one line");

  request.method = "GET";
  request.url = endpoint + "/latest/meta-data/iam/security-credentials/";
  request.headers.clear();
  request.headers.push_back({"X-aws-ec2-metadata-token", token});
  response = http.send(request, options.metadata_timeout);
  if (response.status == 404) return std::nullopt;  // no role attached to the instance
  if (response.status != 200) detail::fail_metadata(what + ": the role's name", response);
  const std::string_view listed = response.body;
  const std::string role(
      detail::trim_ini(listed.substr(0, std::min(listed.find('\n'), listed.size()))));
  if (role.empty()) return std::nullopt;

  detail::append_uri_encoded(request.url, role, "");
  response = http.send(request, options.metadata_timeout);
  if (response.status != 200)
    detail::fail_metadata(what + ": the credentials of role " + role, response);
  return detail::credentials_from_json(response.body,
                                       {.token_key = "Token", .versioned = false, .coded = true},
                                       what + ": role " + role);
}

}  // namespace pksk::dynamodb
