// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reads: get, batch_get and transact_get, one row by key; query and scan, one page at a time with
// DynamoDB's paging (a limit, a byte budget, the cursor of the page's last item), on the table or
// on an index, each item handed to the visitor as views into SQLite's row.

#include "backend_impl.ipp"
#include "statements.ipp"  // prepared(), a template

namespace pksk::sqlite {

inline bool Backend::Impl::get(TableHandle table, backend::ItemKey key,
                               backend::ItemVisitor visit) {
  Call k = enter(table);
  check_key(k.t, "get", key);
  return read_item(k, key, "get", visit);
}

inline void Backend::Impl::batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                                     backend::IndexedItemVisitor visit,
                                     std::vector<std::size_t>& unprocessed) {
  Call k = enter(table);
  unprocessed.clear();
  for (const backend::ItemKey& key : keys) check_key(k.t, "batch get", key);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    read_item(k, keys[i], "batch get", [&](const backend::ItemView& item) { visit(i, item); });
  }
}

inline void Backend::Impl::transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                                        backend::IndexedItemVisitor visit) {
  Call k = enter(table);
  for (const backend::ItemKey& key : keys) check_key(k.t, "transact_get", key);
  detail::ReadTransaction transaction(k.c, k.t.name, "transact_get");
  for (std::size_t i = 0; i < keys.size(); ++i) {
    read_item(k, keys[i], "transact_get", [&](const backend::ItemView& item) { visit(i, item); });
  }
  transaction.end();
}

