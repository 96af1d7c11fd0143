// SPDX-License-Identifier: BSL-1.0
#pragma once
// The client: where requests go and how they are sent. The region, the endpoint and the
// credentials (explicit keys, a program's provider or the default chain: credentials/cache.hpp),
// each request signed with SigV4 and handed to the transport (a program's, or libcurl's handle
// per thread), and the retries with backoff of throttled requests, 5xx answers and lost ones.

#include "backend_impl.ipp"

namespace pksk::dynamodb {

inline void Backend::Impl::construct(Options given) {
  shared_->options = std::move(given);
  const Options& options = shared_->options;
  shared_->region = resolve_region(options.region, options.profile);
  CredentialOptions chain = options.credential_chain;
  chain.profile = options.profile;
  shared_->credentials.emplace(
      detail::CredentialSettings{.credentials = options.credentials,
                                 .provider = options.credentials_provider,
                                 .chain = std::move(chain),
                                 .profile = options.profile,
                                 .region = shared_->region,
                                 .refresh_margin = options.credentials_refresh_margin,
                                 .clock = options.clock});
  shared_->endpoint = options.endpoint.empty()
                          ? "https://dynamodb." + shared_->region + ".amazonaws.com"
                          : options.endpoint;
  (void)detail::split_url(shared_->endpoint);  // a ValidationError now, not on first use
  shared_->observing = options.on_request != nullptr ||
                       options.return_consumed_capacity != ReturnConsumedCapacity::none;
}

// An unconditional put or erase leaves the same item however often it is applied (a retried
// erase may then report that it removed nothing); a conditional one could fail its own
// condition the second time.
inline detail::Retry Backend::Impl::retry_for(const backend::Condition* condition) {
  return condition == nullptr ? detail::Retry::always : detail::Retry::when_not_applied;
}

// Whether this table's updates and conditional writes go as one-action transactions.
inline bool Backend::Impl::exactly_once(TableHandle table) const {
  return shared_->options.exactly_once_writes || ExactlyOnce::active() ||
         static_cast<const Shared::OpenTable&>(table.spec()).exactly_once;
}

inline std::string Backend::Impl::request_token() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  constexpr char digits[] = "0123456789abcdef";
  std::string token(32, '0');
  for (char& c : token) c = digits[random() & 15];
  return token;
}

inline std::string Backend::Impl::key_text(const std::optional<backend::ItemKey>& key) {
  if (!key) return "";
  return " of " + pksk::detail::key_text(*key);
}

// Sends one request, retrying what may be retried, and returns the exchange holding the
// answer (status 200). Throws the pksk error that DynamoDB's refusal maps to. An observed
// request is reported here when it fails, and by its Answer when the operation is done.
inline auto Backend::Impl::send(std::string_view operation, std::string body,
                                const backend::TableSpec& spec, std::optional<backend::ItemKey> key,
                                std::string_view what, detail::Retry retry,
                                detail::Cancellation cancellation) -> Answer {
  Lease lease;
  detail::Exchange& x = *lease;
  x.request.method = "POST";
  x.request.url = shared_->endpoint;
  x.request.query.clear();
  x.request.headers.clear();
  x.request.headers.push_back({"Content-Type", "application/x-amz-json-1.0"});
  x.request.headers.push_back({"X-Amz-Target", "DynamoDB_20120810." + std::string(operation)});
  x.request.body = std::move(body);
  x.request.idempotent = retry == detail::Retry::always;
  if (!shared_->observing) {
    attempt(x, spec, key, what, retry, cancellation, nullptr);
    return Answer(std::move(lease), nullptr);
  }
  observe(x, operation, spec);
  try {
    attempt(x, spec, key, what, retry, cancellation, &x.observation);
  } catch (const Error& error) {
    x.observation.end = std::chrono::steady_clock::now();
    report(*shared_, x, {error.kind(), error.native().type, error.what()});
    throw;
  } catch (const std::exception& error) {
    x.observation.end = std::chrono::steady_clock::now();
    report(*shared_, x, {errc::backend_failure, {}, error.what()});
    throw;
  } catch (...) {
    x.observation.end = std::chrono::steady_clock::now();
    report(*shared_, x, {errc::backend_failure, {}, {}});
    throw;
  }
  return Answer(std::move(lease), shared_.get());
}

// Starts the observation of the request in x, and asks for its consumed capacity.
inline void Backend::Impl::observe(detail::Exchange& x, std::string_view operation,
                                   const backend::TableSpec& spec) {
  detail::Observation& seen = x.observation;
  seen = detail::Observation{};
  seen.operation = operation;
  seen.table = spec.name;
  seen.start = seen.attempt_start = std::chrono::steady_clock::now();
  // No answer yet: the exchange's last one was another request's.
  x.response.status = 0;
  x.response.body.clear();
  const ReturnConsumedCapacity capacity = shared_->options.return_consumed_capacity;
  if (capacity != ReturnConsumedCapacity::none && detail::reports_capacity(operation)) {
    seen.wants_capacity = true;
    std::string& body = x.request.body;  // an object: its last member goes before the brace
    body.pop_back();
    body += capacity == ReturnConsumedCapacity::total ? R"(,"ReturnConsumedCapacity":"TOTAL"})"
                                                      : R"(,"ReturnConsumedCapacity":"INDEXES"})";
  }
}

