// SPDX-License-Identifier: BSL-1.0
#pragma once
// Maintenance's members that are not templates of their own. Defined out of the class, so
// not inline: with PKSK_SEPARATE_COMPILATION the library's backends get them compiled once, in
// <pksk/src.hpp>'s translation unit (beside Table's), and any other backend where used.
// Included at the end of maintenance.hpp.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "../../backend/any_backend.hpp"
#include "../maintenance.hpp"

namespace pksk {

template <Backend B>
TableStats Maintenance<B>::stats(const StatsOptions& options) const {
  Table<B>& t = *table_;
  const BodyFormat format = t.format_now();
  const std::size_t segments =
      options.segments != 0 ? options.segments : (format == BodyFormat::json ? 1 : 4);
  std::vector<detail::StatsTally> tallies(segments);
  std::mutex progress_mutex;
  StatsProgress progress{.segments = segments};
  const auto read_segment = [&](std::size_t segment) {
    detail::scan_stats_segment(*t.backend_, t.handle_, t.spec_, format, segment, segments,
                               tallies[segment], [&](std::size_t items) {
                                 if (!options.progress) return;
                                 const std::lock_guard lock(progress_mutex);
                                 progress.items += items;
                                 options.progress(progress);
                               });
    if (options.progress) {
      const std::lock_guard lock(progress_mutex);
      ++progress.segments_done;
      options.progress(progress);
    }
  };
  if (segments == 1) {
    read_segment(0);
  } else {
    std::vector<std::exception_ptr> failures(segments);
    std::vector<std::thread> threads;
    threads.reserve(segments);
    for (std::size_t i = 0; i < segments; ++i) {
      threads.emplace_back([&, i] {
        try {
          read_segment(i);
        } catch (...) {
          failures[i] = std::current_exception();
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (const std::exception_ptr& failure : failures) {
      if (failure) std::rethrow_exception(failure);
    }
  }
  for (std::size_t i = 1; i < segments; ++i) tallies[0].merge(std::move(tallies[i]));
  TableStats stats = std::move(tallies[0]).finish(options);
  stats.hot_keys = hot_keys(options.largest);
  return stats;
}

template <Backend B>
std::vector<HotKey> Maintenance<B>::hot_keys(std::size_t n) const {
  const auto& access = table_->spec_.access;
  return access ? access->top(n) : std::vector<HotKey>{};
}

template <Backend B>
void Maintenance<B>::reset_hot_keys() const noexcept {
  if (const auto& access = table_->spec_.access) access->reset();
}

template <Backend B>
std::size_t Maintenance<B>::sweep_expired() const {
  if constexpr (SweepExpiredBackend<B>) {
    return table_->backend_->sweep_expired(table_->handle_);
  } else {
    return 0;  // the backend deletes expired items itself
  }
}

template <Backend B>
std::size_t Maintenance<B>::sweep_chunks(std::chrono::milliseconds min_age) const {
  return table_->sweep_orphan_chunks(min_age);
}

template <Backend B>
std::size_t Maintenance<B>::sweep_guards() const {
  Table<B>& t = *table_;
  if (t.spec_.type_attribute.empty()) return 0;  // guards are told apart by their type
  const BodyFormat format = t.format_now();
  struct Found {
    std::string key;
    detail::GuardOwner owner;
  };
  std::vector<Found> guards;
  detail::ReadPlanBase plan;
  plan.filter = detail::type_is_condition(t.spec_, detail::unique_guard_type);
  // The scan's answer is read first, the owners after: no request runs inside another.
  t.scan_pages(detail::ReadShape{.consistent = true}, plan, /*all_pages=*/true,
               [&](const backend::ItemView& row) {
                 if (row.type != detail::unique_guard_type) return;
                 std::optional<detail::GuardOwner> owner =
                     detail::parse_guard(detail::item_text(row.live, row.body), format);
                 if (owner) guards.push_back({std::string(row.partition_key()), std::move(*owner)});
               });
  std::size_t removed = 0;
  for (const Found& guard : guards) {
    const std::int64_t now = backend::ttl_now(t.spec_);
    const detail::OwnerRead read = t.read_owner(guard.owner, now);
    // A member with a key-text function holds its guard with other texts too (another case of
    // an email), which only its entity's function can tell: such a guard is kept while its owner
    // holds any value of the member, and taken over, if need be, by a write of the entity.
    if (read.present && !read.expired && read.value &&
        (*read.value == guard.owner.value || guard.owner.key_text))
      continue;
    const backend::Condition owned = detail::guard_owned_by(guard.owner.pk, guard.owner.sk);
    const backend::Condition let_go = detail::owner_as_read(t.spec_, guard.owner, read, now);
    const std::array<backend::WriteRequest, 2> writes{
        backend::WriteRequest{backend::EraseRequest{{guard.key, guard.key}, &owned}},
        backend::WriteRequest{backend::CheckRequest{{guard.owner.pk, guard.owner.sk}, &let_go}}};
    try {
      t.backend_->transact(t.handle_, writes);
      ++removed;
    } catch (const TransactionCanceled&) {
      // Claimed meanwhile, or its owner holds the value again: it stays.
    }
  }
  return removed;
}

template <Backend B>
std::size_t Maintenance<B>::sweep_blobs(std::chrono::system_clock::duration grace) const {
  Table<B>& t = *table_;
  if (!t.spec_.blob_store) detail::throw_no_blob_store(t.spec_.name, "blobs", "sweep_blobs");
  BlobStore& store = *t.spec_.blob_store;
  const auto now = std::chrono::system_clock::now();
  std::size_t removed = 0;
  for (const BlobInfo& object : store.list(detail::blob_key_prefix(t.spec_.name))) {
    if (now - object.modified < grace) continue;
    const std::optional<BlobInfo> info = store.head(object.key);
    if (!info) continue;
    const BlobMetadata& item = info->metadata;
    if (!item.table.empty() && item.table != t.spec_.name) continue;  // a like-named table's
    bool referenced = false;
    if (!item.table.empty()) {
      t.backend_->get(
          t.handle_, backend::ItemKey{item.pk, item.sk}, [&](const backend::ItemView& row) {
            // Object keys end in a ULID: no other text of an item holds one.
            referenced =
                detail::item_text(row.live, row.body).find(object.key) != std::string_view::npos;
          });
    }
    if (!referenced) {
      store.remove(object.key);
      ++removed;
    }
  }
  return removed;
}

}  // namespace pksk

#ifdef PKSK_SEPARATE_COMPILATION
// Maintenance<AnyBackend>'s own members are compiled once, by <pksk/src.hpp>.
extern template class pksk::Maintenance<pksk::AnyBackend>;
#endif
