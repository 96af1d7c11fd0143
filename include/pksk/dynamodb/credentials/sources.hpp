// SPDX-License-Identifier: BSL-1.0
#pragma once
// The places the AWS SDKs find credentials, each a function a program may call alone or put
// in a chain of its own (chain.hpp). Each returns the credentials it found; nullopt when it is
// not set up here (its environment variables unset, its profile without those keys), so that
// a chain asks the next; and throws a BackendError naming itself and what went wrong when it
// is set up but fails: errc::unavailable when the service it asks could not be reached or
// answered with a server error (retryable), errc::access_denied for everything else (a
// refusal, a malformed answer, a command that failed). Temporary credentials carry their
// `expiration`.
//
// Declared here; defined in impl/sources.ipp, included at the end in header-only mode and
// compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION (libcurl stays there).

#include <optional>
#include <string>
#include <string_view>

#include "../../detail/config.hpp"
#include "../credentials.hpp"
#include "options.hpp"

namespace pksk::dynamodb {

// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (or AWS_SECURITY_TOKEN).
// Throws when only one of the two keys is set.
// Throws: BackendError (access_denied) naming the variable missing.
// Exception safety: strong (it changes nothing).
PKSK_DECL std::optional<Credentials> environment_credentials();

// An OIDC token exchanged for a role's credentials (EKS IAM roles for service accounts):
// AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN, with AWS_ROLE_SESSION_NAME (default: one made
// up of "pksk-" and the time). The file is read again on each call: the token it holds is
// rotated. The request to STS is AssumeRoleWithWebIdentity, unsigned.
// Throws: BackendError naming the source: unavailable when its service could not be reached or
// failed, access_denied for anything else (this header's description).
// Exception safety: strong (it changes nothing).
PKSK_DECL std::optional<Credentials> web_identity_credentials(
    const CredentialOptions& options = {});

// The profile of options.profile, as the AWS CLI reads it from the config file and the shared
// credentials file (a key in the credentials file wins): with `role_arn`, the role is assumed
// with STS AssumeRole, signed with the credentials of `source_profile` (itself resolved the
// same way, so roles chain) or of `credential_source` (Environment, Ec2InstanceMetadata or
// EcsContainer), or exchanged for a `web_identity_token_file`; `role_session_name`,
// `external_id` and `duration_seconds` are passed on. Without `role_arn`: the keys
// `aws_access_key_id`, `aws_secret_access_key` and `aws_session_token` (credentials file, then
// config file), else `credential_process`. nullopt when the profile has none of these.
// Throws: BackendError naming the source: unavailable when its service could not be reached or
// failed, access_denied for anything else (this header's description).
// Exception safety: strong (it changes nothing).
PKSK_DECL std::optional<Credentials> profile_credentials(const CredentialOptions& options = {});

// Runs `command` with /bin/sh, as a profile's credential_process, and reads the JSON it prints
// on standard output: {"Version": 1, "AccessKeyId", "SecretAccessKey", "SessionToken"
// (optional), "Expiration" (ISO 8601, optional: without it the keys are long-term)}. Its
// standard error goes to the program's. Throws when it exits with a status other than 0 or
// prints anything else.
// Throws: BackendError (access_denied) naming the command and what went wrong.
// Exception safety: strong (the command runs, and what it does is its own).
PKSK_DECL Credentials process_credentials(const std::string& command);

// The container credentials endpoint (ECS task roles, EKS Pod Identity):
// AWS_CONTAINER_CREDENTIALS_RELATIVE_URI (a path on http://169.254.170.2) or
// AWS_CONTAINER_CREDENTIALS_FULL_URI (plain http only to a loopback address, 169.254.170.2,
// 169.254.170.23 or fd00:ec2::23), with the Authorization header read from the file
// AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, else AWS_CONTAINER_AUTHORIZATION_TOKEN.
// Throws: BackendError naming the source: unavailable when its service could not be reached or
// failed, access_denied for anything else (this header's description).
// Exception safety: strong (it changes nothing).
PKSK_DECL std::optional<Credentials> container_credentials(const CredentialOptions& options = {});

// The EC2 instance metadata service, version 2 only: a session token (PUT /latest/api/token),
// the role attached to the instance (GET /latest/meta-data/iam/security-credentials/), then
// its credentials. At AWS_EC2_METADATA_SERVICE_ENDPOINT, else http://169.254.169.254
// (http://[fd00:ec2::254] when AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE is IPv6); nullopt when
// AWS_EC2_METADATA_DISABLED is "true" or the instance has no role. Off EC2 nothing answers:
// errc::unavailable after options.metadata_timeout.
// Throws: BackendError naming the source: unavailable when its service could not be reached or
// failed, access_denied for anything else (this header's description).
// Exception safety: strong (it changes nothing).
PKSK_DECL std::optional<Credentials> imds_credentials(const CredentialOptions& options = {});

// STS AssumeRole, signed with `source`: the role's temporary credentials.
struct AssumeRoleRequest {
  // The role to assume.
  std::string role_arn{};
  std::string session_name{};  // empty: "pksk-" and the time
  std::string external_id{};   // sent when not empty
  int duration_seconds = 0;    // 0: STS's default (one hour)
};
// STS AssumeRole for `request`, signed with `source`: the role's temporary credentials.
// Throws: BackendError naming the source: unavailable when its service could not be reached or
// failed, access_denied for anything else (this header's description).
// Exception safety: strong (it changes nothing).
PKSK_DECL Credentials assume_role(const Credentials& source, const AssumeRoleRequest& request,
                                  const CredentialOptions& options = {});

// STS AssumeRoleWithWebIdentity, unsigned: `token` (an OIDC token) for the role's credentials.
// Throws: BackendError naming the source: unavailable when its service could not be reached or
// failed, access_denied for anything else (this header's description).
// Exception safety: strong (it changes nothing).
PKSK_DECL Credentials assume_role_with_web_identity(const AssumeRoleRequest& request,
                                                    const std::string& token,
                                                    const CredentialOptions& options = {});

}  // namespace pksk::dynamodb

// What <pksk/src.hpp> looks for to compile the credential sources in its translation unit.
#define PKSK_DETAIL_DYNAMODB_CREDENTIALS_DECLARED

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/sources.ipp"
#endif