inline backend::QueryOutcome Backend::Impl::query(TableHandle table, const backend::RawQuery& query,
                                                  backend::ItemVisitor visit) {
  using Op = KeyCondition::Op;
  if (query.count_only) {
    // The page read as any other, the visitor counting what passes the filter: no body is
    // looked at but by the filter.
    backend::RawQuery items = query;
    items.count_only = false;
    std::size_t matched = 0;
    backend::QueryOutcome outcome =
        this->query(table, items, [&](const backend::ItemView&) { ++matched; });
    outcome.count = matched;
    return outcome;
  }
  Call k = enter(table);

  const TableIndex* index = nullptr;
  if (!query.index.empty()) {
    index = k.t.spec.find_index(query.index);
    if (index == nullptr) {
      throw ValidationError(detail::context(k.t.name, "query") + "no index " +
                            pksk::detail::quoted(query.index) + " (TableOptions::indexes)");
    }
    // Always consistent here, but refused as DynamoDB refuses it: a global secondary index is
    // only ever eventually consistent.
    if (query.consistent) {
      throw ValidationError(
          detail::context(k.t.name, "query on index " + pksk::detail::quoted(query.index)) +
          "consistent reads are not supported on global secondary indexes");
    }
    if (query.filter != nullptr && index->projection != IndexProjection::all)
      check_projected(k.t, *index, *query.filter);
  }
  check_query_key(k.t, query);
  const KeyCondition* cond = query.sk;
  detail::RangeShape shape = detail::RangeShape::any;
  std::optional<std::string> prefix_end;
  if (cond != nullptr) {
    switch (cond->op) {
      case Op::any:
        shape = detail::RangeShape::any;
        break;
      case Op::eq:
        shape = detail::RangeShape::eq;
        break;
      case Op::lt:
        shape = detail::RangeShape::lt;
        break;
      case Op::le:
        shape = detail::RangeShape::le;
        break;
      case Op::gt:
        shape = detail::RangeShape::gt;
        break;
      case Op::ge:
        shape = detail::RangeShape::ge;
        break;
      case Op::between:
        // DynamoDB rejects an empty range with a ValidationException rather than returning
        // nothing; so must code that is developed here.
        // (A table's number sort key has its bounds compared as numbers by check_query_key;
        // an index's sort key is a string whatever the table's.)
        if ((k.t.spec.sk_type == KeyType::string || index != nullptr) &&
            std::string_view(cond->first) > std::string_view(cond->second)) {
          throw ValidationError(detail::context(k.t.name, "query") + "between(" +
                                pksk::detail::quoted(cond->first) + ", " +
                                pksk::detail::quoted(cond->second) +
                                ") has a lower bound greater than its upper bound");
        }
        shape = detail::RangeShape::between;
        break;
      case Op::begins_with:
        prefix_end = detail::prefix_successor(cond->first);
        shape =
            prefix_end ? detail::RangeShape::prefix_bounded : detail::RangeShape::prefix_unbounded;
        break;
    }
  }
  const bool has_start =
      query.exclusive_start_sk.has_value() && (index == nullptr || query.exclusive_start_item);
  if (index != nullptr && query.exclusive_start_sk.has_value() != has_start) {
    throw ValidationError(
        detail::context(k.t.name, "query on index " + pksk::detail::quoted(index->name)) +
        "an exclusive start needs the index key and the table key");
  }
  // ?1 to ?3, which every statement of the query's shape takes.
  const auto bind_range = [&](sqlite3_stmt* s) {
    bind(k, s, 1, query.pk, "query", query.pk, {});
    if (shape != detail::RangeShape::any) bind(k, s, 2, cond->first, "query", query.pk, {});
    if (shape == detail::RangeShape::between) bind(k, s, 3, cond->second, "query", query.pk, {});
    if (shape == detail::RangeShape::prefix_bounded) {
      bind(k, s, 3, *prefix_end, "query", query.pk, {});
    }
  };
  // An expired item not yet swept is rejected as a filter rejects it: after it has counted.
  backend::Condition ttl_filter;
  const backend::Condition* wanted = query.filter;
  if (backend::has_ttl(k.t.spec)) {
    wanted = backend::with_unexpired(k.t.spec, wanted, backend::ttl_now(k.t.spec), ttl_filter);
  }
  std::optional<detail::RowFilter> filter;
  if (wanted != nullptr) filter.emplace(*wanted, k.t.spec);
  detail::RowFilter* row_filter = filter ? &*filter : nullptr;

  if (index == nullptr) {
    detail::CachedStatement& cached = query_statement(k, shape, query.forward, has_start, false);
    detail::StatementUse use(cached.stmt.get(), cached.in_use, k.t.name, "query");
    bind_range(use.get());
    if (has_start) bind(k, use.get(), 4, *query.exclusive_start_sk, "query", query.pk, {});
    // The rare page that could reach its byte budget: what it has read so far is summed, and
    // it goes on with the sized statement after `from` (a copy: the unsized row's text is
    // SQLite's until the statement is reset).
    std::string from;
    std::optional<detail::StatementUse> sized_use;
    const auto read_size = [&](std::string_view through) -> std::size_t {
      detail::CachedStatement& sum = read_size_statement(k, shape, query.forward, has_start);
      detail::StatementUse sum_use(sum.stmt.get(), sum.in_use, k.t.name, "query");
      bind_range(sum_use.get());
      if (has_start) bind(k, sum_use.get(), 4, *query.exclusive_start_sk, "query", query.pk, {});
      bind(k, sum_use.get(), 5, through, "query", query.pk, {});
      const int rc = sqlite3_step(sum_use.get());
      if (rc != SQLITE_ROW) {
        detail::throw_failure(k.db(), rc, k.t.name, key_operation("query", query.pk, {}));
      }
      return static_cast<std::size_t>(sqlite3_column_int64(sum_use.get(), 0));
    };
    const auto sized_after = [&](std::string_view start) -> sqlite3_stmt* {
      from.assign(start);
      detail::CachedStatement& sized = query_statement(k, shape, query.forward, true, true);
      sized_use.emplace(sized.stmt.get(), sized.in_use, k.t.name, "query");
      bind_range(sized_use->get());
      bind(k, sized_use->get(), 4, from, "query", query.pk, {});
      return sized_use->get();
    };
    return read_table_page(k, use.get(), query, row_filter, visit, read_size, sized_after);
  }

  detail::CachedStatement& cached =
      index_query_statement(k, *index, detail::query_variant(shape, query.forward, has_start),
                            shape, query.forward, has_start);
  detail::StatementUse use(cached.stmt.get(), cached.in_use, k.t.name, "query");
  sqlite3_stmt* s = use.get();
  bind_range(s);
  if (has_start && shape != detail::RangeShape::eq) {
    bind(k, s, 4, *query.exclusive_start_sk, "query", query.pk, {});
  }
  if (has_start) {
    bind(k, s, 5, query.exclusive_start_item->pk, "query", query.pk, {});
    bind(k, s, 6, query.exclusive_start_item->sk, "query", query.pk, {});
  }
  return read_index_page(k, *index, s, query, row_filter, visit);
}

