// SPDX-License-Identifier: BSL-1.0
#pragma once
// AWS credentials, what gives them to a Backend (CredentialsProvider), and the region. Static
// keys are found here as the AWS SDKs find them (explicit values, the AWS_* environment
// variables, a profile's keys); roles, web identity, credential_process, the container endpoint
// and the instance metadata service are the sources of credentials/sources.hpp, asked in the
// SDKs' order by the default chain (credentials/chain.hpp). SSO is not consulted.

#include <chrono>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "../error.hpp"
#include "detail/ini.hpp"

namespace pksk::dynamodb {

// AWS credentials: the keys requests are signed with (SigV4).
struct Credentials {
  // The access key's id (AKIA... for long-term keys, ASIA... for temporary ones).
  std::string access_key_id{};
  // Its secret.
  std::string secret_access_key{};
  std::string session_token{};  // temporary credentials only
  // When temporary credentials stop working; none for long-term keys. A Backend with a
  // credentials provider asks it again before then (Options::credentials_provider).
  std::optional<std::chrono::system_clock::time_point> expiration{};
};

// Gives the credentials requests are signed with (Options::credentials_provider): called when
// the Backend is made, again when those it gave are about to expire, and when DynamoDB says the
// token has expired. Called from any thread that uses the Backend, one call at a time; a
// BackendError it throws reaches the caller of the operation that needed the credentials.
using CredentialsProvider = std::function<Credentials()>;

// Where a profile is read from. Empty fields are taken as the SDKs take them.
struct ProfileOptions {
  // Empty: AWS_DEFAULT_PROFILE, then AWS_PROFILE, then "default". A profile named here makes
  // the environment's keys ignored, as in the SDKs: the profile was asked for.
  std::string profile{};
  std::string credentials_file{};  // empty: AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials
  std::string config_file{};       // empty: AWS_CONFIG_FILE or ~/.aws/config
};

namespace detail {

inline std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

inline std::string expand_home(std::string path) {
  if (path.starts_with("~/")) {
    if (const char* home = std::getenv("HOME")) path = std::string(home) + path.substr(1);
  }
  return path;
}

inline std::string profile_name(const ProfileOptions& options) {
  if (!options.profile.empty()) return options.profile;
  for (const char* name : {"AWS_DEFAULT_PROFILE", "AWS_PROFILE"}) {
    if (std::string value = environment(name); !value.empty()) return value;
  }
  return "default";
}

inline std::string file_path(const std::string& given, const char* variable, const char* fallback) {
  if (!given.empty()) return expand_home(given);
  if (std::string value = environment(variable); !value.empty()) return expand_home(value);
  return expand_home(fallback);
}

// The profile's section: "[name]" in the credentials file; "[profile name]" in the config
// file, except for the default profile, which is "[default]" there too.
inline std::optional<IniSection> profile_section(const ProfileOptions& options, bool config) {
  const std::string name = profile_name(options);
  if (!config) {
    return read_ini_section(
        file_path(options.credentials_file, "AWS_SHARED_CREDENTIALS_FILE", "~/.aws/credentials"),
        name);
  }
  const std::string path = file_path(options.config_file, "AWS_CONFIG_FILE", "~/.aws/config");
  if (name != "default") return read_ini_section(path, "profile " + name);
  if (auto section = read_ini_section(path, "default")) return section;
  return read_ini_section(path, "profile default");
}

// Keys from one source: nullopt when it has none, BackendError when it has only half of them.
inline std::optional<Credentials> credentials_from(std::string access_key_id,
                                                   std::string secret_access_key,
                                                   std::string session_token,
                                                   std::string_view source) {
  if (access_key_id.empty() && secret_access_key.empty()) return std::nullopt;
  if (access_key_id.empty() || secret_access_key.empty()) {
    throw BackendError(
        errc::access_denied,
        std::string("pksk::dynamodb: partial AWS credentials in ") + std::string(source) + ": " +
            (access_key_id.empty() ? "an access key id" : "a secret access key") + " is missing");
  }
  return Credentials{std::move(access_key_id), std::move(secret_access_key),
                     std::move(session_token)};
}

inline std::optional<Credentials> credentials_in(const std::optional<IniSection>& section,
                                                 std::string_view source) {
  if (!section) return std::nullopt;
  std::string token = section->get("aws_session_token");
  if (token.empty()) token = section->get("aws_security_token");
  return credentials_from(section->get("aws_access_key_id"), section->get("aws_secret_access_key"),
                          std::move(token), source);
}

}  // namespace detail

// The credentials a request is signed with: `explicit_credentials` when given, else the
// environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN) unless a profile
// was named in `options`, else the profile in the shared credentials file, else in the config
// file. BackendError when none has them, or one has only half of them.
// Throws: BackendError (access_denied) as said.
// Exception safety: strong (it reads the environment and files, and changes nothing).
inline Credentials resolve_credentials(const std::optional<Credentials>& explicit_credentials,
                                       const ProfileOptions& options = {}) {
  if (explicit_credentials) {
    if (auto c = detail::credentials_from(
            explicit_credentials->access_key_id, explicit_credentials->secret_access_key,
            explicit_credentials->session_token, "the backend's options")) {
      return *c;
    }
  }
  if (options.profile.empty()) {
    std::string token = detail::environment("AWS_SESSION_TOKEN");
    if (token.empty()) token = detail::environment("AWS_SECURITY_TOKEN");
    if (auto c = detail::credentials_from(detail::environment("AWS_ACCESS_KEY_ID"),
                                          detail::environment("AWS_SECRET_ACCESS_KEY"),
                                          std::move(token), "the environment")) {
      return *c;
    }
  }
  const std::string profile = detail::profile_name(options);
  if (auto c = detail::credentials_in(detail::profile_section(options, false),
                                      "profile " + profile + " of the credentials file")) {
    return *c;
  }
  if (auto c = detail::credentials_in(detail::profile_section(options, true),
                                      "profile " + profile + " of the config file")) {
    return *c;
  }
  throw BackendError(
      errc::access_denied,
      "pksk::dynamodb: no AWS credentials: none given, none in AWS_ACCESS_KEY_ID and "
      "AWS_SECRET_ACCESS_KEY, and profile " +
          profile + " has none in the shared credentials or config file");
}

// The region requests are signed for: `explicit_region` when not empty, else AWS_REGION, else
// AWS_DEFAULT_REGION, else the profile's `region` in the config file. BackendError when none
// names one.
// Throws: BackendError (misuse) when none names one.
// Exception safety: strong (it changes nothing).
inline std::string resolve_region(std::string_view explicit_region,
                                  const ProfileOptions& options = {}) {
  if (!explicit_region.empty()) return std::string(explicit_region);
  for (const char* name : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    if (std::string value = detail::environment(name); !value.empty()) return value;
  }
  if (const auto section = detail::profile_section(options, true)) {
    if (std::string region = section->get("region"); !region.empty()) return region;
  }
  throw BackendError(errc::misuse,
                     "pksk::dynamodb: no AWS region: none given, none in AWS_REGION or "
                     "AWS_DEFAULT_REGION, and profile " +
                         detail::profile_name(options) + " names none in the config file");
}

}  // namespace pksk::dynamodb
