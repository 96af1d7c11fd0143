#pragma once
// pksk::sqlite::Backend: the embedded reference backend. Each pksk table is one SQLite table
// (pk, sk, <type attribute>, body, size) keyed WITHOUT ROWID on (pk, sk), so an item collection
// is one contiguous B-tree range read in sort-key byte order, as DynamoDB reads a partition.
// Bodies are plain JSON, readable in the sqlite3 shell. Conditions, updates and transactions
// run read-evaluate-write inside one BEGIN IMMEDIATE transaction, evaluated in C++ with
// DynamoDB's typed semantics (expr/evaluate.hpp).
//
// Threading: the connection is opened with SQLITE_OPEN_NOMUTEX, and a Backend caches
// statements that cannot be shared, so a Backend (and its table handles) must be used by one
// thread at a time. Give each thread its own Backend on the same file: WAL lets readers run
// alongside the writer, and busy_timeout makes writers wait for each other.

#include <sqlite3.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "../backend/backend.hpp"
#include "../codec/attribute_value.hpp"
#include "../codec/item_size.hpp"
#include "../error.hpp"
#include "../expr/evaluate.hpp"
#include "../expr/render.hpp"
#include "../key/condition.hpp"
#include "detail/filter.hpp"
#include "detail/handle.hpp"
#include "detail/schema.hpp"
#include "detail/sql.hpp"

namespace pksk::sqlite {

// Outside Backend so that `Options options = {}` can be a default argument of its constructor.
struct Options {
  // How long a write waits for another connection's lock before failing "database is locked".
  std::chrono::milliseconds busy_timeout{5000};
  // Opens an existing file read-only: reads work, open_table of an absent table and every write
  // throw BackendError.
  bool read_only = false;
};

}  // namespace pksk::sqlite

namespace pksk::detail::sqlite {

struct CachedStatement {
  Statement stmt;
  bool in_use = false;
};

// What a table handle refers to: owned by the Backend, at a stable address, so handles stay
// valid when the Backend is moved.
struct TableState {
  sqlite3* db = nullptr;
  TableSpec spec;
  const std::string& name = spec.name;
  CachedStatement put;
  CachedStatement get;
  CachedStatement erase;
  // Prepared on first use: most tables only ever see a few of the shapes.
  std::array<CachedStatement, query_variant_count> queries;
  // Scans: from the start, and after an exclusive start key.
  std::array<CachedStatement, 2> scans;
};

}  // namespace pksk::detail::sqlite

namespace pksk::sqlite {

class Backend {
 public:
  using Options = sqlite::Options;

  // Cheap to copy; refers to state owned by the Backend that opened it, and is valid as long
  // as that Backend (or the one it was moved into) lives.
  class TableHandle {
   public:
    TableHandle() = default;  // refers to no table; using it throws pksk::Error
    const std::string& name() const { return state().spec.name; }
    const TableSpec& spec() const { return state().spec; }
    friend bool operator==(const TableHandle&, const TableHandle&) = default;

   private:
    friend class Backend;
    explicit TableHandle(detail::sqlite::TableState* state) : state_(state) {}
    detail::sqlite::TableState& state() const {
      if (state_ == nullptr) throw Error("pksk::sqlite: use of an empty TableHandle");
      return *state_;
    }
    detail::sqlite::TableState* state_ = nullptr;
  };