inline backend::ScanOutcome Backend::Impl::scan(TableHandle table, const backend::RawScan& scan,
                                                backend::ItemVisitor visit) {
  Call k = enter(table);
  const detail::TableState& t = k.t;
  const std::size_t segments = scan.segments == 0 ? 1 : scan.segments;
  if (scan.segment >= segments) {
    throw ValidationError(detail::context(t.name, "scan") + "segment " +
                          std::to_string(scan.segment) + " of " + std::to_string(segments));
  }
  if (scan.exclusive_start && segments > 1 &&
      detail::segment_of(scan.exclusive_start->pk, segments) != scan.segment) {
    throw ValidationError(detail::context(t.name, "scan") + "the start key is not in segment " +
                          std::to_string(scan.segment));
  }
  const bool has_start = scan.exclusive_start.has_value();
  detail::CachedStatement& cached = prepared(k, k.st.scans[has_start ? 1 : 0], [&] {
    return StatementText{detail::scan_sql(t.spec, has_start), "scan (preparing it)"};
  });
  detail::StatementUse use(cached.stmt.get(), cached.in_use, t.name, "scan");
  sqlite3_stmt* s = use.get();
  if (has_start) {
    bind(k, s, 1, scan.exclusive_start->pk, "scan", scan.exclusive_start->pk, {});
    bind(k, s, 2, scan.exclusive_start->sk, "scan", scan.exclusive_start->pk, {});
  }
  backend::Condition ttl_filter;
  const backend::Condition* wanted = scan.filter;
  if (backend::has_ttl(t.spec)) {
    wanted = backend::with_unexpired(t.spec, wanted, backend::ttl_now(t.spec), ttl_filter);
  }
  std::optional<detail::RowFilter> filter;
  if (wanted != nullptr) filter.emplace(*wanted, t.spec);

  backend::ScanOutcome outcome;
  std::size_t bytes = 0;
  for (bool first = true;; first = false) {
    const int rc = first ? k.c.step_first(s) : sqlite3_step(s);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) detail::throw_failure(k.db(), rc, t.name, "scan");
    const std::string_view pk = detail::column_view(s, 0);
    if (segments > 1 && detail::segment_of(pk, segments) != scan.segment) continue;
    const backend::ItemView item{pk, detail::column_view(s, 1), detail::column_view(s, 2),
                                 detail::column_view(s, 3),
                                 static_cast<std::size_t>(sqlite3_column_int64(s, 4))};
    ++outcome.evaluated;
    bytes += item.size;
    if (!filter || (*filter)(item)) visit(item);
    const bool at_limit = scan.limit != 0 && outcome.evaluated >= scan.limit;
    if (at_limit || bytes >= scan.page_bytes) {
      if (scan.last_key_at_limit || bytes >= scan.page_bytes) {
        outcome.last_evaluated_pk.emplace(item.pk);
        outcome.last_evaluated_sk.emplace(item.sk);
      }
      break;
    }
  }
  return outcome;
}

inline bool Backend::Impl::read_item(Call& k, backend::ItemKey key, std::string_view operation,
                                     backend::ItemVisitor visit, bool expired) {
  detail::StatementUse use(statement(k, k.st.get, &detail::get_sql, "get"), k.st.get.in_use,
                           k.t.name, operation);
  sqlite3_stmt* s = use.get();
  bind(k, s, 1, key.pk, operation, key.pk, key.sk);
  bind(k, s, 2, key.sk, operation, key.pk, key.sk);
  const int rc = sqlite3_get_autocommit(k.db()) != 0 ? k.c.step_first(s) : sqlite3_step(s);
  if (rc == SQLITE_DONE) return false;
  if (rc != SQLITE_ROW)
    detail::throw_failure(k.db(), rc, k.t.name, key_operation(operation, key.pk, key.sk));
  const backend::ItemView item{key.pk, key.sk, detail::column_view(s, 0), detail::column_view(s, 1),
                               static_cast<std::size_t>(sqlite3_column_int64(s, 2))};
  if (!expired && backend::has_ttl(k.t.spec)) {
    // Expired and not yet swept: absent to reads, as DynamoDB's reads treat it here. A write's
    // conditions and actions see it (DynamoDB's do: the item is there until it is deleted).
    const backend::Condition keep = backend::unexpired(k.t.spec, backend::ttl_now(k.t.spec));
    if (!detail::RowFilter(keep, k.t.spec)(item)) return false;
  }
  visit(item);
  return true;
}

inline detail::CachedStatement& Backend::Impl::query_statement(Call& k, detail::RangeShape shape,
                                                               bool forward, bool has_start,
                                                               bool sized) {
  return prepared(k, k.st.queries[detail::query_variant(shape, forward, has_start, sized)], [&] {
    return StatementText{detail::query_sql(k.t.spec, shape, forward, has_start, sized),
                         "query (preparing it)"};
  });
}

