// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::AnyBackend: any Backend behind one type, chosen at run time (a service reads its
// configuration and opens SQLite or DynamoDB), so that Table<AnyBackend> and the code over it
// are compiled once for every backend.
//
//   pksk::AnyBackend backend = pksk::sqlite::Backend{"shop.db"};   // or a dynamodb::Backend
//   pksk::Table table{backend, "shop"};                           // Table<AnyBackend>
//
// Ownership is shared, as it already is inside the backends (each holds its state through a
// shared_ptr, and cannot be copied): copies of an AnyBackend refer to the one backend it was
// given, which lives until the last copy goes. AnyBackend::ref(backend) refers to a backend
// someone else owns and must keep alive instead. Like the backends, an AnyBackend may be used
// by any number of threads; copying one is copying a shared_ptr.
//
// Cost: one indirect call per backend operation, never per item (detail/any_backend_vtable.hpp),
// and, in Table, a switch per item on the body format the handle carries. A default-constructed
// or moved-from AnyBackend, or an empty TableHandle, throws pksk::Error when used.

#include <concepts>
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "backend.hpp"
#include "detail/any_backend_vtable.hpp"

namespace pksk {

// Any backend, chosen at run time (docs/backends.md): Table<AnyBackend> is compiled once and runs
// on SQLite or DynamoDB as the configuration says. Copies share the backend, as copies of a
// std::shared_ptr do.
class AnyBackend {
 public:
  // The held backend's TableHandle, shared by copies (one allocation per open_table), and the
  // format of its table's bodies. Valid while the backend that opened it lives.
  class TableHandle {
   public:
    // Throws: nothing.
    // Exception safety: nothrow.
    TableHandle() = default;  // refers to no table; using it throws pksk::Error
    // The format of the table's bodies (the held backend's).
    // Throws: nothing.
    // Exception safety: nothrow.
    BodyFormat body_format() const noexcept { return format_; }

   private:
    friend class AnyBackend;
    const detail::any_backend::VTable* vtable_ = nullptr;  // of the backend type that opened it
    std::shared_ptr<void> handle_{};
    BodyFormat format_ = BodyFormat::json;
  };

  // Holds no backend: using it throws pksk::Error until one is assigned.
  // Throws: nothing.
  // Exception safety: nothrow.
  AnyBackend() noexcept = default;

  // Takes `backend` over (moved in: the shipped backends cannot be copied). Implicit, as
  // std::function is from a callable, so that `AnyBackend b = sqlite::Backend{...};` reads as
  // the choice it is.
  // Throws: only std::bad_alloc.
  // Exception safety: basic: on an exception the backend moved in is destroyed.
  template <class B>
    requires(!std::same_as<B, AnyBackend> && Backend<B>)
  AnyBackend(B backend)  // NOLINT(google-explicit-constructor)
      : AnyBackend(std::make_shared<B>(std::move(backend))) {}

  // Shares a backend already owned through a shared_ptr.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class B>
    requires(!std::same_as<B, AnyBackend> && Backend<B>)
  explicit AnyBackend(std::shared_ptr<B> backend)
      : vtable_(backend ? &detail::any_backend::vtable_for<B> : nullptr),
        backend_(std::move(backend)) {}

  // Refers to `backend` without owning it: it must outlive this AnyBackend, its copies and
  // the handles they open. For a backend that lives in a scope anyway (a member, main's local).
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class B>
    requires(!std::same_as<B, AnyBackend> && Backend<B>)
  static AnyBackend ref(B& backend) noexcept {
    AnyBackend any;
    any.vtable_ = &detail::any_backend::vtable_for<B>;
    any.backend_ = std::shared_ptr<void>(std::shared_ptr<void>(), &backend);  // owns nothing
    return any;
  }

  // Shares the held backend.
  // Throws: nothing.
  // Exception safety: nothrow.
  AnyBackend(const AnyBackend&) = default;
  // Shares other's backend, releasing this one's.
  // Throws: nothing.
  // Exception safety: nothrow.
  AnyBackend& operator=(const AnyBackend&) = default;
  // A moved-from AnyBackend holds nothing (and throws when used), as a moved-from backend does.
  // Throws: nothing.
  // Exception safety: nothrow.
  AnyBackend(AnyBackend&& other) noexcept
      : vtable_(std::exchange(other.vtable_, nullptr)), backend_(std::move(other.backend_)) {}
  // Takes other's backend over, releasing this one's; other then holds nothing.
  // Throws: nothing.
  // Exception safety: nothrow.
  AnyBackend& operator=(AnyBackend&& other) noexcept {
    vtable_ = std::exchange(other.vtable_, nullptr);
    backend_ = std::move(other.backend_);
    return *this;
  }
  ~AnyBackend() = default;

  // Whether it holds a backend.
  // Throws: nothing.
  // Exception safety: nothrow.
  explicit operator bool() const noexcept { return vtable_ != nullptr; }

  // The held backend if it is a B, else nullptr (as std::function::target): for what only
  // that backend offers, such as sqlite::Backend::native_handle().
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class B>
  B* target() const noexcept {
    if (vtable_ == nullptr || vtable_ != &detail::any_backend::vtable_for<B>) return nullptr;
    return static_cast<B*>(backend_.get());
  }

