// SPDX-License-Identifier: BSL-1.0
#pragma once
// HTTP requests over libcurl, one easy handle per thread and Backend so that each thread keeps its
// own connections open between requests (libcurl reuses a handle's connection), with no lock
// on the request path. The transport only moves bytes: what a status or a body means is the
// backend's business (backend.hpp).

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../../error.hpp"
#include "../transport.hpp"
#include "sigv4.hpp"

namespace pksk::dynamodb::detail {

// Public (transport.hpp): a program's transport returns it.
using dynamodb::HttpResponse;

struct CurlGlobal {
  CurlGlobal() {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw BackendError(errc::backend_failure, "pksk::dynamodb: curl_global_init failed");
  }
  ~CurlGlobal() { curl_global_cleanup(); }
  CurlGlobal(const CurlGlobal&) = delete;
  CurlGlobal& operator=(const CurlGlobal&) = delete;
};

inline void ensure_curl_global() {
  static const CurlGlobal global;  // thread-safe once, as libcurl requires before any handle
}

class CurlHandle {
 public:
  CurlHandle() : handle_(curl_easy_init()) {
    if (handle_ == nullptr)
      throw BackendError(errc::backend_failure, "pksk::dynamodb: curl_easy_init failed");
  }
  ~CurlHandle() {
    curl_slist_free_all(headers_);
    curl_easy_cleanup(handle_);
  }
  CurlHandle(const CurlHandle&) = delete;
  CurlHandle& operator=(const CurlHandle&) = delete;

  // Sends the request (DynamoDB's POSTs; the GETs and PUTs of the credential sources, whose
  // query is in the URL) and waits for the whole answer, at most `timeout` in all.
  void send(const HttpRequest& request, std::chrono::milliseconds connect_timeout,
            std::chrono::milliseconds timeout, HttpResponse& response) {
    response.status = 0;
    response.body.clear();
    response.transport_error.clear();
    response.maybe_sent = true;
    response.headers.clear();
    curl_slist_free_all(headers_);
    headers_ = nullptr;
    for (const HttpHeader& h : request.headers) {
      line_.assign(h.name).append(": ").append(h.value);
      append_header(line_.c_str());
    }
    append_header("Expect:");  // no 100-continue round trip before a large body
    CURL* c = handle_;
    curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
    if (request.method == "GET") {
      curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, nullptr);
    } else if (request.method == "HEAD") {
      curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, nullptr);
      curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else {
      curl_easy_setopt(c, CURLOPT_POST, 1L);
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
      // A PUT with a body in hand, as a POST is sent, under its own name.
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST,
                       request.method == "POST" ? nullptr : request.method.c_str());
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &CurlHandle::on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &CurlHandle::on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &response.headers);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect_timeout.count()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: threads are safe
    curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error_);
    // libcurl sends a request again, unasked, when the reused connection it went on closes
    // before any byte of answer: a keep-alive connection the server had closed, or one dropped
    // after the server received (and applied) the request; it cannot tell which. A request that
    // must not apply twice is not let out a second time: libcurl calls the pre-request callback
    // each time it is about to send it, and the second call refuses, which ends the transfer
    // with CURLE_ABORTED_BY_CALLBACK and no answer (maybe_sent). Before libcurl 7.80, which has
    // no such callback, such a request goes on a new connection, which libcurl never resends on.
    sends_ = 0;
    once_ = !request.idempotent;
#if LIBCURL_VERSION_NUM >= 0x075000
    curl_easy_setopt(c, CURLOPT_PREREQFUNCTION, &CurlHandle::before_send);
    curl_easy_setopt(c, CURLOPT_PREREQDATA, this);
#else
    curl_easy_setopt(c, CURLOPT_FRESH_CONNECT, once_ ? 1L : 0L);
#endif
    error_[0] = '\0';
    const CURLcode code = curl_easy_perform(c);
    if (code != CURLE_OK) {
      response.transport_error = error_[0] != '\0' ? error_ : curl_easy_strerror(code);
      response.maybe_sent = code != CURLE_COULDNT_CONNECT && code != CURLE_COULDNT_RESOLVE_HOST &&
                            code != CURLE_COULDNT_RESOLVE_PROXY;
      if (once_ && sends_ > 1) {
        response.transport_error =
            "the connection closed after the request was sent, before any answer (not sent "
            "again)";
      }
      return;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
  }

 private:
  void append_header(const char* line) {
    curl_slist* next = curl_slist_append(headers_, line);
    if (next == nullptr) throw std::bad_alloc();
    headers_ = next;
  }

  // CURLOPT_PREREQFUNCTION: libcurl is about to send the request (again, the second time).
  static int before_send(void* self, char*, char*, int, int) noexcept {
    CurlHandle& handle = *static_cast<CurlHandle*>(self);
    ++handle.sends_;
    return handle.once_ && handle.sends_ > 1 ? CURL_PREREQFUNC_ABORT : CURL_PREREQFUNC_OK;
  }

  static std::size_t on_data(char* data, std::size_t size, std::size_t count, void* out) noexcept {
    try {
      static_cast<std::string*>(out)->append(data, size * count);
      return size * count;
    } catch (...) {
      return 0;  // libcurl then fails the transfer: CURLE_WRITE_ERROR
    }
  }

  // One header line of the answer; a status line (a redirect's, a 100's) starts the list anew.
  static std::size_t on_header(char* data, std::size_t size, std::size_t count,
                               void* out) noexcept {
    try {
      auto& headers = *static_cast<std::vector<HttpHeader>*>(out);
      std::string_view line(data, size * count);
      while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
      if (line.starts_with("HTTP/")) {
        headers.clear();
      } else if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
          value.remove_prefix(1);
        headers.push_back({std::string(line.substr(0, colon)), std::string(value)});
      }
      return size * count;
    } catch (...) {
      return 0;
    }
  }

  CURL* handle_;
  curl_slist* headers_ = nullptr;
  int sends_ = 0;      // how often libcurl was about to send the current request
  bool once_ = false;  // the current request must not be sent twice
  std::string line_;
  char error_[CURL_ERROR_SIZE] = {};
};

// Identifies a Backend for the life of the process (never reused, unlike an address).
inline std::uint64_t next_client_id() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// The calling thread's handle for the Backend `id`. `alive` is the Backend's token: handles of
// Backends since destroyed are dropped on the next lookup, so a long-lived thread does not keep
// their connections open.
inline CurlHandle& thread_handle(std::uint64_t id, const std::shared_ptr<const void>& alive) {
  struct Entry {
    std::uint64_t id;
    std::weak_ptr<const void> alive;
    std::unique_ptr<CurlHandle> handle;
  };
  thread_local std::vector<Entry> entries;
  for (Entry& e : entries) {
    if (e.id == id) return *e.handle;
  }
  std::erase_if(entries, [](const Entry& e) { return e.alive.expired(); });
  ensure_curl_global();
  entries.push_back({id, alive, std::make_unique<CurlHandle>()});
  return *entries.back().handle;
}

}  // namespace pksk::dynamodb::detail