inline detail::CachedStatement& Backend::Impl::read_size_statement(Call& k,
                                                                   detail::RangeShape shape,
                                                                   bool forward, bool has_start) {
  return prepared(k, k.st.read_sizes[detail::query_variant(shape, forward, has_start, false)], [&] {
    return StatementText{detail::read_size_sql(k.t.spec, shape, forward, has_start),
                         "query (preparing its size sum)"};
  });
}

// The rows of a table query's page, with DynamoDB's paging; the statement selects (sk, type,
// body), the pk being the caller's. The page is stepped through first, each row copied into
// the thread's RowArena, and handed over after (detail/row_arena.hpp says why); a filter
// reads the row where the statement holds it, so a row's sort key is read there only when the
// filter asks or the row is kept. Each column read is an SQLite call, and the size column is
// needed only by a page that reaches its byte budget. So each row adds an upper bound of its
// size (DynamoDB's measure of a JSON body is at most twice its length: a one-digit number in
// a list, "[0]", is the worst; a sort key is at most 1,024 bytes), and while that sum stays
// under the budget the page cannot have reached it. Once the bound reaches it, SQLite sums
// the exact sizes of the rows read, this one included, and the page goes on with the
// statement that selects the size column.
template <class ReadSize, class SizedAfter>
inline backend::QueryOutcome Backend::Impl::read_table_page(
    Call& k, sqlite3_stmt* s, const backend::RawQuery& query, detail::RowFilter* filter,
    backend::ItemVisitor visit, ReadSize& read_size, SizedAfter& sized_after) {
  backend::QueryOutcome outcome;
  std::size_t bytes = 0;
  bool sized = false;
  const std::size_t key_bytes = k.t.spec.pk_attribute.size() + k.t.spec.sk_attribute.size() +
                                k.t.spec.type_attribute.size() + query.pk.size() +
                                max_sort_key_size;
  backend::ItemView item{.pk = query.pk, .read_sk = detail::key_column<0>, .key_source = s};
  // The page is stepped through first and its rows handed over after (row_arena.hpp), unless
  // the thread's arena is in use by a read this one runs inside.
  const pksk::detail::RowArena::Lease lease;
  pksk::detail::RowArena* const rows = lease.get();
  for (bool first = true;; first = false) {
    const int rc = first ? k.c.step_first(s) : sqlite3_step(s);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW)
      detail::throw_failure(k.db(), rc, k.t.name, key_operation("query", query.pk, {}));
    item.type = detail::column_view(s, 1);
    item.body = detail::column_view(s, 2);
    item.key_source = s;
    if (sized) {
      item.size = static_cast<std::size_t>(sqlite3_column_int64(s, 3));
      bytes += item.size;
    } else {
      bytes += key_bytes + item.type.size() + 2 * item.body.size();
      if (bytes >= query.page_bytes) {
        // The row in hand stays the unsized statement's, which does not step again: the
        // item reads its sort key there, and the next rows are the sized statement's.
        const std::string_view sk = item.sort_key();
        bytes = read_size(sk);
        s = sized_after(sk);
        sized = true;
      }
    }
    ++outcome.evaluated;
    // The filter comes after the item has counted, as DynamoDB's does.
    if (filter == nullptr || (*filter)(item)) {
      if (rows != nullptr) {
        rows->add(item.type, item.sort_key(), item.body, item.size);
      } else {
        visit(item);
      }
    }
    const bool at_limit = query.limit != 0 && outcome.evaluated >= query.limit;
    if (at_limit || bytes >= query.page_bytes) {
      if (query.last_key_at_limit || bytes >= query.page_bytes) {
        // The row's statement has not stepped since.
        outcome.last_evaluated_sk.emplace(item.sort_key());
      }
      break;
    }
  }
  if (rows != nullptr) {
    backend::ItemView copied{.pk = query.pk};
    for (std::size_t i = 0; i < rows->size(); ++i) {
      const pksk::detail::RowArena::Row row = (*rows)[i];
      copied.sk = row.sort_key;
      copied.type = row.type;
      copied.body = row.body;
      copied.size = row.size;
      visit(copied);
    }
  }
  return outcome;
}

// A filter on an index that projects less than every attribute may read only what it holds:
// refused as DynamoDB refuses it otherwise.
inline void Backend::Impl::check_projected(const detail::TableState& t, const TableIndex& index,
                                           const backend::Condition& filter) {
  for (const backend::Operand& operand : filter.operands) {
    if (operand.kind == backend::Operand::Kind::value || operand.path.steps.empty()) continue;
    const std::string& name = operand.path.steps.front().name;
    if (name == t.spec.pk_attribute || name == t.spec.sk_attribute || name == index.pk_attribute ||
        name == index.sk_attribute || index.projects(name))
      continue;
    throw ValidationError(
        detail::context(t.name, "query on index " + pksk::detail::quoted(index.name)) +
        "the index does not project the filter's attribute " + pksk::detail::quoted(name) +
        " (TableIndex::projection)");
  }
  for (const backend::Condition& child : filter.children) check_projected(t, index, child);
}

