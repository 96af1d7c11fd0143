// SPDX-License-Identifier: BSL-1.0
#pragma once
// Chains of credential sources: the default one and a program's own.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../../../error.hpp"
#include "../../credentials.hpp"
#include "../chain.hpp"
#include "../sources.hpp"

namespace pksk::dynamodb {

PKSK_DECL CredentialsProvider credentials_chain(std::vector<CredentialSource> sources) {
  auto shared = std::make_shared<const std::vector<CredentialSource>>(std::move(sources));
  return [shared]() -> Credentials {
    std::string tried;
    for (const CredentialSource& source : *shared) {
      if (!tried.empty()) tried += "; ";
      tried += source.name;
      try {
        if (!source.find) {
          tried += ": no function";
          continue;
        }
        if (std::optional<Credentials> found = source.find()) return std::move(*found);
        tried += ": none";
      } catch (const BackendError& e) {
        if (e.kind() != errc::unavailable) throw;
        tried += ": ";
        tried += e.what();
      } catch (const Error&) {
        throw;
      } catch (const std::exception& e) {
        throw BackendError(errc::access_denied,
                           "pksk::dynamodb: credential source " + source.name + ": " + e.what(), {},
                           std::current_exception());
      }
    }
    throw BackendError(
        errc::access_denied,
        "pksk::dynamodb: no AWS credentials: " +
            (tried.empty() ? std::string("no credential source to ask") : "tried " + tried));
  };
}

PKSK_DECL std::vector<CredentialSource> default_credential_sources(CredentialOptions options) {
  auto shared = std::make_shared<const CredentialOptions>(std::move(options));
  std::vector<CredentialSource> sources;
  // A profile asked for by name is what the program wants, over the environment's keys.
  if (shared->profile.profile.empty())
    sources.push_back({"environment", [] { return environment_credentials(); }});
  sources.push_back({"web identity", [shared] { return web_identity_credentials(*shared); }});
  sources.push_back({"profile " + detail::profile_name(shared->profile),
                     [shared] { return profile_credentials(*shared); }});
  sources.push_back({"container", [shared] { return container_credentials(*shared); }});
  sources.push_back({"instance metadata", [shared] { return imds_credentials(*shared); }});
  return sources;
}

PKSK_DECL CredentialsProvider default_credentials_provider(CredentialOptions options) {
  return credentials_chain(default_credential_sources(std::move(options)));
}

}  // namespace pksk::dynamodb
