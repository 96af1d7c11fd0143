// SPDX-License-Identifier: BSL-1.0
#pragma once
// Table's members that are not templates of their own: construction, the index handle and the
// page loops. Defined out of the class, so not inline: with PKSK_SEPARATE_COMPILATION the
// library's backends get them compiled once, in <pksk/src.hpp>'s translation unit (the extern
// template declarations in <pksk/sqlite.hpp>, <pksk/dynamodb.hpp> and <pksk/backend.hpp>),
// and any other backend where its Table is used. Included at the end of table.hpp.

#include <algorithm>
#include <array>
#include <chrono>
#include <iterator>
#include <map>
#include <optional>
#include <span>
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

// ---- chunked items: the protocol (detail/chunks.hpp)

template <Backend B>
void Table<B>::write_chunked(std::string_view pk, std::string_view sk, std::string_view type,
                             std::string_view body, std::size_t size, bool beside) {
  const BodyFormat format = format_now();
  // The item replaced, when it was a head: its chunks are removed once it is replaced.
  std::optional<detail::ChunkHead> replaced;
  const auto keep_replaced = [&](const backend::ItemView& row) {
    const std::string_view text = detail::item_text(row.live, row.body);
    if (detail::is_chunk_head(text)) replaced = detail::parse_chunk_head(text, format);
  };
  const backend::ItemVisitor replaced_visitor(keep_replaced);
  if (size <= max_item_bytes) {
    backend_->put(handle_, backend::PutRequest{backend::ItemView{pk, sk, type, body, size}, nullptr,
                                               backend::WriteReturns{&replaced_visitor, false}});
    if (replaced) remove_chunks(pk, *replaced);
    return;
  }
  if (spec_.type_attribute.empty()) detail::throw_chunked_without_type(spec_.name, type, pk, sk);
  const std::optional<detail::ChunkHead> old = read_head(pk, sk);
  const std::vector<std::string_view> pieces = detail::split_body(body);
  const detail::ChunkHead head{ulid(), pieces.size(), body.size(), beside};
  // A failure here leaves the chunks written so far to Maintenance::sweep_chunks: the item still holds
  // the version it held.
  write_chunks(pk, sk, head, pieces);
  if (detail::chunk_write_hook) detail::chunk_write_hook(detail::ChunkWriteStage::chunks_written);
  std::string head_body;
  const std::size_t head_size =
      detail::chunk_head_body(spec_, pk, sk, type, head, format, head_body);
  const backend::Condition condition = detail::chunk_head_condition(old);
  try {
    backend_->put(handle_,
                  backend::PutRequest{backend::ItemView{pk, sk, type, head_body, head_size},
                                      &condition, backend::WriteReturns{&replaced_visitor, false}});
  } catch (const ConditionFailed&) {
    remove_chunks(pk, head);  // another write came first: this version is never named
    throw;
  }
  if (detail::chunk_write_hook) detail::chunk_write_hook(detail::ChunkWriteStage::head_written);
  if (replaced) remove_chunks(pk, *replaced);
}

template <Backend B>
bool Table<B>::erase_with_chunks(std::string_view pk, std::string_view sk) {
  const BodyFormat format = format_now();
  std::optional<detail::ChunkHead> removed;
  const auto keep_removed = [&](const backend::ItemView& row) {
    const std::string_view text = detail::item_text(row.live, row.body);
    if (detail::is_chunk_head(text)) removed = detail::parse_chunk_head(text, format);
  };
  const backend::ItemVisitor removed_visitor(keep_removed);
  const bool erased = backend_->erase(
      handle_, backend::EraseRequest{backend::ItemKey{pk, sk}, nullptr,
                                     backend::WriteReturns{&removed_visitor, false}});
  if (removed) remove_chunks(pk, *removed);
  return erased;
}

template <Backend B>
std::optional<detail::ChunkHead> Table<B>::read_head(std::string_view pk, std::string_view sk) {
  std::optional<detail::ChunkHead> head;
  backend_->get(handle_, backend::ItemKey{pk, sk}, [&](const backend::ItemView& row) {
    const std::string_view text = detail::item_text(row.live, row.body);
    if (detail::is_chunk_head(text)) head = detail::parse_chunk_head(text, format_now());
  });
  return head;
}

