// SPDX-License-Identifier: BSL-1.0
#pragma once
// The DynamoDB backend's options: where it sends requests and through what, with which
// credentials, how it retries, whether it creates missing tables and writes exactly once, and
// what it tells the program about each request.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "credentials.hpp"
#include "credentials/options.hpp"
#include "observe.hpp"
#include "transport.hpp"

namespace pksk::dynamodb {

// Retries of throttled requests (ThrottlingException, ProvisionedThroughputExceeded,
// RequestLimitExceeded), TransactionConflict, 5xx answers, timeouts and dropped connections:
// before attempt n + 1, a delay drawn uniformly from 0 to min(max_delay, base_delay * 2^(n-1))
// (exponential backoff with full jitter), until max_attempts requests were made or max_total
// has passed since the first, then a BackendError with the last failure (errc::throttled,
// errc::conflict or errc::unavailable, retryable()). Validation, authentication and condition
// failures are never retried, nor an update or conditional write whose answer was lost once it
// may have reached DynamoDB (errc::unknown_outcome; exactly_once_writes below).
struct RetryOptions {
  // The most requests sent for one operation, the first included.
  int max_attempts = 10;
  // The ceiling of the first delay; it doubles with each attempt.
  std::chrono::milliseconds base_delay{25};
  // The most a ceiling grows to.
  std::chrono::milliseconds max_delay{2000};
  // No attempt starts once this has passed since the first.
  std::chrono::milliseconds max_total{30000};
};

// How a dynamodb::Backend reaches DynamoDB: endpoint, region, credentials, timeouts, retries, table
// creation, exactly-once writes and request observation.
struct Options {
  // Empty: https://dynamodb.<region>.amazonaws.com. DynamoDB Local: "http://127.0.0.1:8000".
  std::string endpoint{};
  std::string region{};  // empty: resolve_region (AWS_REGION, AWS_DEFAULT_REGION, the profile)
  // Long-term keys (or a session's) that never change while the Backend lives. Used as they are
  // when given, unless both keys are empty.
  std::optional<Credentials> credentials{};
  // Where credentials come from when they change while the Backend lives (a role's temporary
  // credentials, a secrets store, a chain of one's own: credentials/chain.hpp). Called when the
  // Backend is made, again when the credentials it gave come within the refresh margin below
  // of their `expiration` (by one thread, while the others wait for it), and once more when
  // DynamoDB answers ExpiredTokenException (the request is then signed again and resent).
  // Given, `credentials` is not consulted. Empty, and `credentials` empty:
  // default_credentials_provider (credentials/chain.hpp), with `credential_chain` below, the
  // profile above and the region of this Backend: the environment, web identity, the profile,
  // the container endpoint, IMDSv2; its credentials are asked for again as a provider's are
  // when they have an `expiration`, and never when they have none.
  CredentialsProvider credentials_provider{};
  // Which profile of the AWS config files to read, and where they are (ProfileOptions).
  ProfileOptions profile{};
  // Where the default chain looks and how (the STS endpoint, its transport and timeouts). Its
  // `profile` is replaced by `profile` above, and its `region`, when empty, by this Backend's.
  CredentialOptions credential_chain{};
  // How long before their `expiration` credentials are asked for again: this margin, or half
  // their lifetime (from when they were received to their expiration) when that is shorter, so
  // that credentials lasting less than the margin are not asked for on every request.
  std::chrono::milliseconds credentials_refresh_margin{std::chrono::minutes(5)};
  // Per attempt, for the libcurl transport: making the connection, and the whole exchange
  // (connection, request and answer). An attempt past either has no answer, and is retried as
  // RetryOptions says: a server that hangs fails a request after about max_attempts *
  // request_timeout plus the delays, and never later than max_total plus one request_timeout.
  std::chrono::milliseconds connect_timeout{3000};
  // See connect_timeout: the whole exchange of one attempt.
  std::chrono::milliseconds request_timeout{10000};
  // Sends each signed request and returns the answer (transport.hpp). Empty: libcurl, with a
  // handle per thread that keeps its connection open, and the two timeouts above.
  Transport transport{};
  // How failed requests are retried (RetryOptions).
  RetryOptions retry{};
  // open_table creates a missing table (on-demand capacity) and waits until it is ACTIVE. For
  // development and tests: off, a missing table is a BackendError.
  bool create_missing_tables = false;
  // An update, or a put or erase with a condition, goes as UpdateItem (ReturnValues ALL_NEW:
  // the item as written comes back in the same answer), PutItem or DeleteItem, at their plain
  // price. Such a write is never sent twice once it may have reached DynamoDB (by pksk or by
  // libcurl): applied twice, an ADD would count twice and a condition would fail on the write's
  // own result. Its lost answer (a dropped connection, a timeout, a 5xx) is a BackendError
  // errc::unknown_outcome: read the item, and send it again if it was not applied.
  // exactly_once_writes on, such a write goes instead as a one-action TransactWriteItems under
  // a client request token, which DynamoDB applies once however often it is retried (within
  // 10 minutes): it costs twice the write capacity, an update's result is read back with a
  // consistent GetItem (a write by someone else in between shows in it), and a conditional
  // erase asks for the item to exist so that it can say whether it removed one. The same for
  // the tables named in exactly_once_tables only, or for the writes made in the scope of an
  // ExactlyOnce (below).
  bool exactly_once_writes = false;
  // The tables whose writes go exactly once, exactly_once_writes off (see above).
  std::vector<std::string> exactly_once_tables{};
  // Called once per request (DescribeTable and CreateTable too), after its last attempt, with
  // what it was, how long it took, how often it was sent, what it consumed and how it failed
  // (observe.hpp): on the calling thread, from every thread, concurrently. Empty, and
  // return_consumed_capacity none: nothing is measured. What it throws is dropped.
  RequestHook on_request{};
  // Asks DynamoDB what each item request consumed (free of charge): in on_request's record and
  // in the thread's CapacityTally scopes (observe.hpp).
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::none;
  // What "now" is for the credentials: when they come within the refresh margin, and the time
  // each request is signed with. Empty: std::chrono::system_clock::now. Tests set a clock (as
  // TableOptions::ttl_clock) to live through credentials' lifetimes without waiting for them;
  // DynamoDB refuses a request signed more than 5 minutes from its own time.
  std::function<std::chrono::system_clock::time_point()> clock{};
};

// While one lives, the updates and conditional puts and erases that this thread sends through
// any DynamoDB Backend go exactly once (Options::exactly_once_writes), whatever the options say:
//   { pksk::dynamodb::ExactlyOnce once; table.update(key, pksk::add(&Account::balance, 10)); }
// Scopes nest. Other backends apply every write once anyway, and ignore it.
class ExactlyOnce {
 public:
  // Starts the scope on this thread.
  // Throws: nothing.
  // Exception safety: nothrow.
  ExactlyOnce() noexcept : outer_(active_flag()) { active_flag() = true; }
  // Ends the scope: the thread is as it was before it began.
  // Throws: nothing.
  // Exception safety: nothrow.
  ~ExactlyOnce() { active_flag() = outer_; }
  ExactlyOnce(const ExactlyOnce&) = delete;
  ExactlyOnce& operator=(const ExactlyOnce&) = delete;

  // Whether this thread is in the scope of one.
  // Throws: nothing.
  // Exception safety: nothrow.
  static bool active() noexcept { return active_flag(); }

 private:
  static bool& active_flag() noexcept {
    thread_local bool active = false;
    return active;
  }
  bool outer_;
};

}  // namespace pksk::dynamodb
