// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::sqlite::Backend's definitions: inline through backend.hpp in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION. The Backend's members hand each call
// to Backend::Impl (backend_impl.ipp), whose steps are grouped by concern, one file each:
//   connections.ipp   the file, its pragmas, a connection per thread
//   schema.ipp        open_table: creating or checking tables and indexes
//   statements.ipp    a call's prepared statements, binds, key limits
//   reads.ipp         get, batch_get, query and scan with DynamoDB's paging
//   writes.ipp        put, update and erase, with their conditions
//   transactions.ipp  transact and batch_write
//   design.ipp        a table's stored design (design.hpp), beside the Backend

#include "backend_impl.ipp"
#include "connections.ipp"
#include "design.ipp"
#include "reads.ipp"
#include "schema.ipp"
#include "statements.ipp"
#include "transactions.ipp"
#include "writes.ipp"

namespace pksk::sqlite {

PKSK_DECL const std::string& Backend::TableHandle::name() const {
  return state().spec.name;
}
PKSK_DECL const backend::TableSpec& Backend::TableHandle::spec() const {
  return state().spec;
}
PKSK_DECL const detail::TableState& Backend::TableHandle::state() const {
  if (state_ == nullptr)
    throw BackendError(errc::misuse, "pksk::sqlite: use of an empty TableHandle");
  return *state_;
}

PKSK_DECL Backend::Backend(std::string path, Options options)
    : shared_(std::make_shared<detail::Shared>()) {
  Impl{shared_}.construct(std::move(path), options);
}

PKSK_DECL const std::string& Backend::path() const noexcept {
  return Impl{shared_}.path();
}

PKSK_DECL ::sqlite3* Backend::native_handle() const {
  return Impl{shared_}.connection().conn.db();
}

PKSK_DECL Backend::TableHandle Backend::open_table(const backend::TableSpec& spec) {
  return Impl{shared_}.open_table(spec);
}

PKSK_DECL std::size_t Backend::sweep_expired(TableHandle table) {
  return Impl{shared_}.sweep_expired(table);
}
PKSK_DECL bool Backend::get(TableHandle table, backend::ItemKey key, backend::ItemVisitor visit) {
  return Impl{shared_}.get(table, key, visit);
}
// A table without a type attribute stores no type: '' in its type column, as DynamoDB stores
// no attribute (detail::untyped_column).
PKSK_DECL void Backend::put(TableHandle table, const backend::PutRequest& request) {
  if (table.spec().type_attribute.empty()) [[unlikely]] {
    backend::PutRequest untyped = request;
    untyped.item.type = {};
    return Impl{shared_}.put(table, untyped);
  }
  Impl{shared_}.put(table, request);
}
PKSK_DECL void Backend::update(TableHandle table, const backend::UpdateRequest& request,
                               backend::ItemVisitor visit) {
  if (table.spec().type_attribute.empty()) [[unlikely]] {
    backend::UpdateRequest untyped = request;
    untyped.type = {};
    return Impl{shared_}.update(table, untyped, visit);
  }
  Impl{shared_}.update(table, request, visit);
}
PKSK_DECL bool Backend::erase(TableHandle table, const backend::EraseRequest& request) {
  return Impl{shared_}.erase(table, request);
}
namespace detail {
inline std::vector<backend::WriteRequest> untyped_writes(
    std::span<const backend::WriteRequest> writes) {
  std::vector<backend::WriteRequest> out(writes.begin(), writes.end());
  for (backend::WriteRequest& w : out) {
    if (auto* put = std::get_if<backend::PutRequest>(&w)) put->item.type = {};
    if (auto* update = std::get_if<backend::UpdateRequest>(&w)) update->type = {};
  }
  return out;
}
}  // namespace detail

PKSK_DECL void Backend::transact(TableHandle table, std::span<const backend::WriteRequest> writes) {
  if (table.spec().type_attribute.empty()) [[unlikely]] {
    return Impl{shared_}.transact(table, detail::untyped_writes(writes));
  }
  Impl{shared_}.transact(table, writes);
}
PKSK_DECL void Backend::batch_write(TableHandle table,
                                    std::span<const backend::WriteRequest> writes,
                                    std::vector<std::size_t>& unprocessed) {
  if (table.spec().type_attribute.empty()) [[unlikely]] {
    return Impl{shared_}.batch_write(table, detail::untyped_writes(writes), unprocessed);
  }
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

}  // namespace pksk::sqlite
