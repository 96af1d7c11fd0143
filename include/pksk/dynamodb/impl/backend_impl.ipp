// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::dynamodb::Backend's private parts, declared: the state its handles share (Shared) and
// Backend::Impl, one member function per step, each defined in the room of its concern (the
// .ipp named beside each group below). Included by those rooms; the Backend's own definitions
// are in backend.ipp.

#include <simdjson.h>
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>
#include "../../backend/backend.hpp"
#include "../../backend/emulation/evaluate.hpp"
#include "../../backend/ttl.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../codec/body_format.hpp"
#include "../../detail/thread_lease.hpp"
#include "../../error.hpp"
#include "../backend.hpp"
#include "../credentials.hpp"
#include "../credentials/cache.hpp"
#include "../credentials/chain.hpp"
#include "../detail/errors.hpp"
#include "../detail/http.hpp"
#include "../detail/messages.hpp"
#include "../detail/request.hpp"
#include "../detail/response.hpp"
#include "../detail/sigv4.hpp"

namespace pksk::dynamodb::detail {

// Whether a request may be sent again when its first answer was lost. An update (ADD, append)
// or a conditional write applied once and then again would be applied twice, or fail its own
// condition: those are retried only when DynamoDB surely did not apply them (throttling, no
// connection made), and otherwise fail with a BackendError that says the outcome is unknown.
enum class Retry : unsigned char { always, when_not_applied };

// How a TransactionCanceledException is reported: as a transaction's (TransactionCanceled with
// its reasons), or, for one write sent as a transaction, as that write's own error; or, for a
// read (TransactGetItems), retried first when its reasons are conflicts or throttling only, as
// a conflict is, and reported as a transaction's when the retries run out.
enum class Cancellation : unsigned char { as_transaction, as_single_write, retry_conflicts };

// attribute_exists(pk) AND condition.
inline backend::Condition exists_and(const backend::TableSpec& spec,
                                     const backend::Condition& condition) {
  backend::Condition exists{backend::Condition::Op::exists, {}, {}};
  exists.operands.push_back(
      {backend::Operand::Kind::path, backend::AttributePath{{{spec.pk_attribute, 0, false}}}, {}});
  return backend::Condition{backend::Condition::Op::all, {}, {std::move(exists), condition}};
}

// What is known of a request that is observed (Options::on_request, return_consumed_capacity)
// until it is reported; left as it is, empty, for a request that is not.
struct Observation {
  bool wants_capacity = false;  // ReturnConsumedCapacity went with it: read the answer's
  bool answer_read = false;     // the answer's members were walked (its capacity read)
  std::string_view operation{};
  std::string_view table{};
  int attempts = 0;
  std::chrono::steady_clock::time_point start{};
  std::chrono::steady_clock::time_point attempt_start{};  // the last attempt's
  std::chrono::steady_clock::time_point end{};
  std::optional<ConsumedCapacity> consumed{};
  std::string_view consumed_json{};
};

// A request and its answer, reused by one thread: buffers keep their capacity.
struct Exchange {
  HttpRequest request;
  HttpResponse response;
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document document;
  Observation observation;
};

// The item requests that take ReturnConsumedCapacity (the control plane's do not), and those
// of them whose units are read units.
inline bool reports_capacity(std::string_view operation) noexcept {
  return operation != "DescribeTable" && operation != "CreateTable" && operation != "UpdateTable";
}
inline bool is_read(std::string_view operation) noexcept {
  return operation == "GetItem" || operation == "Query" || operation == "Scan" ||
         operation == "BatchGetItem";
}

}  // namespace pksk::dynamodb::detail

