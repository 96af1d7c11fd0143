// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::sqlite::Backend's definitions: inline through backend.hpp in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <sqlite3.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>
#include "../../backend/backend.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../codec/body_patch.hpp"
#include "../../codec/item_size.hpp"
#include "../../error.hpp"
#include "../../expr/evaluate.hpp"
#include "../../expr/render.hpp"
#include "../../key/condition.hpp"
#include "../backend.hpp"
#include "../detail/connections.hpp"
#include "../detail/filter.hpp"
#include "../detail/handle.hpp"
#include "../detail/schema.hpp"
#include "../detail/shared.hpp"
#include "../detail/sql.hpp"
#include "../detail/transaction.hpp"

namespace pksk::sqlite {

struct Backend::Impl {
  const std::shared_ptr<detail::Shared>& shared_;

  const std::string& path() const noexcept {
    static const std::string none;
    return shared_ ? shared_->path : none;
  }

  void construct(std::string path, Options options) {
    // The headers may be newer than the library the program is linked or loaded with.
    if (sqlite3_libversion_number() < 3037000) {
      throw BackendError(
          errc::backend_failure,
          std::string("pksk::sqlite: needs SQLite 3.37 or later, found ") + sqlite3_libversion());
    }
    shared_->path = std::move(path);
    shared_->options = options;
    shared_->single_connection = !is_file();
    // The constructing thread's connection: it checks the file once for every later one.
    std::unique_ptr<detail::ConnectionState> first = open_connection();
    sqlite3* db = first->db();

    // Byte order and the non-UTF-8 begins_with bound both need keys stored as UTF-8 as given;
    // a UTF-16 database would transcode them. The pragma only affects a still empty file.
    if (!options.read_only) pragma(db, "PRAGMA encoding = 'UTF-8'");
    if (const std::string encoding = pragma(db, "PRAGMA encoding"); encoding != "UTF-8") {
      throw BackendError(errc::schema_mismatch, "pksk::sqlite: \"" + this->path() + "\" uses the " +
                                                    encoding +
                                                    " encoding; pksk needs a UTF-8 database");
    }
    if (is_file() && !options.read_only) {
      // Persistent in the file: every later connection, in any process, opens it in WAL.
      if (const std::string mode = pragma(db, "PRAGMA journal_mode = WAL"); mode != "wal") {
        throw BackendError(errc::backend_failure,
                           "pksk::sqlite: " + open_operation() +
                               " failed: could not switch to WAL (journal_mode is " + mode + ")");
      }
    }
    detail::check_storage_format(db, this->path());
    adopt(std::move(first));
  }

  TableHandle open_table(const TableSpec& spec) {
    detail::validate_table_name(spec.name);
    detail::validate_attribute_names(spec);
    Lease lease = connection();
    sqlite3* db = lease.conn.db();
    // Under the mutex: two threads opening one table get one state.
    const std::lock_guard lock(shared_->mutex);
    for (const auto& table : shared_->tables) {
      if (detail::iequals_ascii(table->spec.name, spec.name) &&
          table->spec.pk_attribute == spec.pk_attribute &&
          table->spec.sk_attribute == spec.sk_attribute &&
          table->spec.type_attribute == spec.type_attribute &&
          table->spec.indexes == spec.indexes) {
        return TableHandle(table.get());
      }
    }

    if (!detail::table_info(db, spec.name).exists) {
      if (shared_->options.read_only) {
        throw BackendError(errc::missing_table, "pksk table \"" + spec.name +
                                                    "\": does not exist in \"" + path() +
                                                    "\", which is open read-only");
      }
      // IF NOT EXISTS: another connection may create it between the look and the create; the
      // check below then judges whatever it created.
      detail::record_storage_format(db, spec.name);
      detail::for_each_row(db, detail::create_table_sql(spec, true), {}, spec.name,
                           "open_table (creating it)", [](sqlite3_stmt*) {});
    }
    const detail::TableInfo info = detail::table_info(db, spec.name);
    const std::vector<std::string> diffs = detail::schema_differences(db, spec, info);
    if (!diffs.empty()) {
      std::string msg = "pksk::sqlite: table \"" + spec.name + "\" in \"" + path() +
                        "\" exists with a schema pksk cannot use: ";
      for (std::size_t i = 0; i < diffs.size(); ++i) msg += (i == 0 ? "" : "; ") + diffs[i];
      msg += ". Expected: " + detail::create_table_sql(spec) +
             ". pksk never alters an existing table; migrate it or use another name";
      throw BackendError(errc::schema_mismatch, msg);
    }
    add_indexes(lease.conn, spec);

    auto state = std::make_unique<detail::TableState>();
    state->spec = spec;
    state->index = shared_->tables.size();
    state->owner = shared_.get();
    // This connection's statements now, as before threads: a table that cannot prepare them
    // fails here rather than on its first write.
    detail::TableStatements& st = lease.conn.statements(state->index);
    st.put.stmt =
        detail::prepare(db, detail::put_sql(spec), spec.name, "open_table (preparing put)");
    st.get.stmt =
        detail::prepare(db, detail::get_sql(spec), spec.name, "open_table (preparing get)");
    st.erase.stmt =
        detail::prepare(db, detail::erase_sql(spec), spec.name, "open_table (preparing erase)");
    shared_->tables.push_back(std::move(state));
    return TableHandle(shared_->tables.back().get());
  }

