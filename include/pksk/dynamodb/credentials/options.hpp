// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where the credential sources of sources.hpp look and how they reach the services they ask:
// the profile, the region and endpoint of AWS STS, the HTTP transport and its timeouts.

#include <chrono>
#include <string>

#include "../credentials.hpp"
#include "../transport.hpp"

namespace pksk::dynamodb {

// Where the credential sources look and how: the profile, STS's region and endpoint, the transport
// and timeouts.
struct CredentialOptions {
  // The profile read by profile_credentials, and the files it is read from.
  ProfileOptions profile{};
  // The region whose STS endpoint is asked and whose name STS requests are signed for. Empty:
  // AWS_REGION, AWS_DEFAULT_REGION, the profile's `region`; with none, the global endpoint
  // https://sts.amazonaws.com, signed for us-east-1.
  std::string region{};
  // Where STS requests go (AssumeRole, AssumeRoleWithWebIdentity). Empty: AWS_ENDPOINT_URL_STS,
  // else https://sts.<region>.amazonaws.com.
  std::string sts_endpoint{};
  // Sends the HTTP requests of STS, the container credentials endpoint and the instance
  // metadata service (transport.hpp). Empty: libcurl.
  Transport transport{};
  // One attempt at STS, connection and answer (a 5xx, a throttling answer or no answer is tried
  // up to three times in all).
  std::chrono::milliseconds sts_timeout{10000};
  // One request to the container credentials endpoint or the instance metadata service,
  // connection and answer. Short, as the AWS SDKs have it: off EC2 and ECS nothing answers.
  std::chrono::milliseconds metadata_timeout{1000};
};

}  // namespace pksk::dynamodb