namespace pksk::dynamodb {

struct Backend::Shared {
  std::uint64_t id = detail::next_client_id();
  Options options;
  std::string region;
  std::string endpoint;
  // Explicit keys, the program's Options::credentials_provider, or the default chain; set by
  // construct().
  std::optional<detail::CredentialCache> credentials;
  std::mutex mutex;  // guards tables
  // An open table: what its handle points to.
  struct OpenTable : backend::TableSpec {
    OpenTable(const backend::TableSpec& spec, bool once)
        : backend::TableSpec(spec), exactly_once(once) {}
    bool exactly_once;  // Options::exactly_once_tables names it
  };
  std::vector<std::unique_ptr<OpenTable>> tables;
  // Options::on_request is set or return_consumed_capacity asks: requests are measured.
  bool observing = false;
};

struct Backend::Impl {
  const std::shared_ptr<Shared>& shared_;

  // client.ipp: the credentials, the transport, signing and retries.
  void construct(Options options);
  // The calling thread's exchange, or a fresh one when a visitor calls back into the backend
  // while the thread's own is still being read.
  using Lease = pksk::detail::ThreadLease<detail::Exchange>;
  class Answer;
  static detail::Retry retry_for(const backend::Condition* condition);
  bool exactly_once(TableHandle table) const;
  std::string request_token();
  static std::string key_text(const std::optional<backend::ItemKey>& key);
  Answer send(std::string_view operation, std::string body, const backend::TableSpec& spec,
              std::optional<backend::ItemKey> key, std::string_view what,
              detail::Retry retry = detail::Retry::always,
              detail::Cancellation cancellation = detail::Cancellation::as_transaction);
  void attempt(detail::Exchange& x, const backend::TableSpec& spec,
               const std::optional<backend::ItemKey>& key, std::string_view what,
               detail::Retry retry, detail::Cancellation cancellation, detail::Observation* seen);
  void observe(detail::Exchange& x, std::string_view operation, const backend::TableSpec& spec);
  // How an observed request failed: the code, DynamoDB's error type and the message of the
  // error the call throws; errc{} when it succeeded.
  struct Failure {
    errc code{};
    std::string_view type{};
    std::string_view message{};
  };
  static void report(const Shared& shared, detail::Exchange& x, const Failure& failure) noexcept;

  // answers.ipp: reading answers, a page, a refusal as pksk's error.
  [[noreturn]] static void fail_parse(simdjson::error_code error);
  static simdjson::ondemand::object object_of(simdjson::ondemand::value value);
  static simdjson::ondemand::array array_of(simdjson::ondemand::value value);
  template <class Result>
  static simdjson::ondemand::value value_of(Result&& result);
  template <class Each>
  static void for_each_object_member(simdjson::ondemand::object object, Each&& each);
  template <class Each>
  static void for_each_member(detail::Exchange& x, Each&& each);
  static void read_capacity(detail::Observation& seen, simdjson::ondemand::value value);
  static void read_page(detail::Exchange& x, const backend::TableSpec& spec,
                        const std::optional<backend::Condition>& client_filter,
                        std::size_t& evaluated, std::size_t* count, backend::ItemVisitor visit,
                        pksk::detail::FunctionRef<void(simdjson::ondemand::object&)> on_last_key);
  [[noreturn]] void raise(detail::ServiceError error, int status, const backend::TableSpec& spec,
                          const std::optional<backend::ItemKey>& key, std::string_view what,
                          detail::Cancellation cancellation);
  static std::shared_ptr<const RawItem> stored_item(const detail::ServiceError& error,
                                                    const backend::TableSpec& spec);
  static std::shared_ptr<const RawItem> stored_item(const std::string& item,
                                                    const backend::TableSpec& spec);