template <Backend B>
std::optional<std::string> Table<B>::read_chunks(const detail::PendingHead& pending) {
  detail::ChunkHead head = pending.head;
  for (int attempt = 0;; ++attempt) {
    std::size_t missing = 0;
    if (std::optional<std::string> body = fetch_chunks(pending.pk, head, missing)) return body;
    // A chunk is gone: the item was replaced (its old chunks removed) while it was read, or
    // removed. Its key is read again, and whatever it holds now is read whole.
    bool found = false;
    std::optional<std::string> plain;
    std::optional<detail::ChunkHead> again;
    backend_->get(handle_, backend::ItemKey{pending.pk, pending.sk},
                  [&](const backend::ItemView& row) {
                    found = true;
                    const std::string_view text = detail::item_text(row.live, row.body);
                    if (detail::is_chunk_head(text)) {
                      again = detail::parse_chunk_head(text, format_now());
                    } else {
                      plain.emplace(text);
                    }
                  });
    if (!found) return std::nullopt;
    if (plain) return plain;
    if (again->version == head.version || attempt == 2) {
      detail::throw_chunk_missing(spec_.name, pending.type, pending.pk, pending.sk, head, missing);
    }
    head = std::move(*again);
  }
}

template <Backend B>
std::optional<std::string> Table<B>::fetch_chunks(std::string_view pk,
                                                  const detail::ChunkHead& head,
                                                  std::size_t& missing) {
  // 40 chunks of 350 KB stay under the 16 MB a DynamoDB BatchGetItem answers at once.
  constexpr std::size_t group_size = 40;
  const BodyFormat format = format_now();
  std::vector<std::optional<std::string>> pieces(head.count);
  std::vector<detail::ChunkKey> keys;
  for (std::size_t seq = 0; seq < head.count; ++seq)
    keys.push_back(detail::chunk_key(pk, head, seq));
  for (std::size_t start = 0; start < keys.size(); start += group_size) {
    const std::size_t n = std::min(group_size, keys.size() - start);
    std::vector<backend::ItemKey> group;
    for (std::size_t i = 0; i < n; ++i) group.push_back({keys[start + i].pk, keys[start + i].sk});
    std::vector<std::size_t> pending(n);
    for (std::size_t i = 0; i < n; ++i) pending[i] = i;
    detail::retry_unprocessed(
        retry_, spec_.name, "read chunks", pending,
        [&](std::span<const std::size_t> indexes, std::vector<std::size_t>& unprocessed) {
          std::vector<backend::ItemKey> asked;
          for (std::size_t i : indexes) asked.push_back(group[i]);
          backend_->batch_get(
              handle_, asked,
              [&](std::size_t at, const backend::ItemView& row) {
                detail::ChunkContent chunk =
                    detail::parse_chunk(detail::item_text(row.live, row.body), format);
                if (chunk.version == head.version)
                  pieces[start + indexes[at]] = std::move(chunk.data);
              },
              unprocessed);
          for (std::size_t& u : unprocessed) u = indexes[u];
        });
  }
  std::string body;
  body.reserve(head.bytes);
  for (std::size_t seq = 0; seq < head.count; ++seq) {
    if (!pieces[seq]) {
      missing = seq;
      return std::nullopt;
    }
    body += *pieces[seq];
  }
  if (body.size() != head.bytes) {
    throw DecodeError("pksk table " + detail::quoted(spec_.name) + ": the chunks of" +
                      detail::key_text(backend::ItemKey{pk, {}}) + " version " +
                      detail::quoted(head.version) + " hold " + std::to_string(body.size()) +
                      " bytes where its head names " + std::to_string(head.bytes));
  }
  return body;
}

template <Backend B>
void Table<B>::write_chunks(std::string_view pk, std::string_view sk, const detail::ChunkHead& head,
                            std::span<const std::string_view> pieces) {
  const BodyFormat format = format_now();
  // A batch write of 25 chunks of 350 KB (base64 on DynamoDB) stays under its 16 MB request.
  for (std::size_t start = 0; start < head.count; start += backend::max_batch_write_items) {
    const std::size_t n = std::min(backend::max_batch_write_items, head.count - start);
    std::vector<detail::ChunkKey> keys;
    std::vector<std::string> bodies(n);
    std::vector<backend::WriteRequest> writes;
    for (std::size_t i = 0; i < n; ++i) keys.push_back(detail::chunk_key(pk, head, start + i));
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t size = detail::chunk_body(spec_, keys[i], pk, sk, head.version,
                                                  pieces[start + i], format, bodies[i]);
      writes.emplace_back(backend::PutRequest{
          backend::ItemView{keys[i].pk, keys[i].sk, detail::chunk_type, bodies[i], size}, nullptr});
    }
    write_chunk_batch(writes, "put chunks");
    if (detail::chunk_write_hook) detail::chunk_write_hook(detail::ChunkWriteStage::chunk_written);
  }
}

