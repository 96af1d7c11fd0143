// SPDX-License-Identifier: BSL-1.0
#pragma once
// Credential sources asked in order until one has credentials, as the AWS SDKs' default
// provider chain: a CredentialsProvider (credentials.hpp) that the Backend asks again before
// the credentials it gave expire. The default chain, and chains of a program's own sources.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "../../detail/config.hpp"
#include "../credentials.hpp"
#include "options.hpp"
#include "sources.hpp"

namespace pksk::dynamodb {

// One link of a chain: its name, for errors, and the function that looks (sources.hpp says
// what nullopt and a BackendError mean).
struct CredentialSource {
  // The source's name, in the chain's errors ("environment", "profile").
  std::string name{};
  // Looks for credentials: nullopt when the source is not set up here.
  std::function<std::optional<Credentials>()> find{};
};

// Asks each source in order and returns the first credentials found. A source that throws a
// BackendError with errc::unavailable (a metadata endpoint off EC2, STS out of reach) is
// passed over like one that found nothing; any other pksk::Error stops the chain and reaches
// the caller as it is (the sources of sources.hpp name themselves in their messages): a source
// that is set up and fails is a mistake to see, not to hide behind the next one. Another
// std::exception becomes a BackendError (errc::access_denied) naming the source, the exception
// as its cause(). When no source has credentials, one BackendError (errc::access_denied) names
// each source asked and why it had none.
// Throws: only std::bad_alloc here; the provider it returns throws as said.
// Exception safety: strong.
PKSK_DECL CredentialsProvider credentials_chain(std::vector<CredentialSource> sources);

// The AWS SDKs' order: "environment" (skipped when options.profile names a profile, as the
// SDKs skip it), "web identity", "profile", "container", "instance metadata".
// Throws: only std::bad_alloc.
// Exception safety: strong.
PKSK_DECL std::vector<CredentialSource> default_credential_sources(CredentialOptions options = {});

// credentials_chain(default_credential_sources(options)): what a Backend uses when its
// Options give neither credentials nor a credentials_provider.
// Throws: only std::bad_alloc here; the provider throws as credentials_chain's does.
// Exception safety: strong.
PKSK_DECL CredentialsProvider default_credentials_provider(CredentialOptions options = {});

}  // namespace pksk::dynamodb

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/chain.ipp"
#endif
