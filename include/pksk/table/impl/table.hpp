// SPDX-License-Identifier: BSL-1.0
#pragma once
// Table's members that are not templates of their own: construction, the index handle and the
// page loops. Defined out of the class, so not inline: with PKSK_SEPARATE_COMPILATION the
// library's backends get them compiled once, in <pksk/src.hpp>'s translation unit (the extern
// template declarations in <pksk/sqlite.hpp>, <pksk/dynamodb.hpp> and <pksk/backend.hpp>),
// and any other backend where its Table is used. Included at the end of table.hpp.

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../backend/any_backend.hpp"
#include "../table.hpp"

namespace pksk {

namespace detail {

// One page of a read that reads them all: the items it evaluated, and whether another follows
// (its start then set by the page's reader).
struct PageRead {
  std::size_t evaluated = 0;
  bool more = false;
};

// The loop a query and a scan that read every page share: page after page until the last, or
// until `limit` items (0: no limit) have been evaluated in all, each page asked for no more
// than what is left (`limit` is the request's, rewritten). No cursor is made: nobody reads it.
template <class ReadPage>
void read_every_page(std::size_t& limit, ReadPage&& read_page) {
  const std::size_t total = limit;
  std::size_t remaining = total;
  for (;;) {
    const PageRead page = read_page();
    if (total != 0) {
      remaining -= page.evaluated;
      if (remaining == 0) return;
      limit = remaining;
    }
    if (!page.more) return;
  }
}

}  // namespace detail

template <Backend B>
Table<B>::Table(B& backend, std::string name, TableOptions options, BatchRetry retry)
    : backend_(&backend),
      spec_(backend::TableSpec(std::move(name), std::move(options))),
      handle_(open(backend, spec_)),
      retry_(std::move(retry)) {}

template <Backend B>
typename B::TableHandle Table<B>::open(B& backend, const backend::TableSpec& spec) {
  std::vector<std::string_view> names{spec.pk_attribute, spec.sk_attribute, spec.type_attribute};
  for (const TableIndex& index : spec.indexes) {
    if ((index.projection == IndexProjection::include) == index.include.empty()) {
      throw ValidationError(
          "pksk table " + detail::quoted(spec.name) + ": index " + detail::quoted(index.name) +
          (index.include.empty() ? " projects IndexProjection::include with no attribute to include"
                                 : " names attributes to include without "
                                   "IndexProjection::include"));
    }
    // Two indexes may share both key attributes (a KEYS_ONLY index beside an ALL one, say):
    // the same keys, projected differently. Any other sharing is refused.
    if (spec.repeats_index_keys(static_cast<std::size_t>(&index - spec.indexes.data()))) continue;
    for (const std::string* name : {&index.pk_attribute, &index.sk_attribute}) {
      if (std::find(names.begin(), names.end(), *name) != names.end()) {
        throw ValidationError("pksk table " + detail::quoted(spec.name) + ": index " +
                              detail::quoted(index.name) + " names its key attribute " +
                              detail::quoted(*name) + ", which another key attribute has");
      }
      names.push_back(*name);
    }
  }
  // cursor_key is a secret of the Table's: a backend, which keeps its specs, never sees it.
  if (spec.cursor_key.empty()) return backend.open_table(spec);
  backend::TableSpec shown = spec;
  shown.cursor_key.clear();
  return backend.open_table(shown);
}

template <Backend B>
IndexRef<B> Table<B>::index(std::string_view index_name) {
  const TableIndex* index = spec_.find_index(index_name);
  if (index == nullptr) {
    throw ValidationError("pksk table " + detail::quoted(spec_.name) + ": no index " +
                          detail::quoted(index_name) + " (TableOptions::indexes)");
  }
  return IndexRef<B>(*this, *index);
}

template <Backend B>
std::optional<Cursor> Table<B>::query_pages(const PartitionKey& pk, const detail::ReadShape& shape,
                                            const KeyCondition* condition,
                                            const detail::ReadPlanBase& plan, bool all_pages,
                                            const TableIndex* index, backend::ItemVisitor visit,
                                            std::size_t* count) {
  if (shape.segment != 0 || shape.segments != 0) {
    throw ValidationError("pksk table " + detail::quoted(spec_.name) +
                          ": segment and segments are for scans, not queries");
  }
  // Reading every page, the query ends at the limit: no cursor is needed there.
  backend::RawQuery raw{.pk = pk.value,
                        .sk = condition,
                        .forward = shape.forward,
                        .limit = shape.limit,
                        .last_key_at_limit = !all_pages,
                        .filter = plan.filter_ptr(),
                        .projection = plan.projection,
                        .index = index ? std::string_view(index->name) : std::string_view(),
                        .consistent = shape.consistent,
                        .count_only = count != nullptr};
  if (shape.start) {
    cursors().check(*shape.start, pk, condition, index);
    raw.exclusive_start_sk = shape.start->sk;
    if (index)
      raw.exclusive_start_item = backend::ItemKey{shape.start->item_pk, shape.start->item_sk};
  }
  if (!all_pages) {
    spec_.count_query_page(pk.value, index);
    backend::QueryOutcome outcome = backend_->query(handle_, raw, visit);
    if (count != nullptr) *count += outcome.count.value_or(0);
    if (!outcome.last_evaluated_sk) return std::nullopt;
    if (!index) return cursors().make({}, pk.value, std::move(*outcome.last_evaluated_sk));
    return cursors().make(index->name, pk.value, std::move(*outcome.last_evaluated_sk),
                          std::move(outcome.last_evaluated_item_pk).value_or(std::string()),
                          std::move(outcome.last_evaluated_item_sk).value_or(std::string()));
  }
  std::string resume_after, resume_pk, resume_sk;
  detail::read_every_page(raw.limit, [&] {
    spec_.count_query_page(pk.value, index);
    backend::QueryOutcome outcome = backend_->query(handle_, raw, visit);
    if (count != nullptr) *count += outcome.count.value_or(0);
    if (!outcome.last_evaluated_sk) return detail::PageRead{outcome.evaluated, false};
    resume_after = std::move(*outcome.last_evaluated_sk);
    raw.exclusive_start_sk = resume_after;
    if (index) {
      resume_pk = std::move(outcome.last_evaluated_item_pk).value_or(std::string());
      resume_sk = std::move(outcome.last_evaluated_item_sk).value_or(std::string());
      raw.exclusive_start_item = backend::ItemKey{resume_pk, resume_sk};
    }
    return detail::PageRead{outcome.evaluated, true};
  });
  return std::nullopt;
}

template <Backend B>
void Table<B>::transact_get_keys(std::span<const backend::ItemKey> keys,
                                 backend::IndexedItemVisitor visit)
  requires TransactGetBackend<B>
{
  detail::check_transact_get_keys(spec_.name, keys);
  backend_->transact_get(handle_, keys, visit);
}

template <Backend B>
void Table<B>::check_scan(const detail::ReadShape& shape) const {
  const auto refuse = [&](std::string_view why) {
    throw ValidationError("pksk table " + detail::quoted(spec_.name) +
                          ", scan: " + std::string(why));
  };
  if (shape.has_sk) refuse("a scan has no key condition (.sk); use a filter");
  if (!shape.forward) refuse("a scan has no direction (.forward)");
  // DynamoDB's TotalSegments is 1 to 1,000,000, Segment below it.
  if (shape.segments > 1000000) refuse("segments is at most 1000000");
  if (shape.segments == 0 ? shape.segment != 0 : shape.segment >= shape.segments) {
    refuse("segment " + std::to_string(shape.segment) + " is not below segments " +
           std::to_string(shape.segments));
  }
  if (shape.start) {
    cursors().check_origin(*shape.start);
    if (!shape.start->index.empty())
      refuse("the cursor belongs to index " + detail::quoted(shape.start->index));
  }
}

template <Backend B>
std::optional<Cursor> Table<B>::scan_pages(const detail::ReadShape& shape,
                                           const detail::ReadPlanBase& plan, bool all_pages,
                                           backend::ItemVisitor visit) {
  backend::RawScan raw{.segment = shape.segment,
                       .segments = shape.segments,
                       .limit = shape.limit,
                       .last_key_at_limit = !all_pages,
                       .filter = plan.filter_ptr(),
                       .projection = plan.projection,
                       .consistent = shape.consistent};
  if (shape.start) raw.exclusive_start = backend::ItemKey{shape.start->pk, shape.start->sk};
  // Counted, a page is a read of each partition it holds items of (a scan hands a partition's
  // items one after another, so a partition is counted when the page reaches it).
  std::string page_pk;
  bool page_started = false;
  const backend::ItemVisitor uncounted = visit;
  const auto counting = [&](const backend::ItemView& row) {
    if (!page_started || row.partition_key() != page_pk) {
      page_started = true;
      page_pk.assign(row.partition_key());
      spec_.count_read(page_pk);
    }
    uncounted(row);
  };
  if (spec_.access) visit = backend::ItemVisitor(counting);
  const auto next_page = [&] { page_started = false; };
  if (!all_pages) {
    backend::ScanOutcome outcome = backend_->scan(handle_, raw, visit);
    if (!outcome.last_evaluated_pk) return std::nullopt;
    return cursors().make({}, std::move(*outcome.last_evaluated_pk),
                          std::move(*outcome.last_evaluated_sk));
  }
  std::string resume_pk, resume_sk;
  detail::read_every_page(raw.limit, [&] {
    next_page();
    backend::ScanOutcome outcome = backend_->scan(handle_, raw, visit);
    if (!outcome.last_evaluated_pk) return detail::PageRead{outcome.evaluated, false};
    resume_pk = std::move(*outcome.last_evaluated_pk);
    resume_sk = std::move(*outcome.last_evaluated_sk);
    raw.exclusive_start = backend::ItemKey{resume_pk, resume_sk};
    return detail::PageRead{outcome.evaluated, true};
  });
  return std::nullopt;
}

}  // namespace pksk

#ifdef PKSK_SEPARATE_COMPILATION
// Table<AnyBackend>'s own members are compiled once, by <pksk/src.hpp>.
extern template class pksk::Table<pksk::AnyBackend>;
#endif