// The rows of an index query's page, with DynamoDB's paging: (pk, sk, type, body, size).
// As in a table query, a row's key is read only when someone asks for it, and the index sort
// key, which only the cursor needs, is looked up for the page's last row.
inline backend::QueryOutcome Backend::Impl::read_index_page(Call& k, const TableIndex& index,
                                                            sqlite3_stmt* s,
                                                            const backend::RawQuery& query,
                                                            detail::RowFilter* filter,
                                                            backend::ItemVisitor visit) {
  backend::QueryOutcome outcome;
  std::size_t bytes = 0;
  backend::ItemView item{
      .read_pk = detail::key_column<0>, .read_sk = detail::key_column<1>, .key_source = s};
  std::string projected;
  for (bool first = true;; first = false) {
    const int rc = first ? k.c.step_first(s) : sqlite3_step(s);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW)
      detail::throw_failure(k.db(), rc, k.t.name, key_operation("query", query.pk, {}));
    item.type = detail::column_view(s, 2);
    item.body = detail::column_view(s, 3);
    item.size = static_cast<std::size_t>(sqlite3_column_int64(s, 4));
    if (index.projection != IndexProjection::all) [[unlikely]] {
      // As DynamoDB's index holds it: the keys and what it projects (the filter too sees no
      // more). The table's keys are columns; the index's are in the body.
      projected.clear();
      append_plain_json_members(projected, parse_plain_body(item.body), [&](std::string_view name) {
        return name != index.pk_attribute && name != index.sk_attribute && !index.projects(name);
      });
      item.body = projected;
      if (!index.projects(k.t.spec.type_attribute)) item.type = {};
    }
    ++outcome.evaluated;
    bytes += item.size;
    // The filter comes after the item has counted, as DynamoDB's does.
    if (filter == nullptr || (*filter)(item)) visit(item);
    const bool at_limit = query.limit != 0 && outcome.evaluated >= query.limit;
    if (at_limit || bytes >= query.page_bytes) {
      // Still SQLite's memory: the statement has not stepped since.
      if (query.last_key_at_limit || bytes >= query.page_bytes) {
        outcome.last_evaluated_item_pk.emplace(item.partition_key());
        outcome.last_evaluated_item_sk.emplace(item.sort_key());
        outcome.last_evaluated_sk.emplace(index_sort_key_of(
            k, index, *outcome.last_evaluated_item_pk, *outcome.last_evaluated_item_sk));
      }
      break;
    }
  }
  return outcome;
}

inline detail::CachedStatement& Backend::Impl::index_query_statement(Call& k,
                                                                     const TableIndex& index,
                                                                     std::size_t variant,
                                                                     detail::RangeShape shape,
                                                                     bool forward, bool has_start) {
  return prepared(k, index_statements(k, index).queries[variant], [&] {
    return StatementText{detail::index_query_sql(k.t.spec, index, shape, forward, has_start),
                         "query of index " + index.name + " (preparing it)"};
  });
}

inline detail::TableStatements::IndexStatements& Backend::Impl::index_statements(
    Call& k, const TableIndex& index) {
  const auto position = static_cast<std::size_t>(&index - k.t.spec.indexes.data());
  if (k.st.indexes.size() <= position) k.st.indexes.resize(position + 1);
  return k.st.indexes[position];
}

// The index sort key of an item the running query has just read: the same read
// transaction, so the item is there as the query saw it.
inline std::string Backend::Impl::index_sort_key_of(Call& k, const TableIndex& index,
                                                    std::string_view pk, std::string_view sk) {
  detail::CachedStatement& cached = prepared(k, index_statements(k, index).sort_key_of, [&] {
    return StatementText{detail::index_sort_key_sql(k.t.spec, index),
                         "query of index " + index.name + " (preparing its cursor)"};
  });
  detail::StatementUse use(cached.stmt.get(), cached.in_use, k.t.name, "query");
  bind(k, use.get(), 1, pk, "query", pk, sk);
  bind(k, use.get(), 2, sk, "query", pk, sk);
  const int rc = sqlite3_step(use.get());
  if (rc != SQLITE_ROW) detail::throw_failure(k.db(), rc, k.t.name, key_operation("query", pk, sk));
  return std::string(detail::column_view(use.get(), 0));
}

}  // namespace pksk::sqlite
