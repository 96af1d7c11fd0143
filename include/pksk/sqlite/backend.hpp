#pragma once
// pksk::sqlite::Backend: the embedded reference backend. Each pksk table is one SQLite table
// (pk, sk, <type attribute>, body) keyed WITHOUT ROWID on (pk, sk), so an item collection is
// one contiguous B-tree range read in sort-key byte order, as DynamoDB reads a partition.
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
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../backend/backend.hpp"
#include "../error.hpp"
#include "../key/condition.hpp"
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
  std::string name;
  std::string type_attribute;
  CachedStatement put;
  CachedStatement get;
  CachedStatement erase;
  // Prepared on first use: most tables only ever see a few of the shapes.
  std::array<CachedStatement, query_variant_count> queries;
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
    const std::string& name() const { return state().name; }
    const std::string& type_attribute() const { return state().type_attribute; }
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
  }

  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  Backend(Backend&& other) noexcept = default;
  Backend& operator=(Backend&& other) noexcept {
    if (this != &other) {
      tables_.clear();  // statements before their connection
      conn_ = std::move(other.conn_);
      tables_ = std::move(other.tables_);
      other.tables_.clear();
      path_ = std::move(other.path_);
      options_ = other.options_;
    }
    return *this;
  }
  // tables_ is declared after conn_, so the statements are finalized before the connection
  // is closed.
  ~Backend() = default;

  const std::string& path() const noexcept { return path_; }
  // For what pksk does not wrap (backups, inspection); do not close it or change its schema.
  sqlite3* native_handle() const noexcept { return conn_.get(); }

  // Creates the table if absent, or checks that it has exactly pksk's schema.
  TableHandle open_table(const TableSpec& spec) {
    namespace ds = detail::sqlite;
    sqlite3* db = connection();
    ds::validate_table_name(spec.name);
    ds::validate_type_attribute(spec.name, spec.type_attribute);
    for (const auto& table : tables_) {
      if (ds::iequals_ascii(table->name, spec.name) &&
          table->type_attribute == spec.type_attribute) {
        return TableHandle(table.get());
      }
    }

    if (!ds::table_info(db, spec.name).exists) {
      // IF NOT EXISTS: another connection may create it between the look and the create; the
      // check below then judges whatever it created.
      const std::string sql = ds::create_table_sql(spec.name, spec.type_attribute, true);
      ds::for_each_row(db, sql, {}, spec.name, "open_table (creating it)", [](sqlite3_stmt*) {});
    }
    const ds::TableInfo info = ds::table_info(db, spec.name);
    const std::vector<std::string> diffs =
        ds::schema_differences(db, spec.name, spec.type_attribute, info);
    if (!diffs.empty()) {
      std::string msg = "pksk::sqlite: table \"" + spec.name + "\" in \"" + path_ +
                        "\" exists with a schema pksk cannot use: ";
      for (std::size_t i = 0; i < diffs.size(); ++i) msg += (i == 0 ? "" : "; ") + diffs[i];
      msg += ". Expected: " + ds::create_table_sql(spec.name, spec.type_attribute) +
             ". pksk never alters an existing table; migrate it or use another name";
      throw Error(msg);
    }

    auto state = std::make_unique<ds::TableState>();
    state->db = db;
    state->name = spec.name;
    state->type_attribute = spec.type_attribute;
    state->put.stmt = ds::prepare(db, ds::put_sql(spec.name, spec.type_attribute), spec.name,
                                  "open_table (preparing put)");
    state->get.stmt = ds::prepare(db, ds::get_sql(spec.name, spec.type_attribute), spec.name,
                                  "open_table (preparing get)");
    state->erase.stmt =
        ds::prepare(db, ds::erase_sql(spec.name), spec.name, "open_table (preparing erase)");
    tables_.push_back(std::move(state));
    return TableHandle(tables_.back().get());
  }

  // Inserts or replaces the item (pk, sk): one statement, so all or nothing.
  void put(TableHandle table, const ItemView& item) {
    namespace ds = detail::sqlite;
    ds::TableState& t = state(table);
    ds::StatementUse use(t.put.stmt.get(), t.put.in_use, t.name, "put");
    sqlite3_stmt* s = use.get();
    bind(t, s, 1, item.pk, "put", item.pk, item.sk);
    bind(t, s, 2, item.sk, "put", item.pk, item.sk);
    bind(t, s, 3, item.type, "put", item.pk, item.sk);
    bind(t, s, 4, item.body, "put", item.pk, item.sk);
    const int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE)
      ds::throw_failure(t.db, rc, t.name, key_operation("put", item.pk, item.sk));
  }

  // Calls visit(ItemView) with views valid only during the call: type and body point into
  // SQLite's memory, pk and sk are the caller's own (byte-equal to the stored keys).
  template <class Visitor>
  bool get(TableHandle table, std::string_view pk, std::string_view sk, Visitor&& visit) {
    namespace ds = detail::sqlite;
    ds::TableState& t = state(table);
    ds::StatementUse use(t.get.stmt.get(), t.get.in_use, t.name, "get");
    sqlite3_stmt* s = use.get();
    bind(t, s, 1, pk, "get", pk, sk);
    bind(t, s, 2, sk, "get", pk, sk);
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) return false;
    if (rc != SQLITE_ROW) ds::throw_failure(t.db, rc, t.name, key_operation("get", pk, sk));
    visit(ItemView{pk, sk, ds::column_view(s, 0), ds::column_view(s, 1)});
    return true;
  }

  bool erase(TableHandle table, std::string_view pk, std::string_view sk) {
    namespace ds = detail::sqlite;
    ds::TableState& t = state(table);
    ds::StatementUse use(t.erase.stmt.get(), t.erase.in_use, t.name, "erase");
    sqlite3_stmt* s = use.get();
    bind(t, s, 1, pk, "erase", pk, sk);
    bind(t, s, 2, sk, "erase", pk, sk);
    const int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE) ds::throw_failure(t.db, rc, t.name, key_operation("erase", pk, sk));
    return sqlite3_changes64(t.db) > 0;
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
            throw Error("pksk::sqlite: query on table \"" + t.name + "\": between(\"" +
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

    QueryOutcome outcome;
    std::size_t bytes = 0;
    for (;;) {
      const int rc = sqlite3_step(s);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW)
        ds::throw_failure(t.db, rc, t.name, key_operation("query", query.pk, {}));
      const ItemView item{query.pk, ds::column_view(s, 0), ds::column_view(s, 1),
                          ds::column_view(s, 2)};
      ++outcome.evaluated;
      bytes += item_size(t.type_attribute, item);
      visit(item);
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

 private:
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
          t.db, detail::sqlite::query_sql(t.name, t.type_attribute, shape, forward, has_start),
          t.name, "query (preparing it)");
    }
    return cached;
  }

  std::string path_;
  Options options_;
  detail::sqlite::Connection conn_;
  std::vector<std::unique_ptr<detail::sqlite::TableState>> tables_;
};

static_assert(pksk::Backend<Backend>);

}  // namespace pksk::sqlite