template <Backend B>
void Table<B>::remove_chunks(std::string_view pk, const detail::ChunkHead& head) {
  std::vector<detail::ChunkKey> keys;
  for (std::size_t seq = 0; seq < head.count; ++seq)
    keys.push_back(detail::chunk_key(pk, head, seq));
  remove_chunks(std::move(keys));
}

template <Backend B>
void Table<B>::remove_chunks(std::vector<detail::ChunkKey> keys) {
  for (std::size_t start = 0; start < keys.size(); start += backend::max_batch_write_items) {
    const std::size_t n = std::min(backend::max_batch_write_items, keys.size() - start);
    std::vector<backend::WriteRequest> writes;
    for (std::size_t i = 0; i < n; ++i) {
      writes.emplace_back(
          backend::EraseRequest{backend::ItemKey{keys[start + i].pk, keys[start + i].sk}, nullptr});
    }
    write_chunk_batch(writes, "remove chunks");
  }
}

template <Backend B>
void Table<B>::write_chunk_batch(std::span<const backend::WriteRequest> writes,
                                 std::string_view operation) {
  std::vector<std::size_t> all(writes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  detail::retry_unprocessed(
      retry_, spec_.name, operation, std::move(all),
      [&](std::span<const std::size_t> indexes, std::vector<std::size_t>& unprocessed) {
        std::vector<backend::WriteRequest> sent;
        for (std::size_t i : indexes) sent.push_back(writes[i]);
        backend_->batch_write(handle_, sent, unprocessed);
        for (std::size_t& u : unprocessed) u = indexes[u];
      });
}

template <Backend B>
std::size_t Table<B>::sweep_orphan_chunks(std::chrono::milliseconds min_age) {
  if (spec_.type_attribute.empty()) return 0;  // no chunked item is written there
  const BodyFormat format = format_now();
  struct Found {
    detail::ChunkKey key;
    detail::ChunkContent content;
  };
  std::vector<Found> chunks;
  detail::ReadPlanBase plan;
  plan.filter = detail::type_is_condition(spec_, detail::chunk_type);
  static constexpr std::array<std::string_view, 4> names{"pksk:parent_pk", "pksk:parent_sk",
                                                         "pksk:version", "pksk:written"};
  plan.projection.assign(names.begin(), names.end());
  // The scan's answer is read first, the parents after: no request runs inside another.
  scan_pages(
      detail::ReadShape{.consistent = true}, plan, /*all_pages=*/true,
      [&](const backend::ItemView& row) {
        if (row.type != detail::chunk_type) return;
        chunks.push_back({{std::string(row.partition_key()), std::string(row.sort_key())},
                          detail::parse_chunk(detail::item_text(row.live, row.body), format)});
      });
  const auto now = std::chrono::system_clock::now();
  // Each parent's current version (none: the parent is gone), read once however many chunks
  // it has: a large item has hundreds.
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> parents;
  std::vector<detail::ChunkKey> dead;
  for (Found& chunk : chunks) {
    if (now - chunk.content.written < min_age) continue;
    auto [known, first] = parents.try_emplace(
        std::make_pair(chunk.content.parent_pk, chunk.content.parent_sk), std::nullopt);
    if (first) {
      std::optional<detail::ChunkHead> head = read_head(known->first.first, known->first.second);
      if (head) known->second = std::move(head->version);
    }
    if (known->second == chunk.content.version) continue;
    dead.push_back(std::move(chunk.key));
  }
  const std::size_t removed = dead.size();
  remove_chunks(std::move(dead));
  return removed;
}

}  // namespace pksk

#ifdef PKSK_SEPARATE_COMPILATION
// Table<AnyBackend>'s own members are compiled once, by <pksk/src.hpp>.
extern template class pksk::Table<pksk::AnyBackend>;
#endif