  // `path` is a file name (created if absent unless read_only) or ":memory:".
  explicit Backend(std::string path, Options options = {})
      : path_(std::move(path)), options_(options) {
    namespace ds = detail::sqlite;
    // The headers may be newer than the library the program is linked or loaded with.
    if (sqlite3_libversion_number() < 3037000) {
      throw Error(std::string("pksk::sqlite: needs SQLite 3.37 or later, found ") +
                  sqlite3_libversion());
    }
    const int flags =
        (options_.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
        SQLITE_OPEN_NOMUTEX;
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path_.c_str(), &raw, flags, nullptr);
    conn_.reset(raw);  // open_v2 hands out a handle (to close) even when it fails
    if (rc != SQLITE_OK) ds::throw_failure(raw, rc, {}, open_operation());
    sqlite3* db = conn_.get();

    const auto timeout = options_.busy_timeout.count();
    ds::check(
        db, sqlite3_busy_timeout(db, timeout > 0x7fffffff ? 0x7fffffff : static_cast<int>(timeout)),
        {}, open_operation());

    // Byte order and the non-UTF-8 begins_with bound both need keys stored as UTF-8 as given;
    // a UTF-16 database would transcode them. The pragma only affects a still empty file.
    if (!options_.read_only) pragma("PRAGMA encoding = 'UTF-8'");
    if (const std::string encoding = pragma("PRAGMA encoding"); encoding != "UTF-8") {
      throw Error("pksk::sqlite: \"" + path_ + "\" uses the " + encoding +
                  " encoding; pksk needs a UTF-8 database");
    }
    if (is_file() && !options_.read_only) {
      if (const std::string mode = pragma("PRAGMA journal_mode = WAL"); mode != "wal") {
        throw BackendError("pksk::sqlite: " + open_operation() +
                           " failed: could not switch to WAL (journal_mode is " + mode + ")");
      }
    }
    // Durable at checkpoints, consistent always: WAL's recommended trade-off.
    pragma("PRAGMA synchronous = NORMAL");
    ds::check_storage_format(db, path_);
  }

  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  Backend(Backend&& other) noexcept = default;
  Backend& operator=(Backend&& other) noexcept {
    if (this != &other) {
      tables_.clear();  // statements before their connection
      for (auto& stmt : control_) stmt.reset();
      conn_ = std::move(other.conn_);
      tables_ = std::move(other.tables_);
      other.tables_.clear();
      control_ = std::move(other.control_);
      path_ = std::move(other.path_);
      options_ = other.options_;
    }
    return *this;
  }
  // tables_ and control_ are declared after conn_, so the statements are finalized before the
  // connection is closed.
  ~Backend() = default;

  const std::string& path() const noexcept { return path_; }
  // For what pksk does not wrap (backups, inspection); do not close it or change its schema.
  sqlite3* native_handle() const noexcept { return conn_.get(); }

  static constexpr BodyFormat body_format = BodyFormat::json;

  // Creates the table if absent, or checks that it has exactly pksk's schema for this spec.
  TableHandle open_table(const TableSpec& spec) {
    namespace ds = detail::sqlite;
    sqlite3* db = connection();
    ds::validate_table_name(spec.name);
    ds::validate_attribute_names(spec);
    for (const auto& table : tables_) {
      if (ds::iequals_ascii(table->spec.name, spec.name) &&
          table->spec.pk_attribute == spec.pk_attribute &&
          table->spec.sk_attribute == spec.sk_attribute &&
          table->spec.type_attribute == spec.type_attribute) {
        return TableHandle(table.get());
      }
    }

    if (!ds::table_info(db, spec.name).exists) {
      // IF NOT EXISTS: another connection may create it between the look and the create; the
      // check below then judges whatever it created.
      ds::record_storage_format(db, spec.name);
      ds::for_each_row(db, ds::create_table_sql(spec, true), {}, spec.name,
                       "open_table (creating it)", [](sqlite3_stmt*) {});
    }
    const ds::TableInfo info = ds::table_info(db, spec.name);
    const std::vector<std::string> diffs = ds::schema_differences(db, spec, info);
    if (!diffs.empty()) {
      std::string msg = "pksk::sqlite: table \"" + spec.name + "\" in \"" + path_ +
                        "\" exists with a schema pksk cannot use: ";
      for (std::size_t i = 0; i < diffs.size(); ++i) msg += (i == 0 ? "" : "; ") + diffs[i];
      msg += ". Expected: " + ds::create_table_sql(spec) +
             ". pksk never alters an existing table; migrate it or use another name";
      throw Error(msg);
    }

    auto state = std::make_unique<ds::TableState>();
    state->db = db;
    state->spec = spec;
    state->put.stmt = ds::prepare(db, ds::put_sql(spec), spec.name, "open_table (preparing put)");
    state->get.stmt = ds::prepare(db, ds::get_sql(spec), spec.name, "open_table (preparing get)");
    state->erase.stmt =
        ds::prepare(db, ds::erase_sql(spec), spec.name, "open_table (preparing erase)");
    tables_.push_back(std::move(state));
    return TableHandle(tables_.back().get());
  }

