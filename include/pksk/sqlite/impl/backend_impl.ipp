// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::sqlite::Backend::Impl, declared: what the Backend's operations share, one member
// function per step, each defined in the room of its concern (the .ipp named beside each group
// below). Included by those rooms; the Backend's own definitions are in backend.ipp.

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
#include "../../backend/emulation.hpp"
#include "../../backend/messages.hpp"
#include "../../backend/ttl.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../codec/body_patch.hpp"
#include "../../codec/item_size.hpp"
#include "../../detail/row_arena.hpp"
#include "../../error.hpp"
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
  static constexpr std::string_view backend_name = detail::backend_name;

  // connections.ipp: the file, its pragmas, the connection of each thread, a call's lease.
  const std::string& path() const noexcept;
  void construct(std::string path, Options options);
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
  Lease connection() const;
  Call enter(const TableHandle& table) const;
  detail::ConnectionState& thread_connection();
  detail::ConnectionState& adopt(std::unique_ptr<detail::ConnectionState> conn);
  std::unique_ptr<detail::ConnectionState> open_connection() const;
  bool is_file() const noexcept;
  std::string open_operation() const;
  std::string pragma(sqlite3* db, std::string_view sql) const;

  // schema.ipp: open_table, creating or checking tables and their indexes.
  TableHandle open_table(const backend::TableSpec& spec);
  void add_indexes(detail::ConnectionState& conn, const backend::TableSpec& spec) const;
  std::size_t sweep_expired(TableHandle table);

  // statements.ipp: a call's prepared statements, binding, the key limits.
  // A statement's SQL and the operation its preparation's error names.
  struct StatementText {
    std::string sql;
    std::string what;
  };
  template <class Text>
  static detail::CachedStatement& prepared(Call& k, detail::CachedStatement& cached, Text&& text);
  static sqlite3_stmt* statement(Call& k, detail::CachedStatement& cached,
                                 std::string (*sql)(const backend::TableSpec&),
                                 std::string_view what);
  static int step_write(Call& k, sqlite3_stmt* s);
  static std::string key_text(backend::ItemKey key);
  // The key limits of backend/emulation.hpp, named for this backend and table.
  static void check_key(const detail::TableState& t, std::string_view operation,
                        backend::ItemKey key);
  static void check_query_key(const detail::TableState& t, const backend::RawQuery& query);
  static void check_projected(const detail::TableState& t, const TableIndex& index,
                              const backend::Condition& filter);
  static std::string key_operation(std::string_view operation, std::string_view pk,
                                   std::optional<std::string_view> sk);
  static void bind(Call& k, sqlite3_stmt* s, int index, std::string_view text,
                   std::string_view operation, std::string_view pk,
                   std::optional<std::string_view> sk);

  // reads.ipp: get, batch_get, query and scan, with DynamoDB's paging.
  bool get(TableHandle table, backend::ItemKey key, backend::ItemVisitor visit);
  void batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                 backend::IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed);
  void transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                    backend::IndexedItemVisitor visit);
  backend::QueryOutcome query(TableHandle table, const backend::RawQuery& query,
                              backend::ItemVisitor visit);
  backend::ScanOutcome scan(TableHandle table, const backend::RawScan& scan,
                            backend::ItemVisitor visit);
  // `expired`: whether an item past its TTL and not yet swept is seen (by a write's conditions
  // and actions, as DynamoDB's see it) or absent (to reads).
  bool read_item(Call& k, backend::ItemKey key, std::string_view operation,
                 backend::ItemVisitor visit, bool expired = false);
  static detail::CachedStatement& query_statement(Call& k, detail::RangeShape shape, bool forward,
                                                  bool has_start, bool sized);
  static detail::CachedStatement& read_size_statement(Call& k, detail::RangeShape shape,
                                                      bool forward, bool has_start);
  template <class ReadSize, class SizedAfter>
  backend::QueryOutcome read_table_page(Call& k, sqlite3_stmt* s, const backend::RawQuery& query,
                                        detail::RowFilter* filter, backend::ItemVisitor visit,
                                        ReadSize& read_size, SizedAfter& sized_after);
  backend::QueryOutcome read_index_page(Call& k, const TableIndex& index, sqlite3_stmt* s,
                                        const backend::RawQuery& query, detail::RowFilter* filter,
                                        backend::ItemVisitor visit);
  static detail::CachedStatement& index_query_statement(Call& k, const TableIndex& index,
                                                        std::size_t variant,
                                                        detail::RangeShape shape, bool forward,
                                                        bool has_start);
  static detail::TableStatements::IndexStatements& index_statements(Call& k,
                                                                    const TableIndex& index);
  static std::string index_sort_key_of(Call& k, const TableIndex& index, std::string_view pk,
                                       std::string_view sk);

  // writes.ipp: put, update and erase, their conditions, an update's new item.
  void put(TableHandle table, const backend::PutRequest& request);
  void update(TableHandle table, const backend::UpdateRequest& request, backend::ItemVisitor visit);
  bool erase(TableHandle table, const backend::EraseRequest& request);
  void insert(Call& k, const backend::ItemView& item);
  void rewrite(Call& k, const backend::ItemView& item);
  void bind_item(Call& k, sqlite3_stmt* s, const backend::ItemView& item,
                 std::string_view operation);
  bool remove(Call& k, backend::ItemKey key);
  // An item as the backend writes it: owns the text its view points into.
  struct Stored {
    std::string pk, sk, type, body;
    std::size_t size = 0;
    backend::ItemView view() const { return {pk, sk, type, body, size}; }
  };
  // The stored item as conditions see it; `row`, when given, gets a copy of it as stored.
  std::optional<AttributeValue> load(Call& k, backend::ItemKey key,
                                     std::optional<Stored>* row = nullptr);
  static const AttributeValue& no_item();
  // Whether `condition` holds on `item`; when it does not, a ConditionFailed, emplaced in
  // `failure` where the write asked so (backend::WriteReturns::failure: the caller then
  // returns, and its transaction rolls back), else thrown. `stored`, when given (the write asked
  // for it), is the item the ConditionFailed carries.
  [[nodiscard]] bool require(const detail::TableState& t, std::string_view operation,
                             backend::ItemKey key, const backend::Condition& condition,
                             const std::optional<AttributeValue>& item,
                             const std::optional<Stored>* stored,
                             std::optional<ConditionFailed>* failure) const;
  [[nodiscard]] bool require(const detail::TableState& t, std::string_view operation,
                             backend::ItemKey key, const backend::Condition& condition,
                             const AttributeValue* item, const std::optional<Stored>* stored,
                             std::optional<ConditionFailed>* failure) const;
  static void add_names(const backend::Condition& condition, std::vector<std::string_view>& names);
  static bool presence_only(const backend::UpdateAction& action) noexcept;
  template <class AlreadyApplied>
  static void apply_actions(const detail::TableState& t, const backend::UpdateRequest& request,
                            AttributeValue& item, AlreadyApplied&& already_applied);
  static void apply_actions(const detail::TableState& t, const backend::UpdateRequest& request,
                            AttributeValue& item);
  Stored updated(const detail::TableState& t, const backend::UpdateRequest& request,
                 std::optional<AttributeValue> current) const;
  [[noreturn, gnu::cold]] static void throw_not_an_object(const detail::TableState& t,
                                                          const backend::ItemKey& key,
                                                          const DecodeError& e);

  // transactions.ipp: transact and batch_write, several writes in one transaction.
  void transact(TableHandle table, std::span<const backend::WriteRequest> writes);
  void batch_write(TableHandle table, std::span<const backend::WriteRequest> writes,
                   std::vector<std::size_t>& unprocessed);
  [[noreturn]] static void throw_canceled(const detail::TableState& t,
                                          std::vector<CancellationReason> reasons);
};

}  // namespace pksk::sqlite
