// SPDX-License-Identifier: BSL-1.0
#pragma once
// AWS STS's two calls that give a role's credentials, through its Query API: a form-encoded
// POST, AssumeRole signed with SigV4 (service "sts"), AssumeRoleWithWebIdentity unsigned; the
// XML answer read with detail/xml.hpp. A 5xx, a throttling answer or no answer is tried up to
// three times in all; a refusal (AccessDenied, InvalidIdentityToken, ...) is not.

#include <chrono>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "../../../error.hpp"
#include "../../detail/sigv4.hpp"
#include "../detail/exchange.hpp"
#include "../detail/timestamp.hpp"
#include "../detail/xml.hpp"
#include "../sources.hpp"

namespace pksk::dynamodb::detail {

// "pksk-" and the milliseconds since the epoch: a session name CloudTrail can tell apart.
inline std::string made_up_session_name() {
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  return "pksk-" + std::to_string(now.count());
}

// The region STS is asked in, as CredentialOptions::region says; "" for the global endpoint.
inline std::string sts_region(const CredentialOptions& options) {
  if (!options.region.empty()) return options.region;
  for (const char* name : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    if (std::string value = environment(name); !value.empty()) return value;
  }
  if (const auto section = profile_section(options.profile, true)) return section->get("region");
  return {};
}

inline std::string sts_endpoint(const CredentialOptions& options, const std::string& region) {
  if (!options.sts_endpoint.empty()) return options.sts_endpoint;
  if (std::string value = environment("AWS_ENDPOINT_URL_STS"); !value.empty()) return value;
  return region.empty() ? "https://sts.amazonaws.com" : "https://sts." + region + ".amazonaws.com";
}

inline void append_form(std::string& body, std::string_view key, std::string_view value) {
  if (!body.empty()) body += '&';
  append_uri_encoded(body, key, "");
  body += '=';
  append_uri_encoded(body, value, "");
}

// At most 200 bytes of an answer, for an error message.
inline std::string excerpt(std::string_view body) {
  if (body.size() <= 200) return std::string(body);
  return std::string(body.substr(0, 200)) + "...";
}

// The credentials of STS's answer to `action` with `form` (Action and Version are added),
// signed with `signer` unless null. `context` begins the error messages ("profile dev: ").
inline Credentials call_sts(const CredentialOptions& options, std::string_view action,
                            std::string form, const Credentials* signer,
                            const std::string& role_arn, const std::string& context) {
  const std::string region = sts_region(options);
  const std::string endpoint = sts_endpoint(options, region);
  const std::string what = "pksk::dynamodb: " + context + "STS " + std::string(action) +
                           " of role " + role_arn + " at " + endpoint;
  std::string body;
  append_form(body, "Action", action);
  append_form(body, "Version", "2011-06-15");
  body += '&';
  body += form;
  CredentialHttp http(options);
  std::string failure;
  NativeError native{NativeError::Origin::dynamodb};
  constexpr int attempts = 3;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    if (attempt > 1) std::this_thread::sleep_for(std::chrono::milliseconds(100 * (attempt - 1)));
    HttpRequest request;
    request.method = "POST";
    request.url = endpoint;
    request.headers.push_back({"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"});
    request.body = body;
    if (signer != nullptr) {
      try {
        sign_v4(request, *signer, region.empty() ? "us-east-1" : region, "sts",
                amz_timestamp(std::chrono::system_clock::now()));
      } catch (const ValidationError& e) {
        throw BackendError(errc::access_denied, what + ": " + e.what());
      }
    }
    const HttpResponse response = http.send(request, options.sts_timeout);
    if (response.status == 200) {
      const std::optional<std::string_view> found = xml_element(response.body, "Credentials");
      if (!found) {
        throw BackendError(errc::access_denied,
                           what + ": the answer has no <Credentials>: " + excerpt(response.body));
      }
      Credentials out;
      const auto field = [&](std::string_view name) {
        std::optional<std::string> text = xml_text(*found, name);
        if (!text || text->empty()) {
          throw BackendError(errc::access_denied, what + ": the answer's <Credentials> has no " +
                                                      "readable <" + std::string(name) + ">");
        }
        return std::move(*text);
      };
      out.access_key_id = field("AccessKeyId");
      out.secret_access_key = field("SecretAccessKey");
      out.session_token = field("SessionToken");
      const std::string expiration = field("Expiration");
      out.expiration = parse_iso8601(expiration);
      if (!out.expiration) {
        throw BackendError(errc::access_denied,
                           what + ": <Expiration> is not an ISO 8601 time: " + expiration);
      }
      return out;
    }
    errc code = errc::unavailable;
    if (response.status == 0) {
      failure = "no answer: " + response.transport_error;
      native = {NativeError::Origin::dynamodb, 0, {}};
    } else {
      const std::string type = xml_text(response.body, "Code").value_or("");
      const std::string message = xml_text(response.body, "Message").value_or("");
      failure = "HTTP " + std::to_string(response.status) +
                (type.empty() ? ": " + excerpt(response.body) : " " + type + ": " + message);
      native = {NativeError::Origin::dynamodb, static_cast<int>(response.status), type};
      const bool transient = response.status >= 500 || type == "Throttling" ||
                             type == "ThrottlingException" || type == "IDPCommunicationError";
      if (!transient) code = errc::access_denied;
    }
    if (code != errc::unavailable) throw BackendError(code, what + ": refused: " + failure, native);
  }
  throw BackendError(errc::unavailable,
                     what + ": failed after " + std::to_string(attempts) + " attempts: " + failure,
                     native);
}

