// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::dynamodb::Backend's definitions: inline through backend.hpp in header-only mode,
// compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION. The Backend's members hand
// each call to Backend::Impl (backend_impl.ipp), whose steps are grouped by concern:
//   client.ipp         credentials, transport (libcurl or the program's), signing, retries
//   answers.ipp        reading DynamoDB's answers, and its refusals as pksk's errors
//   control_plane.ipp  open_table: DescribeTable, CreateTable, UpdateTable, waits
//   items.ipp          the item operations: get, put, update, erase, batches, query, scan

#include <optional>
#include <utility>

#include "answers.ipp"
#include "backend_impl.ipp"
#include "client.ipp"
#include "control_plane.ipp"
#include "items.ipp"

namespace pksk::dynamodb {

PKSK_DECL const std::string& Backend::TableHandle::name() const {
  return spec().name;
}
PKSK_DECL const backend::TableSpec& Backend::TableHandle::spec() const {
  if (spec_ == nullptr)
    throw BackendError(errc::misuse, "pksk::dynamodb: use of an empty TableHandle");
  return *spec_;
}

PKSK_DECL Backend::Backend(Options options) : shared_(std::make_shared<Shared>()) {
  Impl{shared_}.construct(std::move(options));
}

PKSK_DECL const std::string& Backend::endpoint() const noexcept {
  return shared_->endpoint;
}
PKSK_DECL const std::string& Backend::region() const noexcept {
  return shared_->region;
}

PKSK_DECL Backend::TableHandle Backend::open_table(const backend::TableSpec& spec) {
  return Impl{shared_}.open_table(spec);
}
PKSK_DECL bool Backend::get(TableHandle table, backend::ItemKey key, backend::ItemVisitor visit) {
  return Impl{shared_}.get(table, key, visit);
}
// A write that asks for its condition's failure to be reported (backend::WriteReturns::failure)
// gets the ConditionFailed parsed from DynamoDB's answer: caught here rather than avoided, as
// its throw costs little beside the request's round trip. `write()` makes the request.
namespace detail {
template <class Result, class Write>
Result reporting_failure(std::optional<ConditionFailed>* failure, Write&& write) {
  if (failure == nullptr) return write();
  try {
    return write();
  } catch (ConditionFailed& failed) {
    failure->emplace(std::move(failed));
    return Result();
  }
}
}  // namespace detail
PKSK_DECL void Backend::put(TableHandle table, const backend::PutRequest& request) {
  detail::reporting_failure<void>(request.returns.failure,
                                  [&] { Impl{shared_}.put(table, request); });
}
PKSK_DECL void Backend::update(TableHandle table, const backend::UpdateRequest& request,
                               backend::ItemVisitor visit) {
  detail::reporting_failure<void>(request.returns.failure,
                                  [&] { Impl{shared_}.update(table, request, visit); });
}
PKSK_DECL bool Backend::erase(TableHandle table, const backend::EraseRequest& request) {
  return detail::reporting_failure<bool>(request.returns.failure,
                                         [&] { return Impl{shared_}.erase(table, request); });
}
PKSK_DECL void Backend::transact(TableHandle table, std::span<const backend::WriteRequest> writes) {
  Impl{shared_}.transact(table, writes);
}
PKSK_DECL void Backend::batch_write(TableHandle table,
                                    std::span<const backend::WriteRequest> writes,
                                    std::vector<std::size_t>& unprocessed) {
  Impl{shared_}.batch_write(table, writes, unprocessed);
}
PKSK_DECL void Backend::batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                                  backend::IndexedItemVisitor visit,
                                  std::vector<std::size_t>& unprocessed) {
  Impl{shared_}.batch_get(table, keys, visit, unprocessed);
}
PKSK_DECL void Backend::transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                                     backend::IndexedItemVisitor visit) {
  Impl{shared_}.transact_get(table, keys, visit);
}
PKSK_DECL backend::QueryOutcome Backend::query(TableHandle table, const backend::RawQuery& query,
                                               backend::ItemVisitor visit) {
  return Impl{shared_}.query(table, query, visit);
}
PKSK_DECL backend::ScanOutcome Backend::scan(TableHandle table, const backend::RawScan& scan,
                                             backend::ItemVisitor visit) {
  return Impl{shared_}.scan(table, scan, visit);
}

}  // namespace pksk::dynamodb