  bool get(TableHandle table, ItemKey key, ItemVisitor visit) {
    Call k = enter(table);
    check_key(k.t, "get", key);
    return read_item(k, key, "get", visit);
  }

  void put(TableHandle table, const PutRequest& request) {
    Call k = enter(table);
    check_key(k.t, "put", {request.item.pk, request.item.sk});
    if (request.condition == nullptr) {
      // One statement, hence atomic in autocommit mode: a failed put leaves no trace.
      insert(k, request.item);
      return;
    }
    detail::WriteTransaction transaction(k.c, k.t.name, "put");
    require(k.t, "put", {request.item.pk, request.item.sk}, *request.condition,
            load(k, {request.item.pk, request.item.sk}));
    insert(k, request.item);
    transaction.commit();
  }

  void update(TableHandle table, const UpdateRequest& request, ItemVisitor visit) {
    Call k = enter(table);
    const detail::TableState& t = k.t;
    check_key(t, "update", request.key);
    detail::WriteTransaction transaction(k.c, k.t.name, "update");
    // Per thread and reused: an update allocates for what it parses and writes, not for these.
    thread_local std::vector<std::string_view> names;
    thread_local BodyPatch patch;
    thread_local std::string body;
    names.clear();
    for (const UpdateAction& action : request.actions) {
      if (!presence_only(action)) names.push_back(action.path.steps.front().name);
    }
    if (request.condition != nullptr) add_names(*request.condition, names);

    std::string stored_type;
    std::size_t stored_size = 0;
    const bool found = read_item(k, request.key, "read for an update", [&](const ItemView& row) {
      try {
        patch.parse(row.body, names);
      } catch (const DecodeError& e) {
        throw_not_an_object(t, request.key, e);
      }
      stored_type = row.type;
      stored_size = row.size;
    });
    if (!found) {
      std::optional<AttributeValue> none;
      if (request.condition != nullptr) require(t, "update", request.key, *request.condition, none);
      const Stored stored = updated(t, request, std::move(none));
      insert(k, stored.view());
      visit(stored.view());
      transaction.commit();
      return;
    }
    {
      AttributeValue& item = patch.named();
      // Key and type attributes are columns, not body members: added when named, as a
      // condition may read them, and left out of the body again.
      const auto named = [&](std::string_view name) {
        return std::find(names.begin(), names.end(), name) != names.end();
      };
      if (named(t.spec.pk_attribute))
        item.assign(t.spec.pk_attribute, AttributeValue::from_string(std::string(request.key.pk)));
      if (named(t.spec.sk_attribute))
        item.assign(t.spec.sk_attribute, AttributeValue::from_string(std::string(request.key.sk)));
      if (named(t.spec.type_attribute))
        item.assign(t.spec.type_attribute, AttributeValue::from_string(stored_type));
      if (request.condition != nullptr)
        require(t, "update", request.key, *request.condition, &item);
      apply_actions(t, request, item, [&](const UpdateAction& action) {
        return presence_only(action) && patch.has_member(action.path.steps.front().name);
      });
      const auto is_column = [&](std::string_view name) {
        return name == t.spec.pk_attribute || name == t.spec.sk_attribute ||
               name == t.spec.type_attribute;
      };
      std::size_t named_after = 0;
      for (const auto& [name, value] : item.map) {
        if (!is_column(name)) named_after += name.size() + attribute_size(value);
      }
      // The stored size counts the type's value; the type written is the request's.
      std::size_t size = stored_size - std::min(stored_size, patch.bytes_before(item));
      size = size - std::min(size, stored_type.size()) + named_after + request.type.size();
      check_size(t, request, size);
      body.clear();
      patch.write(body, item, is_column);
      const ItemView written{request.key.pk, request.key.sk, request.type, body, size};
      insert(k, written);
      visit(written);
      transaction.commit();
    }
  }

  bool erase(TableHandle table, const EraseRequest& request) {
    Call k = enter(table);
    check_key(k.t, "erase", request.key);
    if (request.condition == nullptr) return remove(k, request.key);
    detail::WriteTransaction transaction(k.c, k.t.name, "erase");
    require(k.t, "erase", request.key, *request.condition, load(k, request.key));
    const bool removed = remove(k, request.key);
    transaction.commit();
    return removed;
  }

  void transact(TableHandle table, std::span<const WriteRequest> writes) {
    Call k = enter(table);
    for (const WriteRequest& write : writes) check_key(k.t, "transaction", key_of(write));
    detail::WriteTransaction transaction(k.c, k.t.name, "transaction");
    std::vector<std::optional<AttributeValue>> items(writes.size());
    std::vector<CancellationReason> reasons(writes.size(), CancellationReason::none);
    bool canceled = false;
    for (std::size_t i = 0; i < writes.size(); ++i) {
      // The stored item is read for a condition to judge and for an update to apply to; an
      // unconditional put or erase does not look at it, as put and erase alone do not.
      const Condition* condition = condition_of(writes[i]);
      if (condition == nullptr && !std::holds_alternative<UpdateRequest>(writes[i])) continue;
      items[i] = load(k, key_of(writes[i]));
      if (condition != nullptr && !evaluate(*condition, items[i] ? *items[i] : no_item())) {
        reasons[i] = CancellationReason::condition_failed;
        canceled = true;
      }
    }
    if (canceled) throw_canceled(k.t, reasons);
    for (std::size_t i = 0; i < writes.size(); ++i) {
      if (const auto* put = std::get_if<PutRequest>(&writes[i])) {
        insert(k, put->item);
      } else if (const auto* update = std::get_if<UpdateRequest>(&writes[i])) {
        try {
          const Stored stored = updated(k.t, *update, std::move(items[i]));
          insert(k, stored.view());
        } catch (const ValidationError&) {
          reasons[i] = CancellationReason::validation;
          throw_canceled(k.t, reasons);
        } catch (const ItemTooLarge&) {
          reasons[i] = CancellationReason::item_too_large;
          throw_canceled(k.t, reasons);
        }
      } else if (const auto* erase = std::get_if<EraseRequest>(&writes[i])) {
        remove(k, erase->key);
      }
    }
    transaction.commit();
  }