// The request in x, sent until it is answered with status 200, or fails as it must. `seen`,
// when the request is observed, learns its attempts and their times.
inline void Backend::Impl::attempt(detail::Exchange& x, const backend::TableSpec& spec,
                                   const std::optional<backend::ItemKey>& key,
                                   std::string_view what, detail::Retry retry,
                                   detail::Cancellation cancellation, detail::Observation* seen) {
  const Options& options = shared_->options;
  // libcurl, with this thread's handle, unless the program gave its own transport.
  detail::CurlHandle* const http =
      options.transport ? nullptr : &detail::thread_handle(shared_->id, shared_);
  thread_local std::mt19937_64 random{std::random_device{}()};

  const auto start = std::chrono::steady_clock::now();
  std::string last_failure;
  NativeError last_native{NativeError::Origin::dynamodb};
  errc last_code = errc::unavailable;
  std::optional<detail::ServiceError> canceled;  // Cancellation::retry_conflicts: the last one
  bool renewed = false;  // the credentials, once, after an ExpiredTokenException
  for (int attempt = 1;; ++attempt) {
    if (seen != nullptr) {
      seen->attempts = attempt;
      if (attempt > 1) seen->attempt_start = std::chrono::steady_clock::now();
    }
    const std::shared_ptr<const Credentials> signer = shared_->credentials->current();
    detail::sign_v4(x.request, *signer, shared_->region, "dynamodb",
                    detail::amz_timestamp(shared_->credentials->now()));
    if (http != nullptr) {
      http->send(x.request, options.connect_timeout, options.request_timeout, x.response);
    } else {
      x.response = options.transport(x.request);
    }
    if (x.response.status == 200) {
      if (seen != nullptr) seen->end = std::chrono::steady_clock::now();
      return;
    }
    canceled.reset();
    bool maybe_applied = false;
    if (x.response.status == 0) {
      last_failure = "no answer: " + x.response.transport_error;
      maybe_applied = x.response.maybe_sent;
      last_native = {NativeError::Origin::dynamodb, 0, {}};
      last_code = errc::unavailable;
    } else {
      detail::ServiceError error = detail::parse_service_error(x.parser, x.response.body);
      last_code = detail::error_code_of(error.type, x.response.status);
      if (error.type == "ExpiredTokenException" && !renewed &&
          shared_->credentials->renew(signer.get())) {
        // Signed again with the provider's new credentials and sent at once: the expired
        // token was refused before anything was applied.
        renewed = true;
        continue;
      }
      if (cancellation == detail::Cancellation::retry_conflicts &&
          last_code == errc::transaction_canceled && detail::canceled_transiently(error.reasons)) {
        last_code = errc::conflict;
        canceled = error;
      }
      if (x.response.status < 500 && !is_retryable(last_code)) {
        raise(std::move(error), static_cast<int>(x.response.status), spec, key, what, cancellation);
      }
      last_failure =
          "HTTP " + std::to_string(x.response.status) + " " + error.type + ": " + error.message;
      last_native = {NativeError::Origin::dynamodb, static_cast<int>(x.response.status),
                     std::move(error.type)};
      // Throttling refuses a request before it is applied; a 5xx may come after.
      maybe_applied = x.response.status >= 500;
    }
    if (maybe_applied && retry == detail::Retry::when_not_applied) {
      throw BackendError(errc::unknown_outcome,
                         detail::context(spec.name, std::string(what) + key_text(key)) +
                             "the answer was lost, so whether it was applied is unknown (it "
                             "is not sent again: it could apply twice): " +
                             last_failure,
                         std::move(last_native));
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (attempt >= options.retry.max_attempts || elapsed >= options.retry.max_total) {
      if (canceled) {
        raise(std::move(*canceled), static_cast<int>(x.response.status), spec, key, what,
              cancellation);
      }
      throw_error(last_code,
                  detail::context(spec.name, std::string(what) + key_text(key)) + "failed after " +
                      std::to_string(attempt) + " attempts: " + last_failure,
                  std::move(last_native));
    }
    const auto ceiling = std::min<std::chrono::milliseconds>(
        options.retry.max_delay, options.retry.base_delay * (1LL << std::min(attempt - 1, 20)));
    std::uniform_int_distribution<long long> jitter(0, ceiling.count());
    const auto delay = std::chrono::milliseconds(jitter(random));
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(delay, options.retry.max_total - elapsed));
  }
}

// Hands the observed request's record to Options::on_request, and its capacity to the thread's
// tallies; `failure` is what the call throws (none when it succeeded). What the hook throws is
// dropped: the call ends as it would without it.
inline void Backend::Impl::report(const Shared& shared, detail::Exchange& x,
                                  const Failure& failure) noexcept {
  detail::Observation& seen = x.observation;
  if (seen.consumed) CapacityTally::add_to_all(*seen.consumed);
  if (shared.options.on_request) {
    RequestRecord record;
    record.operation = seen.operation;
    record.table = seen.table;
    record.request_bytes = x.request.body.size();
    record.response_bytes = x.response.status != 0 ? x.response.body.size() : 0;
    record.latency = seen.end - seen.start;
    record.last_attempt = seen.end - seen.attempt_start;
    record.attempts = seen.attempts;
    record.http_status = static_cast<int>(x.response.status);
    record.consumed_capacity = seen.consumed;
    record.consumed_capacity_json = seen.consumed_json;
    record.error = failure.code;
    record.error_type = failure.type;
    record.error_message = failure.message;
    try {
      shared.options.on_request(record);
    } catch (...) {  // observing must not change the call's outcome
    }
  }
  seen = detail::Observation{};
}

}  // namespace pksk::dynamodb