  // Calls visit(ItemView) with views valid only during the call: type and body point into
  // SQLite's memory, pk and sk are the caller's own (byte-equal to the stored keys).
  template <class Visitor>
  bool get(TableHandle table, ItemKey key, Visitor&& visit) {
    detail::sqlite::TableState& t = state(table);
    return read_item(t, key, "get", visit);
  }

  // Writes the item, replacing any with its key; with a condition, only if it holds on the
  // stored item (or on no attributes at all when there is none), else ConditionFailed.
  void put(TableHandle table, const PutRequest& request) {
    detail::sqlite::TableState& t = state(table);
    if (request.condition == nullptr) {
      // One statement, hence atomic in autocommit mode: a failed put leaves no trace.
      insert(t, request.item);
      return;
    }
    WriteTransaction transaction(*this, t, "put");
    require(t, "put", {request.item.pk, request.item.sk}, *request.condition,
            load(t, {request.item.pk, request.item.sk}));
    insert(t, request.item);
    transaction.commit();
  }

  // DynamoDB's UpdateItem: applies the actions to the stored item, or to a new one holding only
  // its key and type, and hands the item as written to visit(ItemView).
  template <class Visitor>
  void update(TableHandle table, const UpdateRequest& request, Visitor&& visit) {
    detail::sqlite::TableState& t = state(table);
    WriteTransaction transaction(*this, t, "update");
    std::optional<AttributeValue> item = load(t, request.key);
    if (request.condition != nullptr) require(t, "update", request.key, *request.condition, item);
    const Stored stored = updated(t, request, std::move(item));
    insert(t, stored.view());
    transaction.commit();
    visit(stored.view());
  }

  // Removes the item; with a condition, only if it holds. True if an item was removed.
  bool erase(TableHandle table, const EraseRequest& request) {
    detail::sqlite::TableState& t = state(table);
    if (request.condition == nullptr) return remove(t, request.key);
    WriteTransaction transaction(*this, t, "erase");
    require(t, "erase", request.key, *request.condition, load(t, request.key));
    const bool removed = remove(t, request.key);
    transaction.commit();
    return removed;
  }

  // All or nothing: every condition is evaluated first, on the items as they were, and one that
  // fails cancels the whole with a reason per request (DynamoDB's CancellationReasons); then the
  // writes are made in order inside the same SQLite transaction, which any failure rolls back.
  // The caller has checked DynamoDB's limits (at most 100 requests, one per item).
  void transact(TableHandle table, std::span<const WriteRequest> writes) {
    detail::sqlite::TableState& t = state(table);
    WriteTransaction transaction(*this, t, "transaction");
    std::vector<std::optional<AttributeValue>> items(writes.size());
    std::vector<CancellationReason> reasons(writes.size(), CancellationReason::none);
    bool canceled = false;
    for (std::size_t i = 0; i < writes.size(); ++i) {
      // The stored item is read for a condition to judge and for an update to apply to; an
      // unconditional put or erase does not look at it, as put and erase alone do not.
      const Condition* condition = condition_of(writes[i]);
      if (condition == nullptr && !std::holds_alternative<UpdateRequest>(writes[i])) continue;
      items[i] = load(t, key_of(writes[i]));
      if (condition != nullptr && !evaluate(*condition, items[i] ? *items[i] : no_item())) {
        reasons[i] = CancellationReason::condition_failed;
        canceled = true;
      }
    }
    if (canceled) throw_canceled(t, reasons);
    for (std::size_t i = 0; i < writes.size(); ++i) {
      if (const auto* put = std::get_if<PutRequest>(&writes[i])) {
        insert(t, put->item);
      } else if (const auto* update = std::get_if<UpdateRequest>(&writes[i])) {
        try {
          const Stored stored = updated(t, *update, std::move(items[i]));
          insert(t, stored.view());
        } catch (const ValidationError&) {
          reasons[i] = CancellationReason::validation;
          throw_canceled(t, reasons);
        } catch (const ItemTooLarge&) {
          reasons[i] = CancellationReason::item_too_large;
          throw_canceled(t, reasons);
        }
      } else if (const auto* erase = std::get_if<EraseRequest>(&writes[i])) {
        remove(t, erase->key);
      }
    }
    transaction.commit();
  }

