// SPDX-License-Identifier: BSL-1.0
#pragma once
// A Backend that hands every operation to a SQLite backend: the base of the tests' backends that
// count, throttle or reshape some operations. A derived class declares the operations it
// changes, which hide these, and calls inner() for the rest of the work.

#include <pksk/sqlite.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace support {

class ForwardingBackend {
 public:
  using TableHandle = pksk::sqlite::Backend::TableHandle;
  static constexpr pksk::BodyFormat body_format = pksk::sqlite::Backend::body_format;

  explicit ForwardingBackend(pksk::sqlite::Backend& inner) : inner_(&inner) {}

  TableHandle open_table(const pksk::backend::TableSpec& spec) { return inner_->open_table(spec); }
  bool get(TableHandle t, pksk::backend::ItemKey key, pksk::backend::ItemVisitor visit) {
    return inner_->get(t, key, visit);
  }
  pksk::backend::QueryOutcome query(TableHandle t, const pksk::backend::RawQuery& q,
                                    pksk::backend::ItemVisitor visit) {
    return inner_->query(t, q, visit);
  }
  pksk::backend::ScanOutcome scan(TableHandle t, const pksk::backend::RawScan& s,
                                  pksk::backend::ItemVisitor visit) {
    return inner_->scan(t, s, visit);
  }
  void put(TableHandle t, const pksk::backend::PutRequest& r) { inner_->put(t, r); }
  void update(TableHandle t, const pksk::backend::UpdateRequest& r,
              pksk::backend::ItemVisitor visit) {
    inner_->update(t, r, visit);
  }
  bool erase(TableHandle t, const pksk::backend::EraseRequest& r) { return inner_->erase(t, r); }
  void transact(TableHandle t, std::span<const pksk::backend::WriteRequest> w) {
    inner_->transact(t, w);
  }
  void batch_write(TableHandle t, std::span<const pksk::backend::WriteRequest> w,
                   std::vector<std::size_t>& unprocessed) {
    inner_->batch_write(t, w, unprocessed);
  }
  void batch_get(TableHandle t, std::span<const pksk::backend::ItemKey> k,
                 pksk::backend::IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed) {
    inner_->batch_get(t, k, visit, unprocessed);
  }
  void transact_get(TableHandle t, std::span<const pksk::backend::ItemKey> k,
                    pksk::backend::IndexedItemVisitor visit) {
    inner_->transact_get(t, k, visit);
  }

 protected:
  pksk::sqlite::Backend& inner() const noexcept { return *inner_; }

 private:
  pksk::sqlite::Backend* inner_;
};

}  // namespace support
