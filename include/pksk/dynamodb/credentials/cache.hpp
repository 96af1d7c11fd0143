// SPDX-License-Identifier: BSL-1.0
#pragma once
// The credentials an AWS client signs with, and when it asks for new ones: one policy for the
// DynamoDB backend and the S3 blob store. Explicit keys (or, without keys and provider, those
// the default chain gives without an expiration) are read without a lock; credentials that
// expire are asked for again from the refresh margin before their expiration, by one thread
// while the others wait, and replaced, never changed in place, so that a request signed with
// the old ones keeps them. After the service says a token has expired, renew() asks at once.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "../../detail/config.hpp"
#include "../credentials.hpp"
#include "options.hpp"

namespace pksk::dynamodb::detail {

// What a client's options say of its credentials.
struct CredentialSettings {
  std::optional<Credentials> credentials{};  // explicit keys: used as they are
  CredentialsProvider provider{};            // else this provider
  std::string_view provider_option = "Options::credentials_provider";  // its name, for errors
  CredentialOptions chain{};  // else the default chain, with these options
  ProfileOptions profile{};   // the profile explicit keys fall back to
  std::string region{};       // the chain's region when it names none
  std::chrono::milliseconds refresh_margin{std::chrono::minutes(5)};
  std::function<std::chrono::system_clock::time_point()> clock{};  // empty: the system's
};

class CredentialCache {
 public:
  PKSK_DECL explicit CredentialCache(CredentialSettings settings);
  CredentialCache(const CredentialCache&) = delete;
  CredentialCache& operator=(const CredentialCache&) = delete;

  // The credentials to sign the next request with.
  std::shared_ptr<const Credentials> current() {
    if (!refreshing_) return credentials_;
    return current_refreshed();
  }

  // After the service said that the token of `stale` has expired: new credentials from the
  // provider, unless another thread has already replaced those. False when they never change
  // (explicit keys): there is nothing to ask.
  PKSK_DECL bool renew(const Credentials* stale);

  // What the credentials' times are judged by, and requests signed with: the settings' clock,
  // else the system's.
  std::chrono::system_clock::time_point now() const {
    return clock_ ? clock_() : std::chrono::system_clock::now();
  }

 private:
  PKSK_DECL std::shared_ptr<const Credentials> current_refreshed();
  // Makes `fresh` the credentials to sign with and sets when to ask again (mutex_ held, or
  // before the cache is shared).
  PKSK_DECL void adopt(Credentials fresh);
  // What the provider gives, checked as resolve_credentials checks what it finds.
  PKSK_DECL Credentials provided(std::string_view source) const;

  CredentialsProvider provider_;
  std::chrono::milliseconds refresh_margin_;
  std::function<std::chrono::system_clock::time_point()> clock_;
  std::shared_ptr<const Credentials> credentials_;
  bool refreshing_ = false;
  std::optional<std::chrono::system_clock::time_point> refresh_at_;
  std::mutex mutex_;  // guards credentials_ and refresh_at_ when refreshing_
};

}  // namespace pksk::dynamodb::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/cache.ipp"
#endif