  // control_plane.ipp: open_table: DescribeTable, CreateTable, UpdateTable, waits.
  TableHandle open_table(const backend::TableSpec& spec);
  // A key schema as DescribeTable lists it: (attribute name, HASH or RANGE) in order.
  using KeySchema = std::vector<std::pair<std::string, std::string>>;
  struct Description {
    std::string status;  // empty: no such table
    KeySchema schema;
    std::vector<std::pair<std::string, std::string>> attributes;  // name, S/N/B
    struct Gsi {
      std::string name;
      KeySchema schema;
      std::string status;
    };
    std::vector<Gsi> indexes;
  };
  static KeySchema read_named_pairs(simdjson::ondemand::value v, const char* second);
  static std::string read_string(simdjson::ondemand::value v);
  std::string describe(const backend::TableSpec& spec);
  Description description(const backend::TableSpec& spec);
  static void check_schema(const backend::TableSpec& spec,
                           const std::vector<std::pair<std::string, std::string>>& schema,
                           const std::vector<std::pair<std::string, std::string>>& attributes);
  static void append_attribute_definition(std::string& body, std::string_view name,
                                          KeyType type = KeyType::string);
  static void append_key_schema(std::string& body, std::string_view pk, std::string_view sk);
  static void append_index_definition(std::string& body, const TableIndex& index);
  void create(const backend::TableSpec& spec);
  void add_index(const backend::TableSpec& spec, const TableIndex& index);
  void enable_ttl(const backend::TableSpec& spec);

  // items.ipp: get, put, update, erase, transact, batches, query and scan.
  bool get(TableHandle table, backend::ItemKey key, backend::ItemVisitor visit);
  void put(TableHandle table, const backend::PutRequest& request);
  void update(TableHandle table, const backend::UpdateRequest& request, backend::ItemVisitor visit);
  bool erase(TableHandle table, const backend::EraseRequest& request);
  void transact(TableHandle table, std::span<const backend::WriteRequest> writes);
  void batch_write(TableHandle table, std::span<const backend::WriteRequest> writes,
                   std::vector<std::size_t>& unprocessed);
  bool erase_item(const backend::TableSpec& spec, const backend::EraseRequest& request,
                  detail::Retry retry);
  void send_once(const backend::TableSpec& spec, const backend::WriteRequest& write,
                 backend::ItemKey key, std::string_view what);
  static void visit_attributes(detail::Exchange& x, const backend::TableSpec& spec,
                               backend::ItemVisitor visit);
  static void refuse_old_item(const backend::TableSpec& spec, const backend::WriteReturns& returns,
                              backend::ItemKey key, std::string_view what);
  void batch_write_group(const backend::TableSpec& spec,
                         std::span<const backend::WriteRequest> writes, std::size_t offset,
                         std::vector<std::size_t>& unprocessed);
  void batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                 backend::IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed);
  void transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                    backend::IndexedItemVisitor visit);
  backend::QueryOutcome query(TableHandle table, const backend::RawQuery& query,
                              backend::ItemVisitor visit);
  backend::ScanOutcome scan(TableHandle table, const backend::RawScan& scan,
                            backend::ItemVisitor visit);
};

// What send returns: the exchange holding the answer (status 200), lent to the operation that
// reads it. An observed request is reported when the operation is done with it, the answer's
// ConsumedCapacity read by then (by the operation's walk over the answer, or here for an
// operation that has none): after the visitor saw the items, on every path out.
class Backend::Impl::Answer {
 public:
  Answer(Lease lease, const Shared* observed) noexcept
      : lease_(std::move(lease)), observed_(observed) {}
  Answer(Answer&& other) noexcept
      : lease_(std::move(other.lease_)), observed_(std::exchange(other.observed_, nullptr)) {}
  Answer(const Answer&) = delete;
  Answer& operator=(const Answer&) = delete;
  Answer& operator=(Answer&&) = delete;
  ~Answer() {
    if (observed_ != nullptr) finish();
  }

  detail::Exchange& operator*() const noexcept { return *lease_; }
  detail::Exchange* operator->() const noexcept { return &*lease_; }

 private:
  void finish() noexcept {
    detail::Exchange& x = *lease_;
    if (x.observation.wants_capacity && !x.observation.answer_read) {
      try {
        for_each_member(x, [](std::string_view, simdjson::ondemand::value) {});
      } catch (...) {  // an answer that does not parse: no capacity to tell
      }
    }
    report(*observed_, x, {});
  }

  Lease lease_;
  const Shared* observed_;  // null: not observed, or moved from
};

}  // namespace pksk::dynamodb
