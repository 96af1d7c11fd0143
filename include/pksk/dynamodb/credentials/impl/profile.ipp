// SPDX-License-Identifier: BSL-1.0
#pragma once
// A profile's credentials, as the AWS CLI resolves them: a role (role_arn with source_profile,
// credential_source or web_identity_token_file), else keys, else credential_process.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "../../../error.hpp"
#include "../../credentials.hpp"
#include "../sources.hpp"
#include "sts.ipp"  // excerpt, read_token_file, the STS calls

namespace pksk::dynamodb::detail {

// `name`'s credentials; `visited` holds the profiles whose role is being resolved, so that a
// profile met again (its own source_profile, as the CLI allows) gives its keys, not its role.
inline std::optional<Credentials> credentials_of_profile(const CredentialOptions& options,
                                                         const std::string& name,
                                                         std::vector<std::string>& visited) {
  ProfileOptions where = options.profile;
  where.profile = name;
  const std::optional<IniSection> in_credentials = profile_section(where, false);
  const std::optional<IniSection> in_config = profile_section(where, true);
  const auto get = [&](std::string_view key) {
    std::string value = in_credentials ? in_credentials->get(key) : std::string();
    if (value.empty() && in_config) value = in_config->get(key);
    return value;
  };
  const std::string what = "pksk::dynamodb: profile " + name;
  const bool again = std::find(visited.begin(), visited.end(), name) != visited.end();
  visited.push_back(name);

  if (const std::string role_arn = get("role_arn"); !role_arn.empty() && !again) {
    AssumeRoleRequest request{.role_arn = role_arn,
                              .session_name = get("role_session_name"),
                              .external_id = get("external_id")};
    if (const std::string duration = get("duration_seconds"); !duration.empty()) {
      try {
        std::size_t used = 0;
        request.duration_seconds = std::stoi(duration, &used);
        if (used != duration.size() || request.duration_seconds <= 0) throw std::exception();
      } catch (const std::exception&) {
        throw BackendError(errc::access_denied,
                           what + ": duration_seconds is not a number of seconds: " + duration);
      }
    }
    const std::string context = "profile " + name + ": ";
    if (const std::string token_file = get("web_identity_token_file"); !token_file.empty()) {
      return assume_role_with_web_identity_as(
          request, read_token_file(expand_home(token_file), what), options, context);
    }
    const std::string source_profile = get("source_profile");
    const std::string credential_source = get("credential_source");
    std::optional<Credentials> source;
    std::string source_name;
    if (!source_profile.empty()) {
      source_name = "source_profile " + source_profile;
      source = credentials_of_profile(options, source_profile, visited);
    } else if (credential_source == "Environment") {
      source_name = "credential_source Environment";
      source = environment_credentials();
    } else if (credential_source == "Ec2InstanceMetadata") {
      source_name = "credential_source Ec2InstanceMetadata";
      source = imds_credentials(options);
    } else if (credential_source == "EcsContainer") {
      source_name = "credential_source EcsContainer";
      source = container_credentials(options);
    } else if (!credential_source.empty()) {
      throw BackendError(errc::access_denied,
                         what + ": credential_source " + credential_source +
                             " is none of Environment, Ec2InstanceMetadata and EcsContainer");
    } else {
      throw BackendError(errc::access_denied, what + ": role_arn " + role_arn +
                                                  " with neither source_profile nor "
                                                  "credential_source nor web_identity_token_file");
    }
    if (!source) {
      throw BackendError(errc::access_denied, what + ": role_arn " + role_arn + ": its " +
                                                  source_name + " has no credentials");
    }
    return assume_role_as(*source, request, options, context);
  }
  if (auto c = credentials_in(in_credentials, "profile " + name + " of the credentials file"))
    return c;
  if (auto c = credentials_in(in_config, "profile " + name + " of the config file")) return c;
  if (const std::string command = get("credential_process"); !command.empty())
    return process_credentials(command);
  return std::nullopt;
}

}  // namespace pksk::dynamodb::detail

namespace pksk::dynamodb {

PKSK_DECL std::optional<Credentials> profile_credentials(const CredentialOptions& options) {
  std::vector<std::string> visited;
  return detail::credentials_of_profile(options, detail::profile_name(options.profile), visited);
}

}  // namespace pksk::dynamodb