  // Unconditional puts and erases in one SQLite transaction: an embedded file has no
  // throughput limit to hand items back for, so none is ever unprocessed.
  void batch_write(TableHandle table, std::span<const WriteRequest> writes,
                   std::vector<std::size_t>& unprocessed) {
    detail::sqlite::TableState& t = state(table);
    unprocessed.clear();
    WriteTransaction transaction(*this, t, "batch write");
    for (const WriteRequest& write : writes) {
      if (const auto* put = std::get_if<PutRequest>(&write)) {
        insert(t, put->item);
      } else if (const auto* erase = std::get_if<EraseRequest>(&write)) {
        remove(t, erase->key);
      } else {
        throw ValidationError("pksk::sqlite: batch write on table \"" + t.name +
                              "\" holds an update or a check; a batch takes puts and erases only");
      }
    }
    transaction.commit();
  }

  // visit(i, item) for each keys[i] found, in the order of the keys.
  template <class Visitor>
  void batch_get(TableHandle table, std::span<const ItemKey> keys, Visitor&& visit,
                 std::vector<std::size_t>& unprocessed) {
    detail::sqlite::TableState& t = state(table);
    unprocessed.clear();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      read_item(t, keys[i], "batch get", [&](const ItemView& item) { visit(i, item); });
    }
  }