inline Credentials assume_role_as(const Credentials& source, const AssumeRoleRequest& request,
                                  const CredentialOptions& options, const std::string& context) {
  std::string form;
  append_form(form, "RoleArn", request.role_arn);
  append_form(form, "RoleSessionName",
              request.session_name.empty() ? made_up_session_name() : request.session_name);
  if (!request.external_id.empty()) append_form(form, "ExternalId", request.external_id);
  if (request.duration_seconds > 0)
    append_form(form, "DurationSeconds", std::to_string(request.duration_seconds));
  return call_sts(options, "AssumeRole", std::move(form), &source, request.role_arn, context);
}

inline Credentials assume_role_with_web_identity_as(const AssumeRoleRequest& request,
                                                    const std::string& token,
                                                    const CredentialOptions& options,
                                                    const std::string& context) {
  std::string form;
  append_form(form, "RoleArn", request.role_arn);
  append_form(form, "RoleSessionName",
              request.session_name.empty() ? made_up_session_name() : request.session_name);
  append_form(form, "WebIdentityToken", token);
  if (request.duration_seconds > 0)
    append_form(form, "DurationSeconds", std::to_string(request.duration_seconds));
  return call_sts(options, "AssumeRoleWithWebIdentity", std::move(form), nullptr, request.role_arn,
                  context);
}

// The whole of a small file (a token), its surrounding white space trimmed; a BackendError
// beginning with `what` when it cannot be read or is empty.
inline std::string read_token_file(const std::string& path, const std::string& what) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw BackendError(errc::access_denied, what + ": cannot read " + path);
  std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  const std::string_view trimmed = trim_ini(text);
  if (trimmed.empty()) throw BackendError(errc::access_denied, what + ": " + path + " is empty");
  return std::string(trimmed);
}

}  // namespace pksk::dynamodb::detail

namespace pksk::dynamodb {

PKSK_DECL Credentials assume_role(const Credentials& source, const AssumeRoleRequest& request,
                                  const CredentialOptions& options) {
  return detail::assume_role_as(source, request, options, "");
}

PKSK_DECL Credentials assume_role_with_web_identity(const AssumeRoleRequest& request,
                                                    const std::string& token,
                                                    const CredentialOptions& options) {
  return detail::assume_role_with_web_identity_as(request, token, options, "");
}

PKSK_DECL std::optional<Credentials> web_identity_credentials(const CredentialOptions& options) {
  const std::string token_file = detail::environment("AWS_WEB_IDENTITY_TOKEN_FILE");
  const std::string role_arn = detail::environment("AWS_ROLE_ARN");
  if (token_file.empty() && role_arn.empty()) return std::nullopt;
  const std::string what = "pksk::dynamodb: web identity";
  if (token_file.empty() || role_arn.empty()) {
    throw BackendError(errc::access_denied,
                       what + ": " +
                           (token_file.empty() ? "AWS_ROLE_ARN is set but not "
                                                 "AWS_WEB_IDENTITY_TOKEN_FILE"
                                               : "AWS_WEB_IDENTITY_TOKEN_FILE is set but not "
                                                 "AWS_ROLE_ARN"));
  }
  const std::string token = detail::read_token_file(token_file, what);
  return detail::assume_role_with_web_identity_as(
      {.role_arn = role_arn, .session_name = detail::environment("AWS_ROLE_SESSION_NAME")}, token,
      options, "web identity: ");
}

}  // namespace pksk::dynamodb
