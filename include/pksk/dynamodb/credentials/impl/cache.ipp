// SPDX-License-Identifier: BSL-1.0
#pragma once
// CredentialCache (credentials/cache.hpp).

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "../../../error.hpp"
#include "../cache.hpp"
#include "../chain.hpp"

namespace pksk::dynamodb::detail {

PKSK_DECL CredentialCache::CredentialCache(CredentialSettings settings)
    : provider_(std::move(settings.provider)),
      refresh_margin_(settings.refresh_margin),
      clock_(std::move(settings.clock)) {
  const std::optional<Credentials>& given = settings.credentials;
  const bool keys_given =
      given && (!given->access_key_id.empty() || !given->secret_access_key.empty());
  if (provider_) {
    adopt(provided("what " + std::string(settings.provider_option) + " gave"));
    refreshing_ = true;
  } else if (!keys_given) {
    CredentialOptions chain = std::move(settings.chain);
    if (chain.region.empty()) chain.region = settings.region;
    provider_ = default_credentials_provider(std::move(chain));
    adopt(provided("what the default credential chain gave"));
    // Keys without an expiration (the environment's, a profile's) are kept, and read without
    // the lock, as explicit ones are.
    refreshing_ = credentials_->expiration.has_value();
  } else {
    adopt(resolve_credentials(given, settings.profile));
  }
}

PKSK_DECL Credentials CredentialCache::provided(std::string_view source) const {
  Credentials given = provider_();
  std::optional<std::chrono::system_clock::time_point> expiration = given.expiration;
  std::optional<Credentials> out =
      credentials_from(std::move(given.access_key_id), std::move(given.secret_access_key),
                       std::move(given.session_token), source);
  if (!out) {
    throw BackendError(errc::access_denied, "pksk::dynamodb: " + std::string(source) +
                                                " has no access key id and no secret access key");
  }
  out->expiration = expiration;
  return std::move(*out);
}

// The refresh margin before the expiration, or half the remaining lifetime when that is
// shorter, so that credentials lasting less than the margin are not asked for on every request.
PKSK_DECL void CredentialCache::adopt(Credentials fresh) {
  refresh_at_.reset();
  if (fresh.expiration) {
    const auto margin = std::min<std::chrono::system_clock::duration>(
        refresh_margin_, (*fresh.expiration - now()) / 2);
    refresh_at_ = *fresh.expiration - std::max(margin, decltype(margin)::zero());
  }
  credentials_ = std::make_shared<const Credentials>(std::move(fresh));
}

PKSK_DECL std::shared_ptr<const Credentials> CredentialCache::current_refreshed() {
  const std::lock_guard lock(mutex_);
  if (refresh_at_ && now() >= *refresh_at_) adopt(provided("what the credentials provider gave"));
  return credentials_;
}

PKSK_DECL bool CredentialCache::renew(const Credentials* stale) {
  if (!refreshing_) return false;
  const std::lock_guard lock(mutex_);
  if (credentials_.get() == stale) adopt(provided("what the credentials provider gave"));
  return true;
}

}  // namespace pksk::dynamodb::detail