  // One page of a partition in sort-key byte order, each item handed to visit(ItemView) as
  // views into SQLite's memory valid only during the call, with DynamoDB's paging: the page ends
  // after `limit` items or once the items read reach `page_bytes` (the item that crosses the budget
  // is part of the page), and then names its last item as the cursor, even if nothing follows.
  // A page_bytes of 0 thus ends every page after one item.
  template <class Visitor>
  QueryOutcome query(TableHandle table, const RawQuery& query, Visitor&& visit) {
    namespace ds = detail::sqlite;
    using Op = KeyCondition::Op;
    ds::TableState& t = state(table);

    if (!query.index.empty()) {
      throw ValidationError("pksk::sqlite: query on table \"" + t.name + "\": no index \"" +
                            std::string(query.index) + "\" (secondary indexes are not here yet)");
    }
    const KeyCondition* cond = query.sk;
    ds::RangeShape shape = ds::RangeShape::any;
    std::optional<std::string> prefix_end;
    if (cond != nullptr) {
      switch (cond->op) {
        case Op::any:
          shape = ds::RangeShape::any;
          break;
        case Op::eq:
          shape = ds::RangeShape::eq;
          break;
        case Op::lt:
          shape = ds::RangeShape::lt;
          break;
        case Op::le:
          shape = ds::RangeShape::le;
          break;
        case Op::gt:
          shape = ds::RangeShape::gt;
          break;
        case Op::ge:
          shape = ds::RangeShape::ge;
          break;
        case Op::between:
          // DynamoDB rejects an empty range with a ValidationException rather than returning
          // nothing; so must code that is developed here.
          if (std::string_view(cond->first) > std::string_view(cond->second)) {
            throw ValidationError("pksk::sqlite: query on table \"" + t.name + "\": between(\"" +
                                  cond->first + "\", \"" + cond->second +
                                  "\") has a lower bound greater than its upper bound");
          }
          shape = ds::RangeShape::between;
          break;
        case Op::begins_with:
          prefix_end = ds::prefix_successor(cond->first);
          shape = prefix_end ? ds::RangeShape::prefix_bounded : ds::RangeShape::prefix_unbounded;
          break;
      }
    }
    const bool has_start = query.exclusive_start_sk.has_value();
    ds::CachedStatement& cached = query_statement(
        t, ds::query_variant(shape, query.forward, has_start), shape, query.forward, has_start);

    ds::StatementUse use(cached.stmt.get(), cached.in_use, t.name, "query");
    sqlite3_stmt* s = use.get();
    bind(t, s, 1, query.pk, "query", query.pk, {});
    if (shape != ds::RangeShape::any) bind(t, s, 2, cond->first, "query", query.pk, {});
    if (shape == ds::RangeShape::between) bind(t, s, 3, cond->second, "query", query.pk, {});
    if (shape == ds::RangeShape::prefix_bounded) bind(t, s, 3, *prefix_end, "query", query.pk, {});
    if (has_start) bind(t, s, 4, *query.exclusive_start_sk, "query", query.pk, {});

    std::optional<ds::RowFilter> filter;
    if (query.filter != nullptr) filter.emplace(*query.filter, t.spec);

    QueryOutcome outcome;
    std::size_t bytes = 0;
    for (;;) {
      const int rc = sqlite3_step(s);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW)
        ds::throw_failure(t.db, rc, t.name, key_operation("query", query.pk, {}));
      const ItemView item{query.pk, ds::column_view(s, 0), ds::column_view(s, 1),
                          ds::column_view(s, 2),
                          static_cast<std::size_t>(sqlite3_column_int64(s, 3))};
      ++outcome.evaluated;
      bytes += item.size;
      // The filter comes after the item has counted, as DynamoDB's does.
      if (!filter || (*filter)(item)) visit(item);
      const bool at_limit = query.limit != 0 && outcome.evaluated >= query.limit;
      if (at_limit || bytes >= query.page_bytes) {
        // Still SQLite's memory: the statement has not stepped since.
        if (query.last_key_at_limit || bytes >= query.page_bytes) {
          outcome.last_evaluated_sk.emplace(item.sk);
        }
        break;
      }
    }
    return outcome;
  }

  // One page of a scan, in (pk, sk) byte order, with the paging of query(); with segments > 1,
  // only the items of `segment` (by a hash of the partition key) are read into the page, count
  // and end it. Every segment walks the table's B-tree and skips the others' rows by their key
  // alone, before their body is looked at.
  template <class Visitor>
  ScanOutcome scan(TableHandle table, const RawScan& scan, Visitor&& visit) {
    namespace ds = detail::sqlite;
    ds::TableState& t = state(table);
    const std::size_t segments = scan.segments == 0 ? 1 : scan.segments;
    if (scan.segment >= segments) {
      throw ValidationError("pksk::sqlite: scan of table \"" + t.name + "\": segment " +
                            std::to_string(scan.segment) + " of " + std::to_string(segments));
    }
    if (scan.exclusive_start && segments > 1 &&
        ds::segment_of(scan.exclusive_start->pk, segments) != scan.segment) {
      throw ValidationError("pksk::sqlite: scan of table \"" + t.name +
                            "\": the start key is not in segment " + std::to_string(scan.segment));
    }
    const bool has_start = scan.exclusive_start.has_value();
    ds::CachedStatement& cached = t.scans[has_start ? 1 : 0];
    if (!cached.stmt) {
      cached.stmt =
          ds::prepare(t.db, ds::scan_sql(t.spec, has_start), t.name, "scan (preparing it)");
    }
    ds::StatementUse use(cached.stmt.get(), cached.in_use, t.name, "scan");
    sqlite3_stmt* s = use.get();
    if (has_start) {
      bind(t, s, 1, scan.exclusive_start->pk, "scan", scan.exclusive_start->pk, {});
      bind(t, s, 2, scan.exclusive_start->sk, "scan", scan.exclusive_start->pk, {});
    }
    std::optional<ds::RowFilter> filter;
    if (scan.filter != nullptr) filter.emplace(*scan.filter, t.spec);

    ScanOutcome outcome;
    std::size_t bytes = 0;
    for (;;) {
      const int rc = sqlite3_step(s);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) ds::throw_failure(t.db, rc, t.name, "scan");
      const std::string_view pk = ds::column_view(s, 0);
      if (segments > 1 && ds::segment_of(pk, segments) != scan.segment) continue;
      const ItemView item{pk, ds::column_view(s, 1), ds::column_view(s, 2), ds::column_view(s, 3),
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

 private:
  // ---------------------------------------------------------------- writes, one item at a time

  // BEGIN IMMEDIATE takes the write lock before anything is read, so no other connection can
  // change the item between the read and the write; a transaction not committed is rolled back
  // however the scope is left (a failed condition, an exception from anywhere).
  class WriteTransaction {
   public:
    WriteTransaction(Backend& backend, const detail::sqlite::TableState& t, std::string_view what)
        : backend_(backend), table_(t.name), what_(what) {
      backend_.run_control(Control::begin, table_, what_);
    }
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;
    void commit() {
      backend_.run_control(Control::commit, table_, what_);
      done_ = true;
    }
    ~WriteTransaction() {
      if (!done_) backend_.rollback();
    }

   private:
    Backend& backend_;
    std::string_view table_;
    std::string_view what_;
    bool done_ = false;
  };

  // BEGIN IMMEDIATE, COMMIT and ROLLBACK, prepared once per connection on first use: every
  // conditional write, update, transaction and batch runs two of them, and sqlite3_exec would
  // parse and prepare each again (a few microseconds a write).
  enum class Control : unsigned char { begin, commit, rollback };
  static constexpr std::array<const char*, 3> control_sql{"BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"};

  sqlite3_stmt* control(Control which, std::string_view table, std::string_view operation) {
    detail::sqlite::Statement& stmt = control_[static_cast<std::size_t>(which)];
    if (!stmt) {
      const char* sql = control_sql[static_cast<std::size_t>(which)];
      stmt = detail::sqlite::prepare(connection(), sql, table,
                                     std::string(operation) + " (" + sql + ")");
    }
    return stmt.get();
  }

  void run_control(Control which, std::string_view table, std::string_view operation) {
    sqlite3_stmt* s = control(which, table, operation);
    const int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
      detail::sqlite::throw_failure(
          conn_.get(), rc, table,
          std::string(operation) + " (" + control_sql[static_cast<std::size_t>(which)] + ")");
    }
  }

  // Never throws: a failed write's scope is being left, and there may be no transaction left
  // to roll back (SQLite rolls some failures back itself).
  void rollback() noexcept {
    try {
      sqlite3_stmt* s = control(Control::rollback, {}, "rollback");
      sqlite3_step(s);
      sqlite3_reset(s);
    } catch (...) {
      sqlite3_exec(conn_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
  }

  void insert(detail::sqlite::TableState& t, const ItemView& item) {
    namespace ds = detail::sqlite;
    ds::StatementUse use(t.put.stmt.get(), t.put.in_use, t.name, "put");
    sqlite3_stmt* s = use.get();
    bind(t, s, 1, item.pk, "put", item.pk, item.sk);
    bind(t, s, 2, item.sk, "put", item.pk, item.sk);
    bind(t, s, 3, item.type, "put", item.pk, item.sk);
    bind(t, s, 4, item.body, "put", item.pk, item.sk);
    sqlite3_bind_int64(s, 5, static_cast<sqlite3_int64>(item.size));
    const int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE)
      ds::throw_failure(t.db, rc, t.name, key_operation("put", item.pk, item.sk));
  }

  bool remove(detail::sqlite::TableState& t, ItemKey key) {
    namespace ds = detail::sqlite;
    ds::StatementUse use(t.erase.stmt.get(), t.erase.in_use, t.name, "erase");
    sqlite3_stmt* s = use.get();
    bind(t, s, 1, key.pk, "erase", key.pk, key.sk);
    bind(t, s, 2, key.sk, "erase", key.pk, key.sk);
    const int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE)
      ds::throw_failure(t.db, rc, t.name, key_operation("erase", key.pk, key.sk));
    return sqlite3_changes64(t.db) > 0;
  }

  template <class Visitor>
  bool read_item(detail::sqlite::TableState& t, ItemKey key, std::string_view operation,
                 Visitor&& visit) {
    namespace ds = detail::sqlite;
    ds::StatementUse use(t.get.stmt.get(), t.get.in_use, t.name, operation);
    sqlite3_stmt* s = use.get();
    bind(t, s, 1, key.pk, operation, key.pk, key.sk);
    bind(t, s, 2, key.sk, operation, key.pk, key.sk);
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) return false;
    if (rc != SQLITE_ROW)
      ds::throw_failure(t.db, rc, t.name, key_operation(operation, key.pk, key.sk));
    visit(ItemView{key.pk, key.sk, ds::column_view(s, 0), ds::column_view(s, 1),
                   static_cast<std::size_t>(sqlite3_column_int64(s, 2))});
    return true;
  }

  // The stored item with every attribute (keys and type included), as conditions see it.
  std::optional<AttributeValue> load(detail::sqlite::TableState& t, ItemKey key) {
    std::optional<AttributeValue> item;
    read_item(t, key, "read for a condition", [&](const ItemView& row) {
      AttributeValue body;
      try {
        body = parse_plain_body(row.body);
      } catch (const DecodeError& e) {
        throw DecodeError("pksk::sqlite: table \"" + t.name + "\": the stored item " +
                          key_text(key) + " has a body that is not a JSON object: " + e.what());
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

  void require(const detail::sqlite::TableState& t, std::string_view operation, ItemKey key,
               const Condition& condition, const std::optional<AttributeValue>& item) const {
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

  // The item after an update: actions applied in order on the stored item (or on the key
  // alone), type set, body rendered back to plain JSON and measured as DynamoDB measures.
  Stored updated(const detail::sqlite::TableState& t, const UpdateRequest& request,
                 std::optional<AttributeValue> current) const {
    AttributeValue item = current ? std::move(*current) : AttributeValue::empty_map();
    if (!current) {
      item.assign(t.spec.pk_attribute, AttributeValue::from_string(std::string(request.key.pk)));
      item.assign(t.spec.sk_attribute, AttributeValue::from_string(std::string(request.key.sk)));
    }
    for (const UpdateAction& action : request.actions) {
      const std::string& top = action.path.steps.front().name;
      if (top == t.spec.pk_attribute || top == t.spec.sk_attribute) {
        throw ValidationError("pksk table \"" + t.name + "\": update of " + key_text(request.key) +
                              ": " + top + " is part of the key and cannot be updated");
      }
      apply(action, item);
    }
    item.assign(t.spec.type_attribute, AttributeValue::from_string(std::string(request.type)));
    Stored out;
    out.pk = request.key.pk;
    out.sk = request.key.sk;
    out.type = request.type;
    out.size = attributes_size(item);
    if (out.size > max_item_bytes) {
      throw ItemTooLarge("pksk table \"" + t.name + "\": update of " + key_text(request.key) +
                         " would make the item " + std::to_string(out.size) +
                         " bytes, over DynamoDB's limit of " + std::to_string(max_item_bytes));
    }
    // The body is every attribute but the keys and the type, written straight from the item
    // (no second map); a plain JSON body is seldom much longer than DynamoDB's measure.
    out.body.reserve(out.size + out.size / 4 + 16);
    append_plain_json_members(out.body, item, [&](std::string_view name) {
      return name == t.spec.pk_attribute || name == t.spec.sk_attribute ||
             name == t.spec.type_attribute;
    });
    return out;
  }

  [[noreturn]] static void throw_canceled(const detail::sqlite::TableState& t,
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

  bool is_file() const noexcept { return !path_.empty() && path_ != ":memory:"; }
  std::string open_operation() const { return "open of \"" + path_ + "\""; }

  sqlite3* connection() const {
    if (!conn_) throw Error("pksk::sqlite: use of a moved-from Backend");
    return conn_.get();
  }

  detail::sqlite::TableState& state(const TableHandle& table) const {
    detail::sqlite::TableState& t = table.state();
    if (t.db != connection()) {
      throw Error("pksk::sqlite: the handle of table \"" + t.name +
                  "\" belongs to another Backend");
    }
    return t;
  }

  // Runs a pragma and returns the first column of its first row, if any.
  std::string pragma(std::string_view sql) {
    std::string value;
    detail::sqlite::for_each_row(conn_.get(), sql, {}, {}, open_operation(), [&](sqlite3_stmt* s) {
      if (value.empty()) {
        value = std::string(detail::sqlite::column_view(s, 0));
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

  static void bind(const detail::sqlite::TableState& t, sqlite3_stmt* s, int index,
                   std::string_view text, std::string_view operation, std::string_view pk,
                   std::optional<std::string_view> sk) {
    const int rc = detail::sqlite::bind_text(s, index, text);
    if (rc != SQLITE_OK) {
      detail::sqlite::throw_failure(t.db, rc, t.name, key_operation(operation, pk, sk));
    }
  }

  static detail::sqlite::CachedStatement& query_statement(detail::sqlite::TableState& t,
                                                          std::size_t variant,
                                                          detail::sqlite::RangeShape shape,
                                                          bool forward, bool has_start) {
    detail::sqlite::CachedStatement& cached = t.queries[variant];
    if (!cached.stmt) {
      cached.stmt = detail::sqlite::prepare(
          t.db, detail::sqlite::query_sql(t.spec, shape, forward, has_start), t.name,
          "query (preparing it)");
    }
    return cached;
  }

  std::string path_;
  Options options_;
  detail::sqlite::Connection conn_;
  std::vector<std::unique_ptr<detail::sqlite::TableState>> tables_;
  std::array<detail::sqlite::Statement, 3> control_;  // Control's statements, after conn_
};

static_assert(pksk::Backend<Backend>);

}  // namespace pksk::sqlite