  // The Backend concept. The operations are const as std::function's call is: the backend is
  // shared, not part of this object's value.
  // Throws: BackendError (misuse) when it holds no backend; what the held backend's open_table
  // throws.
  // Exception safety: as the held backend's open_table.
  TableHandle open_table(const backend::TableSpec& spec) const {
    TableHandle table;
    table.format_ = checked().open_table(backend_.get(), spec, table.handle_);
    table.vtable_ = vtable_;
    return table;
  }
  // The format of the table's bodies.
  // Throws: nothing.
  // Exception safety: nothrow.
  BodyFormat body_format(const TableHandle& table) const noexcept { return table.format_; }

  // get, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: strong (a read changes nothing).
  bool get(const TableHandle& table, backend::ItemKey key, backend::ItemVisitor visit) const {
    return checked(table).get(backend_.get(), table.handle_.get(), key, visit);
  }
  // One page of a query, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: strong (a read changes nothing).
  backend::QueryOutcome query(const TableHandle& table, const backend::RawQuery& query,
                              backend::ItemVisitor visit) const {
    return checked(table).query(backend_.get(), table.handle_.get(), query, visit);
  }
  // One page of a scan, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: strong (a read changes nothing).
  backend::ScanOutcome scan(const TableHandle& table, const backend::RawScan& scan,
                            backend::ItemVisitor visit) const {
    return checked(table).scan(backend_.get(), table.handle_.get(), scan, visit);
  }
  // put, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: as the held backend's (strong for SQLite; for DynamoDB, strong but for
  // errc::unknown_outcome).
  void put(const TableHandle& table, const backend::PutRequest& request) const {
    checked(table).put(backend_.get(), table.handle_.get(), request);
  }
  // update, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: as the held backend's (strong for SQLite; for DynamoDB, strong but for
  // errc::unknown_outcome).
  void update(const TableHandle& table, const backend::UpdateRequest& request,
              backend::ItemVisitor visit) const {
    checked(table).update(backend_.get(), table.handle_.get(), request, visit);
  }
  // erase, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: as the held backend's (strong for SQLite; for DynamoDB, strong but for
  // errc::unknown_outcome).
  bool erase(const TableHandle& table, const backend::EraseRequest& request) const {
    return checked(table).erase(backend_.get(), table.handle_.get(), request);
  }
  // A transaction, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: strong: all or nothing, as the held backend's.
  void transact(const TableHandle& table, std::span<const backend::WriteRequest> writes) const {
    checked(table).transact(backend_.get(), table.handle_.get(), writes);
  }
  // A batch write, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: as the held backend's (SQLite: strong; DynamoDB: basic, per request of 25).
  void batch_write(const TableHandle& table, std::span<const backend::WriteRequest> writes,
                   std::vector<std::size_t>& unprocessed) const {
    checked(table).batch_write(backend_.get(), table.handle_.get(), writes, unprocessed);
  }
  // A batch get, by the held backend.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend throws (sqlite::Backend, dynamodb::Backend).
  // Exception safety: strong (a read changes nothing).
  void batch_get(const TableHandle& table, std::span<const backend::ItemKey> keys,
                 backend::IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed) const {
    checked(table).batch_get(backend_.get(), table.handle_.get(), keys, visit, unprocessed);
  }
  // TransactGetBackend: a BackendError (errc::misuse) if the held backend has no transact_get.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend, or when the held backend has no transact_get; what it throws.
  // Exception safety: strong (a read changes nothing).
  void transact_get(const TableHandle& table, std::span<const backend::ItemKey> keys,
                    backend::IndexedItemVisitor visit) const {
    checked(table).transact_get(backend_.get(), table.handle_.get(), keys, visit);
  }
  // SweepExpiredBackend: 0 if the held backend deletes expired items itself.
  // Throws: BackendError (misuse) when it holds no backend or the handle is empty or of another
  // type's backend; what the held backend's sweep throws.
  // Exception safety: as the held backend's (SQLite: strong).
  std::size_t sweep_expired(const TableHandle& table) const {
    return checked(table).sweep_expired(backend_.get(), table.handle_.get());
  }

 private:
  const detail::any_backend::VTable& checked() const {
    if (vtable_ == nullptr) {
      throw BackendError(errc::misuse,
                         "pksk::AnyBackend: use of an AnyBackend that holds no backend "
                         "(default-constructed or moved from)");
    }
    return *vtable_;
  }
  // The handle must come from a backend of the type this one holds; whether it is the same
  // backend object is for that backend to check, as it does for its own handles.
  const detail::any_backend::VTable& checked(const TableHandle& table) const {
    const detail::any_backend::VTable& vtable = checked();
    if (table.vtable_ != vtable_) {
      throw BackendError(
          errc::misuse,
          table.vtable_ == nullptr
              ? "pksk::AnyBackend: use of an empty TableHandle"
              : "pksk::AnyBackend: the TableHandle was opened by a backend of another type");
    }
    return vtable;
  }

  const detail::any_backend::VTable* vtable_ = nullptr;  // nullptr: holds no backend
  std::shared_ptr<void> backend_{};
};

static_assert(TransactGetBackend<AnyBackend> && SweepExpiredBackend<AnyBackend>);
static_assert(detail::RunTimeBodyFormat<AnyBackend> && !detail::ConstantBodyFormat<AnyBackend>);

}  // namespace pksk