  void batch_write(TableHandle table, std::span<const WriteRequest> writes,
                   std::vector<std::size_t>& unprocessed) {
    Call k = enter(table);
    unprocessed.clear();
    for (const WriteRequest& write : writes) check_key(k.t, "batch write", key_of(write));
    detail::WriteTransaction transaction(k.c, k.t.name, "batch write");
    for (const WriteRequest& write : writes) {
      if (const auto* put = std::get_if<PutRequest>(&write)) {
        insert(k, put->item);
      } else if (const auto* erase = std::get_if<EraseRequest>(&write)) {
        remove(k, erase->key);
      } else {
        throw ValidationError("pksk::sqlite: batch write on table \"" + k.t.name +
                              "\" holds an update or a check; a batch takes puts and erases only");
      }
    }
    transaction.commit();
  }

  void batch_get(TableHandle table, std::span<const ItemKey> keys, IndexedItemVisitor visit,
                 std::vector<std::size_t>& unprocessed) {
    Call k = enter(table);
    unprocessed.clear();
    for (const ItemKey& key : keys) check_key(k.t, "batch get", key);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      read_item(k, keys[i], "batch get", [&](const ItemView& item) { visit(i, item); });
    }
  }

  QueryOutcome query(TableHandle table, const RawQuery& query, ItemVisitor visit) {
    using Op = KeyCondition::Op;
    Call k = enter(table);

    const TableIndex* index = nullptr;
    if (!query.index.empty()) {
      index = k.t.spec.find_index(query.index);
      if (index == nullptr) {
        throw ValidationError("pksk::sqlite: query on table \"" + k.t.name + "\": no index \"" +
                              std::string(query.index) + "\" (TableOptions::indexes)");
      }
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
          if (std::string_view(cond->first) > std::string_view(cond->second)) {
            throw ValidationError("pksk::sqlite: query on table \"" + k.t.name + "\": between(\"" +
                                  cond->first + "\", \"" + cond->second +
                                  "\") has a lower bound greater than its upper bound");
          }
          shape = detail::RangeShape::between;
          break;
        case Op::begins_with:
          prefix_end = detail::prefix_successor(cond->first);
          shape = prefix_end ? detail::RangeShape::prefix_bounded
                             : detail::RangeShape::prefix_unbounded;
          break;
      }
    }
    const bool has_start =
        query.exclusive_start_sk.has_value() && (index == nullptr || query.exclusive_start_item);
    if (index != nullptr && query.exclusive_start_sk.has_value() != has_start) {
      throw ValidationError("pksk::sqlite: query on index \"" + index->name +
                            "\": an exclusive start needs the index key and the table key");
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
    std::optional<detail::RowFilter> filter;
    if (query.filter != nullptr) filter.emplace(*query.filter, k.t.spec);
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

  ScanOutcome scan(TableHandle table, const RawScan& scan, ItemVisitor visit) {
    Call k = enter(table);
    const detail::TableState& t = k.t;
    const std::size_t segments = scan.segments == 0 ? 1 : scan.segments;
    if (scan.segment >= segments) {
      throw ValidationError("pksk::sqlite: scan of table \"" + t.name + "\": segment " +
                            std::to_string(scan.segment) + " of " + std::to_string(segments));
    }
    if (scan.exclusive_start && segments > 1 &&
        detail::segment_of(scan.exclusive_start->pk, segments) != scan.segment) {
      throw ValidationError("pksk::sqlite: scan of table \"" + t.name +
                            "\": the start key is not in segment " + std::to_string(scan.segment));
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
    std::optional<detail::RowFilter> filter;
    if (scan.filter != nullptr) filter.emplace(*scan.filter, t.spec);

    ScanOutcome outcome;
    std::size_t bytes = 0;
    for (bool first = true;; first = false) {
      const int rc = first ? k.c.step_first(s) : sqlite3_step(s);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) detail::throw_failure(k.db(), rc, t.name, "scan");
      const std::string_view pk = detail::column_view(s, 0);
      if (segments > 1 && detail::segment_of(pk, segments) != scan.segment) continue;
      const ItemView item{pk, detail::column_view(s, 1), detail::column_view(s, 2),
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

  // ------------------------------------------------------------------- connections, per call

  // The calling thread's connection; for a single-connection (in-memory) Backend, held under
  // its mutex for the call. Nothing else is locked on the query path.
  struct Lease {
    detail::ConnectionState& conn;
    std::unique_lock<std::recursive_mutex> serial;
  };

  // One call on one table: the table, the thread's connection and its statements for the table.
  struct Call {
    const detail::TableState& t;
    detail::ConnectionState& c;
    detail::TableStatements& st;
    std::unique_lock<std::recursive_mutex> serial;
    sqlite3* db() const noexcept { return c.db(); }
  };

  Lease connection() const {
    detail::Shared* shared = shared_.get();
    if (shared == nullptr)
      throw BackendError(errc::misuse, "pksk::sqlite: use of a moved-from Backend");
    detail::ThreadCache& cache = detail::thread_cache;
    detail::ConnectionState* conn = cache.backend_id == shared->id
                                        ? cache.connection
                                        : &const_cast<Impl*>(this)->thread_connection();
    if (shared->single_connection) return Lease{*conn, std::unique_lock(shared->serial)};
    return Lease{*conn, {}};
  }

  Call enter(const TableHandle& table) const {
    const detail::TableState& t = table.state();
    if (t.owner != shared_.get()) {
      throw BackendError(errc::misuse, "pksk::sqlite: the handle of table \"" + t.name +
                                           "\" belongs to another Backend");
    }
    Lease lease = connection();
    return Call{t, lease.conn, lease.conn.statements(t.index), std::move(lease.serial)};
  }

  // The slow path, once per thread (or after the thread used another Backend): finds or opens
  // the thread's connection under the mutex and caches it.
  detail::ConnectionState& thread_connection() {
    detail::Shared& shared = *shared_;
    detail::ConnectionState* found = nullptr;
    {
      const std::lock_guard lock(shared.mutex);
      if (shared.single_connection) {
        found = shared.connections.front().second.get();
      } else {
        for (auto& [thread, conn] : shared.connections) {
          if (thread == std::this_thread::get_id()) found = conn.get();
        }
      }
    }
    if (found == nullptr) found = &adopt(open_connection());
    detail::thread_cache = {shared.id, found};
    return *found;
  }

  // Registers a connection as the calling thread's, given back when the thread exits.
  detail::ConnectionState& adopt(std::unique_ptr<detail::ConnectionState> conn) {
    detail::ConnectionState& out = *conn;
    {
      const std::lock_guard lock(shared_->mutex);
      shared_->connections.emplace_back(std::this_thread::get_id(), std::move(conn));
    }
    if (!shared_->single_connection) detail::thread_exit.add(shared_);
    detail::thread_cache = {shared_->id, &out};
    return out;
  }

  // A new connection with this Backend's settings (per connection in SQLite: busy handler and
  // synchronous level).
  std::unique_ptr<detail::ConnectionState> open_connection() const {
    const Options& options = shared_->options;
    const int flags =
        (options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
        SQLITE_OPEN_NOMUTEX;
    auto conn = std::make_unique<detail::ConnectionState>();
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(shared_->path.c_str(), &raw, flags, nullptr);
    conn->conn.reset(raw);  // open_v2 hands out a handle (to close) even when it fails
    if (rc != SQLITE_OK) detail::throw_failure(raw, rc, {}, open_operation());
    conn->busy_timeout = std::max(options.busy_timeout, std::chrono::milliseconds(0));
    detail::check(raw, sqlite3_busy_handler(raw, &detail::ConnectionState::on_busy, conn.get()), {},
                  open_operation());
    switch (options.synchronous) {
      case Synchronous::normal:
        pragma(raw, "PRAGMA synchronous = NORMAL");
        break;
      case Synchronous::full:
        pragma(raw, "PRAGMA synchronous = FULL");
        break;
      case Synchronous::extra:
        pragma(raw, "PRAGMA synchronous = EXTRA");
        break;
    }
    return conn;
  }

  // Creates the spec's indexes the table does not have yet: their key columns (generated from
  // the body, so that items written from now on are indexed) and the partial SQLite index. The
  // items already stored lack the index key attributes until Table::backfill_index writes them.
  void add_indexes(detail::ConnectionState& conn, const TableSpec& spec) const {
    if (spec.indexes.empty()) return;
    sqlite3* db = conn.db();
    const auto complete = [&] {
      std::vector<std::string> diffs;
      const bool indexes_there = detail::missing_indexes(db, spec, diffs).empty();
      const bool none_missing = indexes_there && detail::missing_index_columns(db, spec).empty();
      if (!diffs.empty()) {
        std::string msg = "pksk::sqlite: table \"" + spec.name + "\" in \"" + path() + "\": ";
        for (std::size_t i = 0; i < diffs.size(); ++i) msg += (i == 0 ? "" : "; ") + diffs[i];
        throw BackendError(
            errc::schema_mismatch,
            msg + ". pksk never alters an existing index; drop it or rename the index");
      }
      return none_missing;
    };
    // The usual case, every index there: no write lock taken.
    if (complete()) return;
    if (shared_->options.read_only) {
      throw BackendError(
          errc::access_denied,
          "pksk::sqlite: table \"" + spec.name + "\" in \"" + path() +
              "\" lacks some of its indexes' columns or SQLite indexes, and the file "
              "is open read-only");
    }
    const std::string_view operation = "open_table (adding its indexes)";
    detail::run_control(conn, detail::Control::begin, spec.name, operation);
    try {
      // Looked at again under the write lock: another connection may have added them meanwhile.
      for (const std::string& column : detail::missing_index_columns(db, spec)) {
        detail::for_each_row(db, detail::add_index_column_sql(spec, column), {}, spec.name,
                             operation, [](sqlite3_stmt*) {});
      }
      for (const TableIndex& index : spec.indexes) {
        detail::for_each_row(db, detail::create_index_sql(spec, index), {}, spec.name, operation,
                             [](sqlite3_stmt*) {});
      }
      detail::run_control(conn, detail::Control::commit, spec.name, operation);
    } catch (...) {
      detail::rollback(conn);
      throw;
    }
  }

  // ---------------------------------------------------------------- writes, one item at a time

  // BEGIN IMMEDIATE takes the write lock before anything is read, so no other connection can
  // change the item between the read and the write; a transaction not committed is rolled back
  // however the scope is left (a failed condition, an exception from anywhere).
  // A statement's SQL and the operation its preparation's error names.
  struct StatementText {
    std::string sql;
    std::string what;
  };

  // A table's statement on this connection, prepared on its first use here. text() gives its
  // StatementText and is called only then, so that neither string is built once it is prepared.
  template <class Text>
  static detail::CachedStatement& prepared(Call& k, detail::CachedStatement& cached, Text&& text) {
    if (!cached.stmt) [[unlikely]] {
      const StatementText t = text();
      cached.stmt = detail::prepare(k.db(), t.sql, k.t.name, t.what);
    }
    return cached;
  }

  // put, erase and get: one statement each, of the table's spec alone.
  static sqlite3_stmt* statement(Call& k, detail::CachedStatement& cached,
                                 std::string (*sql)(const TableSpec&), std::string_view what) {
    return prepared(k, cached,
                    [&] {
                      return StatementText{sql(k.t.spec), std::string(what) + " (preparing it)"};
                    })
        .stmt.get();
  }

  // An unconditional put or erase outside a transaction is one autocommit statement, which
  // takes the write lock itself: step_first gives it the same bounded wait as BEGIN IMMEDIATE.
  static int step_write(Call& k, sqlite3_stmt* s) {
    return sqlite3_get_autocommit(k.db()) != 0 ? k.c.step_first(s) : sqlite3_step(s);
  }

  void insert(Call& k, const ItemView& item) {
    detail::StatementUse use(statement(k, k.st.put, &detail::put_sql, "put"), k.st.put.in_use,
                             k.t.name, "put", /*rebinds_all=*/true);
    sqlite3_stmt* s = use.get();
    bind(k, s, 1, item.pk, "put", item.pk, item.sk);
    bind(k, s, 2, item.sk, "put", item.pk, item.sk);
    bind(k, s, 3, item.type, "put", item.pk, item.sk);
    bind(k, s, 4, item.body, "put", item.pk, item.sk);
    sqlite3_bind_int64(s, 5, static_cast<sqlite3_int64>(item.size));
    const int rc = step_write(k, s);
    if (rc != SQLITE_DONE)
      detail::throw_failure(k.db(), rc, k.t.name, key_operation("put", item.pk, item.sk));
  }

  bool remove(Call& k, ItemKey key) {
    detail::StatementUse use(statement(k, k.st.erase, &detail::erase_sql, "erase"),
                             k.st.erase.in_use, k.t.name, "erase");
    sqlite3_stmt* s = use.get();
    bind(k, s, 1, key.pk, "erase", key.pk, key.sk);
    bind(k, s, 2, key.sk, "erase", key.pk, key.sk);
    const int rc = step_write(k, s);
    if (rc != SQLITE_DONE)
      detail::throw_failure(k.db(), rc, k.t.name, key_operation("erase", key.pk, key.sk));
    return sqlite3_changes64(k.db()) > 0;
  }

  bool read_item(Call& k, ItemKey key, std::string_view operation, ItemVisitor visit) {
    detail::StatementUse use(statement(k, k.st.get, &detail::get_sql, "get"), k.st.get.in_use,
                             k.t.name, operation);
    sqlite3_stmt* s = use.get();
    bind(k, s, 1, key.pk, operation, key.pk, key.sk);
    bind(k, s, 2, key.sk, operation, key.pk, key.sk);
    const int rc = sqlite3_get_autocommit(k.db()) != 0 ? k.c.step_first(s) : sqlite3_step(s);
    if (rc == SQLITE_DONE) return false;
    if (rc != SQLITE_ROW)
      detail::throw_failure(k.db(), rc, k.t.name, key_operation(operation, key.pk, key.sk));
    visit(ItemView{key.pk, key.sk, detail::column_view(s, 0), detail::column_view(s, 1),
                   static_cast<std::size_t>(sqlite3_column_int64(s, 2))});
    return true;
  }

  // The stored item with every attribute (keys and type included), as conditions see it.
  std::optional<AttributeValue> load(Call& k, ItemKey key) {
    const detail::TableState& t = k.t;
    std::optional<AttributeValue> item;
    read_item(k, key, "read for a condition", [&](const ItemView& row) {
      AttributeValue body;
      try {
        body = parse_plain_body(row.body);
      } catch (const DecodeError& e) {
        throw_not_an_object(t, key, e);
      }
      item.emplace(AttributeValue::empty_map());
      item->map.reserve(body.map.size() + 3);
      item->assign(t.spec.pk_attribute, AttributeValue::from_string(std::string(key.pk)));
      item->assign(t.spec.sk_attribute, AttributeValue::from_string(std::string(key.sk)));
      item->assign(t.spec.type_attribute, AttributeValue::from_string(std::string(row.type)));
      for (auto& member : body.map) item->map.push_back(std::move(member));
    });
    return item;
  }

  static const AttributeValue& no_item() {
    static const AttributeValue empty = AttributeValue::empty_map();
    return empty;
  }

  void require(const detail::TableState& t, std::string_view operation, ItemKey key,
               const Condition& condition, const std::optional<AttributeValue>& item) const {
    require(t, operation, key, condition, item ? &*item : nullptr);
  }
  void require(const detail::TableState& t, std::string_view operation, ItemKey key,
               const Condition& condition, const AttributeValue* item) const {
    if (!evaluate(condition, item ? *item : no_item())) {
      throw ConditionFailed(
          "pksk table \"" + t.name + "\": " + std::string(operation) + " of " + key_text(key) +
          ": the condition " + describe(condition) +
          (item ? " is false on the stored item" : " is false: no item has this key"));
    }
  }

  // An item as the backend writes it: owns the text its view points into.
  struct Stored {
    std::string pk, sk, type, body;
    std::size_t size = 0;
    ItemView view() const { return {pk, sk, type, body, size}; }
  };

  // Top-level names a condition reads (its paths' first steps), added to names.
  static void add_names(const Condition& condition, std::vector<std::string_view>& names) {
    for (const Operand& operand : condition.operands) {
      if (operand.kind != Operand::Kind::value && !operand.path.steps.empty())
        names.push_back(operand.path.steps.front().name);
    }
    for (const Condition& child : condition.children) add_names(child, names);
  }

  // if_not_exists of a top-level attribute asks only whether the stored item has it: update()
  // does not parse its value (an update sets one for each key member of the entity, so that an
  // item it creates has them).
  static bool presence_only(const UpdateAction& action) noexcept {
    return action.kind == UpdateAction::Kind::set_if_not_exists && action.path.steps.size() == 1;
  }

  // Applies the actions but those `already_applied` says hold as they are.
  template <class AlreadyApplied>
  static void apply_actions(const detail::TableState& t, const UpdateRequest& request,
                            AttributeValue& item, AlreadyApplied&& already_applied) {
    for (const UpdateAction& action : request.actions) {
      const std::string& top = action.path.steps.front().name;
      if (top == t.spec.pk_attribute || top == t.spec.sk_attribute) {
        throw ValidationError("pksk table \"" + t.name + "\": update of " + key_text(request.key) +
                              ": " + top + " is part of the key and cannot be updated");
      }
      if (!already_applied(action)) apply(action, item);
    }
  }
  static void apply_actions(const detail::TableState& t, const UpdateRequest& request,
                            AttributeValue& item) {
    apply_actions(t, request, item, [](const UpdateAction&) { return false; });
  }

  static void check_size(const detail::TableState& t, const UpdateRequest& request,
                         std::size_t size) {
    if (size > max_item_bytes) {
      throw ItemTooLarge("pksk table \"" + t.name + "\": update of " + key_text(request.key) +
                         " would make the item " + std::to_string(size) +
                         " bytes, over DynamoDB's limit of " + std::to_string(max_item_bytes));
    }
  }

  // The item after an update: actions applied in order on the stored item (or on the key
  // alone), type set, body rendered back to plain JSON and measured as DynamoDB measures.
  Stored updated(const detail::TableState& t, const UpdateRequest& request,
                 std::optional<AttributeValue> current) const {
    AttributeValue item = current ? std::move(*current) : AttributeValue::empty_map();
    if (!current) {
      item.assign(t.spec.pk_attribute, AttributeValue::from_string(std::string(request.key.pk)));
      item.assign(t.spec.sk_attribute, AttributeValue::from_string(std::string(request.key.sk)));
    }
    apply_actions(t, request, item);
    item.assign(t.spec.type_attribute, AttributeValue::from_string(std::string(request.type)));
    Stored out;
    out.pk = request.key.pk;
    out.sk = request.key.sk;
    out.type = request.type;
    out.size = attributes_size(item);
    check_size(t, request, out.size);
    // The body is every attribute but the keys and the type, written straight from the item
    // (no second map); a plain JSON body is seldom much longer than DynamoDB's measure.
    out.body.reserve(out.size + out.size / 4 + 16);
    append_plain_json_members(out.body, item, [&](std::string_view name) {
      return name == t.spec.pk_attribute || name == t.spec.sk_attribute ||
             name == t.spec.type_attribute;
    });
    return out;
  }

  // Called from the handler of `e`: the error thrown wraps it.
  [[noreturn, gnu::cold]] static void throw_not_an_object(const detail::TableState& t,
                                                          const ItemKey& key,
                                                          const DecodeError& e) {
    throw DecodeError("pksk table \"" + t.name + "\": the stored item " + key_text(key) +
                          " has a body that is not a JSON object: " + e.what(),
                      {}, std::current_exception());
  }

  [[noreturn]] static void throw_canceled(const detail::TableState& t,
                                          std::vector<CancellationReason> reasons) {
    std::string msg = "pksk table \"" + t.name + "\": transaction canceled, reasons [";
    for (std::size_t i = 0; i < reasons.size(); ++i) {
      if (i) msg += ", ";
      msg += to_string(reasons[i]);
    }
    msg += ']';
    throw TransactionCanceled(msg, std::move(reasons));
  }

  static std::string key_text(ItemKey key) {
    return "pk \"" + std::string(key.pk) + "\", sk \"" + std::string(key.sk) + '"';
  }

  // DynamoDB refuses a key attribute that is empty or longer than its limit (2,048 bytes for the
  // partition key, 1,024 for the sort key) with a ValidationException, before anything is read
  // or written. Table never makes such a key, but the raw API takes any, and the page budget of
  // a query counts on the sort key's limit.
  static void check_key(const detail::TableState& t, std::string_view operation, ItemKey key) {
    if (!key.pk.empty() && key.pk.size() <= max_partition_key_size && !key.sk.empty() &&
        key.sk.size() <= max_sort_key_size) [[likely]] {
      return;
    }
    throw_key_refused(t, operation, key);
  }

  // A query's partition key has the same limits (DynamoDB: "Size of hashkey has exceeded the
  // maximum size limit"), in the table and in an index alike; a longer one could match nothing.
  static void check_query_key(const detail::TableState& t, const RawQuery& query) {
    if (!query.pk.empty() && query.pk.size() <= max_partition_key_size) [[likely]]
      return;
    throw ValidationError(
        "pksk::sqlite: query on table \"" + t.name + "\"" +
        (query.index.empty() ? std::string() : " index \"" + std::string(query.index) + "\"") +
        ": the partition key " +
        (query.pk.empty()
             ? std::string("is empty")
             : "is " + std::to_string(query.pk.size()) + " bytes, over DynamoDB's limit of " +
                   std::to_string(max_partition_key_size)));
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void throw_key_refused(const detail::TableState& t,
                                                                       std::string_view operation,
                                                                       ItemKey key) {
    const bool partition = key.pk.empty() || key.pk.size() > max_partition_key_size;
    const std::string_view value = partition ? key.pk : key.sk;
    std::string msg = "pksk::sqlite: " + std::string(operation) + " on table \"" + t.name +
                      "\": the " + (partition ? "partition" : "sort") + " key ";
    if (value.empty()) {
      msg += "is empty (" + key_text(key) + ")";
    } else {
      msg += "is " + std::to_string(value.size()) + " bytes, over DynamoDB's limit of " +
             std::to_string(partition ? max_partition_key_size : max_sort_key_size);
    }
    throw ValidationError(msg);
  }

  bool is_file() const noexcept { return !path().empty() && path() != ":memory:"; }
  std::string open_operation() const { return "open of \"" + path() + "\""; }

  // Runs a pragma and returns the first column of its first row, if any.
  std::string pragma(sqlite3* db, std::string_view sql) const {
    std::string value;
    detail::for_each_row(db, sql, {}, {}, open_operation(), [&](sqlite3_stmt* s) {
      if (value.empty()) {
        value = std::string(detail::column_view(s, 0));
      }
    });
    return value;
  }

  static std::string key_operation(std::string_view operation, std::string_view pk,
                                   std::optional<std::string_view> sk) {
    std::string out(operation);
    out += " of pk \"";
    out += pk;
    out += '"';
    if (sk) {
      out += ", sk \"";
      out += *sk;
      out += '"';
    }
    return out;
  }

  static void bind(Call& k, sqlite3_stmt* s, int index, std::string_view text,
                   std::string_view operation, std::string_view pk,
                   std::optional<std::string_view> sk) {
    const int rc = detail::bind_text(s, index, text);
    if (rc != SQLITE_OK) {
      detail::throw_failure(k.db(), rc, k.t.name, key_operation(operation, pk, sk));
    }
  }

  static detail::CachedStatement& query_statement(Call& k, detail::RangeShape shape, bool forward,
                                                  bool has_start, bool sized) {
    return prepared(k, k.st.queries[detail::query_variant(shape, forward, has_start, sized)], [&] {
      return StatementText{detail::query_sql(k.t.spec, shape, forward, has_start, sized),
                           "query (preparing it)"};
    });
  }

  static detail::CachedStatement& read_size_statement(Call& k, detail::RangeShape shape,
                                                      bool forward, bool has_start) {
    return prepared(
        k, k.st.read_sizes[detail::query_variant(shape, forward, has_start, false)], [&] {
          return StatementText{detail::read_size_sql(k.t.spec, shape, forward, has_start),
                               "query (preparing its size sum)"};
        });
  }

  // The rows of a table query's page, with DynamoDB's paging; the statement selects (sk, type,
  // body), the pk being the caller's. Each column read is an SQLite call, so a row's sort key
  // is read only when someone asks for it (ItemView::sort_key). The size column, likewise, is
  // needed only by a page that reaches its byte budget. So each row adds an upper bound of its
  // size (DynamoDB's measure of a JSON body is at most twice its length: a one-digit number in
  // a list, "[0]", is the worst; a sort key is at most 1,024 bytes), and while that sum stays
  // under the budget the page cannot have reached it. Once the bound reaches it, SQLite sums
  // the exact sizes of the rows read, this one included, and the page goes on with the
  // statement that selects the size column.
  template <class ReadSize, class SizedAfter>
  QueryOutcome read_table_page(Call& k, sqlite3_stmt* s, const RawQuery& query,
                               detail::RowFilter* filter, ItemVisitor visit, ReadSize& read_size,
                               SizedAfter& sized_after) {
    QueryOutcome outcome;
    std::size_t bytes = 0;
    bool sized = false;
    const std::size_t key_bytes = k.t.spec.pk_attribute.size() + k.t.spec.sk_attribute.size() +
                                  k.t.spec.type_attribute.size() + query.pk.size() +
                                  max_sort_key_size;
    ItemView item{.pk = query.pk, .read_sk = detail::key_column<0>, .key_source = s};
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
      if (filter == nullptr || (*filter)(item)) visit(item);
      const bool at_limit = query.limit != 0 && outcome.evaluated >= query.limit;
      if (at_limit || bytes >= query.page_bytes) {
        if (query.last_key_at_limit || bytes >= query.page_bytes) {
          // The row's statement has not stepped since.
          outcome.last_evaluated_sk.emplace(item.sort_key());
        }
        break;
      }
    }
    return outcome;
  }

  // The rows of an index query's page, with DynamoDB's paging: (pk, sk, type, body, size).
  // As in a table query, a row's key is read only when someone asks for it, and the index sort
  // key, which only the cursor needs, is looked up for the page's last row.
  QueryOutcome read_index_page(Call& k, const TableIndex& index, sqlite3_stmt* s,
                               const RawQuery& query, detail::RowFilter* filter,
                               ItemVisitor visit) {
    QueryOutcome outcome;
    std::size_t bytes = 0;
    ItemView item{
        .read_pk = detail::key_column<0>, .read_sk = detail::key_column<1>, .key_source = s};
    for (bool first = true;; first = false) {
      const int rc = first ? k.c.step_first(s) : sqlite3_step(s);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW)
        detail::throw_failure(k.db(), rc, k.t.name, key_operation("query", query.pk, {}));
      item.type = detail::column_view(s, 2);
      item.body = detail::column_view(s, 3);
      item.size = static_cast<std::size_t>(sqlite3_column_int64(s, 4));
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

  static detail::CachedStatement& index_query_statement(Call& k, const TableIndex& index,
                                                        std::size_t variant,
                                                        detail::RangeShape shape, bool forward,
                                                        bool has_start) {
    return prepared(k, index_statements(k, index).queries[variant], [&] {
      return StatementText{detail::index_query_sql(k.t.spec, index, shape, forward, has_start),
                           "query of index " + index.name + " (preparing it)"};
    });
  }

  static detail::TableStatements::IndexStatements& index_statements(Call& k,
                                                                    const TableIndex& index) {
    const auto position = static_cast<std::size_t>(&index - k.t.spec.indexes.data());
    if (k.st.indexes.size() <= position) k.st.indexes.resize(position + 1);
    return k.st.indexes[position];
  }

  // The index sort key of an item the running query has just read: the same read
  // transaction, so the item is there as the query saw it.
  static std::string index_sort_key_of(Call& k, const TableIndex& index, std::string_view pk,
                                       std::string_view sk) {
    detail::CachedStatement& cached = prepared(k, index_statements(k, index).sort_key_of, [&] {
      return StatementText{detail::index_sort_key_sql(k.t.spec, index),
                           "query of index " + index.name + " (preparing its cursor)"};
    });
    detail::StatementUse use(cached.stmt.get(), cached.in_use, k.t.name, "query");
    bind(k, use.get(), 1, pk, "query", pk, sk);
    bind(k, use.get(), 2, sk, "query", pk, sk);
    const int rc = sqlite3_step(use.get());
    if (rc != SQLITE_ROW)
      detail::throw_failure(k.db(), rc, k.t.name, key_operation("query", pk, sk));
    return std::string(detail::column_view(use.get(), 0));
  }
};

PKSK_DECL const std::string& Backend::TableHandle::name() const {
  return state().spec.name;
}
PKSK_DECL const TableSpec& Backend::TableHandle::spec() const {
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

PKSK_DECL Backend::TableHandle Backend::open_table(const TableSpec& spec) {
  return Impl{shared_}.open_table(spec);
}
PKSK_DECL bool Backend::get(TableHandle table, ItemKey key, ItemVisitor visit) {
  return Impl{shared_}.get(table, key, visit);
}
PKSK_DECL void Backend::put(TableHandle table, const PutRequest& request) {
  Impl{shared_}.put(table, request);
}
PKSK_DECL void Backend::update(TableHandle table, const UpdateRequest& request, ItemVisitor visit) {
  Impl{shared_}.update(table, request, visit);
}
PKSK_DECL bool Backend::erase(TableHandle table, const EraseRequest& request) {
  return Impl{shared_}.erase(table, request);
}
PKSK_DECL void Backend::transact(TableHandle table, std::span<const WriteRequest> writes) {
  Impl{shared_}.transact(table, writes);
}
PKSK_DECL void Backend::batch_write(TableHandle table, std::span<const WriteRequest> writes,
                                    std::vector<std::size_t>& unprocessed) {
  Impl{shared_}.batch_write(table, writes, unprocessed);
}
PKSK_DECL void Backend::batch_get(TableHandle table, std::span<const ItemKey> keys,
                                  IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed) {
  Impl{shared_}.batch_get(table, keys, visit, unprocessed);
}
PKSK_DECL QueryOutcome Backend::query(TableHandle table, const RawQuery& query, ItemVisitor visit) {
  return Impl{shared_}.query(table, query, visit);
}
PKSK_DECL ScanOutcome Backend::scan(TableHandle table, const RawScan& scan, ItemVisitor visit) {
  return Impl{shared_}.scan(table, scan, visit);
}

}  // namespace pksk::sqlite
