// SPDX-License-Identifier: BSL-1.0
#pragma once
// The HTTP of one credential fetch (an STS call, the three requests of IMDSv2): through the
// program's transport (CredentialOptions::transport), else a libcurl handle made for the fetch
// and dropped after it. Credentials are fetched once an hour or so: no handle is kept.

#include <chrono>
#include <memory>

#include "../../detail/http.hpp"
#include "../../transport.hpp"
#include "../options.hpp"

namespace pksk::dynamodb::detail {

class CredentialHttp {
 public:
  explicit CredentialHttp(const CredentialOptions& options) : options_(options) {}

  // Sends `request`; at most `timeout` to connect, and in all.
  HttpResponse send(const HttpRequest& request, std::chrono::milliseconds timeout) {
    if (options_.transport) return options_.transport(request);
    if (!handle_) {
      ensure_curl_global();
      handle_ = std::make_unique<CurlHandle>();
    }
    HttpResponse response;
    handle_->send(request, timeout, timeout, response);
    return response;
  }

 private:
  const CredentialOptions& options_;
  std::unique_ptr<CurlHandle> handle_;
};

}  // namespace pksk::dynamodb::detail
