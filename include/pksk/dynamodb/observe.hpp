// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the DynamoDB backend tells a program about the requests it sends: a record of each one
// for Options::on_request (a log line, a metric), the capacity DynamoDB says it consumed
// (Options::return_consumed_capacity), and a scope that sums that capacity over a thread's
// calls (CapacityTally).

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

#include "../detail/worker_pool.hpp"
#include "../error.hpp"

namespace pksk::dynamodb {

class Backend;

// DynamoDB's ReturnConsumedCapacity, sent with every item request (GetItem, PutItem, UpdateItem,
// DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem, TransactWriteItems) unless none.
// DynamoDB reports the capacity at no charge; the answer grows by a few dozen bytes.
enum class ReturnConsumedCapacity : unsigned char {
  none,     // not asked for
  total,    // TOTAL: the request's units
  indexes,  // INDEXES: the same, and the table's and each index's share (RequestRecord's json)
};

// The capacity units one request consumed, or a sum of them (CapacityTally). DynamoDB reports
// the total (CapacityUnits) and, for some requests (transactions), its read and write parts;
// when it does not, the units of a read (GetItem, Query, Scan, BatchGetItem) are read units and
// those of a write are write units, as DynamoDB charges them.
struct ConsumedCapacity {
  double units = 0;  // over the table and its indexes
  // The read part of units.
  double read_units = 0;
  // The write part of units.
  double write_units = 0;

  // Adds other's units, part by part.
  // Throws: nothing.
  // Exception safety: nothrow.
  ConsumedCapacity& operator+=(const ConsumedCapacity& other) noexcept {
    units += other.units;
    read_units += other.read_units;
    write_units += other.write_units;
    return *this;
  }
  friend bool operator==(const ConsumedCapacity&, const ConsumedCapacity&) = default;
};

// One request to DynamoDB, once its last attempt is over, as Options::on_request receives it.
// The views point into the backend's buffers and the error being thrown: valid during the
// call only (copy what is kept).
struct RequestRecord {
  std::string_view operation{};    // DynamoDB's action: "GetItem", "Query", "TransactWriteItems"
  std::string_view table{};        // the table's name
  std::size_t request_bytes = 0;   // the JSON body sent (each attempt sends the same)
  std::size_t response_bytes = 0;  // the body of the last answer; 0 when none came
  // From the start of the first attempt to the end of the last (its answer read off the wire,
  // or its failure), the delays between attempts included; the time spent afterwards handing
  // the answer's items to the caller is not.
  std::chrono::nanoseconds latency{};
  std::chrono::nanoseconds last_attempt{};  // the last attempt alone: signing, sending, answer
  int attempts = 0;                         // how often it was sent: 1 unless it was retried
  int http_status = 0;                      // the last answer's status; 0 when none came
  // What DynamoDB said the request consumed, when it said so (return_consumed_capacity, and a
  // request that succeeded), and its ConsumedCapacity member as it came (an object, or an
  // array of one per table for batches and transactions; with `indexes`, each index's share).
  std::optional<ConsumedCapacity> consumed_capacity{};
  // The ConsumedCapacity member of the answer, as it came (see consumed_capacity).
  std::string_view consumed_capacity_json{};
  // errc{} (0) when the request succeeded; else the code of the error the call throws, and
  // DynamoDB's error type when it answered with one ("ConditionalCheckFailedException",
  // "ThrottlingException"), and the error's what(). An exception that is not a pksk::Error (from
  // the program's transport, std::bad_alloc) is errc::backend_failure, with its what().
  errc error{};
  // DynamoDB's error type, when it answered with one (see error).
  std::string_view error_type{};
  // The error's what() (see error).
  std::string_view error_message{};
};

// Called once per request, on the thread that made the call, after its last attempt, with the
// request's record; from every thread that uses the Backend, concurrently. Empty (and no
// consumed capacity asked for), a request is not measured at all: no clock read, no
// allocation. Whatever it throws is caught and dropped: the call's outcome (its result, or its
// own error) is the same with or without the hook.
using RequestHook = std::function<void(const RequestRecord&)>;

// While one lives, the capacity of each request this thread sends through a DynamoDB Backend
// whose Options::return_consumed_capacity asks for it is added to it, however many requests a
// call makes (a query's pages, a batch's groups):
//   pksk::dynamodb::CapacityTally tally;
//   auto orders = table.query<Order>(pk);
//   std::printf("%.1f read units in %d requests\n", tally.consumed().read_units, tally.requests());
// Tallies nest: a request counts in every tally alive on its thread.
class CapacityTally {
 public:
  // While it lives, a fan-out read of this thread reads its partitions on this thread (not in
  // parallel), so that their requests count here.
  // Throws: nothing.
  // Exception safety: nothrow.
  CapacityTally() noexcept : outer_(innermost()) {
    innermost() = this;
    ++pksk::detail::requests_observed_on_this_thread();
  }
  // Stops counting: the thread's tallies are as they were before this one.
  // Throws: nothing.
  // Exception safety: nothrow.
  ~CapacityTally() {
    innermost() = outer_;
    --pksk::detail::requests_observed_on_this_thread();
  }
  CapacityTally(const CapacityTally&) = delete;
  CapacityTally& operator=(const CapacityTally&) = delete;

  // The capacity of the requests counted so far.
  // Throws: nothing.
  // Exception safety: nothrow.
  const ConsumedCapacity& consumed() const noexcept { return consumed_; }
  // How many requests were counted: those whose capacity DynamoDB reported.
  // Throws: nothing.
  // Exception safety: nothrow.
  int requests() const noexcept { return requests_; }  // those whose capacity was reported

 private:
  friend class Backend;  // its requests add to the thread's tallies
  static void add_to_all(const ConsumedCapacity& capacity) noexcept {
    for (CapacityTally* t = innermost(); t != nullptr; t = t->outer_) {
      t->consumed_ += capacity;
      ++t->requests_;
    }
  }
  static CapacityTally*& innermost() noexcept {
    thread_local CapacityTally* tally = nullptr;
    return tally;
  }

  CapacityTally* outer_;
  ConsumedCapacity consumed_{};
  int requests_ = 0;
};

}  // namespace pksk::dynamodb
