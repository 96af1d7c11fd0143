// SPDX-License-Identifier: BSL-1.0
#pragma once
// AnyBackend's dispatch: one table of function pointers per backend type, one indirect call
// per operation. The visitors pass through as the FunctionRefs they already are, so the
// concrete backend's row loop calls them directly: nothing is added per item.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "../../error.hpp"
#include "../backend.hpp"
#include "../body_format_of.hpp"

namespace pksk::detail::any_backend {

// `backend` is the B that AnyBackend holds, `table` the B::TableHandle that its open_table
// made; both were checked to belong to B before the call.
struct VTable {
  // Stores the concrete handle in `table` and says which format its bodies are in.
  BodyFormat (*open_table)(void* backend, const backend::TableSpec& spec,
                           std::shared_ptr<void>& table);
  bool (*get)(void* backend, void* table, backend::ItemKey key, backend::ItemVisitor visit);
  backend::QueryOutcome (*query)(void* backend, void* table, const backend::RawQuery& query,
                                 backend::ItemVisitor visit);
  backend::ScanOutcome (*scan)(void* backend, void* table, const backend::RawScan& scan,
                               backend::ItemVisitor visit);
  void (*put)(void* backend, void* table, const backend::PutRequest& request);
  void (*update)(void* backend, void* table, const backend::UpdateRequest& request,
                 backend::ItemVisitor visit);
  bool (*erase)(void* backend, void* table, const backend::EraseRequest& request);
  void (*transact)(void* backend, void* table, std::span<const backend::WriteRequest> writes);
  void (*batch_write)(void* backend, void* table, std::span<const backend::WriteRequest> writes,
                      std::vector<std::size_t>& unprocessed);
  void (*batch_get)(void* backend, void* table, std::span<const backend::ItemKey> keys,
                    backend::IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed);
  // The optional operation: for a backend without it, a BackendError when called.
  void (*transact_get)(void* backend, void* table, std::span<const backend::ItemKey> keys,
                       backend::IndexedItemVisitor visit);
  // Another: for a backend without it (it deletes expired items itself), 0.
  std::size_t (*sweep_expired)(void* backend, void* table);
};

// The functions restore the types and forward; the concept asks the operations to accept a
// TableHandle lvalue, which is what they get.
template <Backend B>
struct Thunks {
  using Handle = typename B::TableHandle;
  static B& self(void* backend) { return *static_cast<B*>(backend); }
  static Handle& handle(void* table) { return *static_cast<Handle*>(table); }

  static BodyFormat open_table(void* backend, const backend::TableSpec& spec,
                               std::shared_ptr<void>& table) {
    auto opened = std::make_shared<Handle>(self(backend).open_table(spec));
    const BodyFormat format = body_format_of(self(backend), *opened);
    table = std::move(opened);
    return format;
  }
  static bool get(void* backend, void* table, backend::ItemKey key, backend::ItemVisitor visit) {
    return self(backend).get(handle(table), key, visit);
  }
  static backend::QueryOutcome query(void* backend, void* table, const backend::RawQuery& query,
                                     backend::ItemVisitor visit) {
    return self(backend).query(handle(table), query, visit);
  }
  static backend::ScanOutcome scan(void* backend, void* table, const backend::RawScan& scan,
                                   backend::ItemVisitor visit) {
    return self(backend).scan(handle(table), scan, visit);
  }
  static void put(void* backend, void* table, const backend::PutRequest& request) {
    self(backend).put(handle(table), request);
  }
  static void update(void* backend, void* table, const backend::UpdateRequest& request,
                     backend::ItemVisitor visit) {
    self(backend).update(handle(table), request, visit);
  }
  static bool erase(void* backend, void* table, const backend::EraseRequest& request) {
    return self(backend).erase(handle(table), request);
  }
  static void transact(void* backend, void* table, std::span<const backend::WriteRequest> writes) {
    self(backend).transact(handle(table), writes);
  }
  static void batch_write(void* backend, void* table, std::span<const backend::WriteRequest> writes,
                          std::vector<std::size_t>& unprocessed) {
    self(backend).batch_write(handle(table), writes, unprocessed);
  }
  static void batch_get(void* backend, void* table, std::span<const backend::ItemKey> keys,
                        backend::IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed) {
    self(backend).batch_get(handle(table), keys, visit, unprocessed);
  }
  static void transact_get(void* backend, void* table, std::span<const backend::ItemKey> keys,
                           backend::IndexedItemVisitor visit) {
    if constexpr (TransactGetBackend<B>) {
      self(backend).transact_get(handle(table), keys, visit);
    } else {
      throw BackendError(errc::misuse,
                         "pksk::AnyBackend: the backend it holds has no transact_get operation "
                         "(it is not a pksk::TransactGetBackend)");
    }
  }
  static std::size_t sweep_expired(void* backend, void* table) {
    if constexpr (SweepExpiredBackend<B>) {
      return self(backend).sweep_expired(handle(table));
    } else {
      return 0;
    }
  }
};

// One per backend type in the program (an inline variable): its address tells which type an
// AnyBackend or one of its handles holds.
template <Backend B>
inline constexpr VTable vtable_for{
    &Thunks<B>::open_table, &Thunks<B>::get,          &Thunks<B>::query,
    &Thunks<B>::scan,       &Thunks<B>::put,          &Thunks<B>::update,
    &Thunks<B>::erase,      &Thunks<B>::transact,     &Thunks<B>::batch_write,
    &Thunks<B>::batch_get,  &Thunks<B>::transact_get, &Thunks<B>::sweep_expired,
};

}  // namespace pksk::detail::any_backend
