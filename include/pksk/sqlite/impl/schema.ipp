// SPDX-License-Identifier: BSL-1.0
#pragma once
// open_table: creating a table and its indexes, or checking that the stored ones are exactly
// pksk's (the SQL and the checks are detail/schema.hpp's), and the table's first statements.

#include "backend_impl.ipp"

namespace pksk::sqlite {

inline auto Backend::Impl::open_table(const backend::TableSpec& spec) -> TableHandle {
  detail::validate_table_name(spec.name);
  detail::validate_attribute_names(spec);
  Lease lease = connection();
  sqlite3* db = lease.conn.db();
  // Under the mutex: two threads opening one table get one state.
  const std::lock_guard lock(shared_->mutex);
  for (const auto& table : shared_->tables) {
    if (detail::iequals_ascii(table->spec.name, spec.name) &&
        table->spec.pk_attribute == spec.pk_attribute &&
        table->spec.sk_attribute == spec.sk_attribute && table->spec.sk_type == spec.sk_type &&
        table->spec.type_attribute == spec.type_attribute && table->spec.indexes == spec.indexes &&
        table->spec.ttl_attribute == spec.ttl_attribute && !table->spec.ttl_clock &&
        !spec.ttl_clock) {
      return TableHandle(table.get());
    }
  }

  if (!detail::table_info(db, spec.name).exists) {
    if (shared_->options.read_only) {
      throw BackendError(errc::missing_table, detail::context(spec.name) + "does not exist in " +
                                                  pksk::detail::quoted(path()) +
                                                  ", which is open read-only");
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
    std::string msg = detail::context(spec.name) + "exists in " + pksk::detail::quoted(path()) +
                      " with a schema pksk cannot use: ";
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
  st.put.stmt = detail::prepare(db, detail::put_sql(spec), spec.name, "open_table (preparing put)");
  st.rewrite.stmt =
      detail::prepare(db, detail::rewrite_sql(spec), spec.name, "open_table (preparing update)");
  st.get.stmt = detail::prepare(db, detail::get_sql(spec), spec.name, "open_table (preparing get)");
  st.erase.stmt =
      detail::prepare(db, detail::erase_sql(spec), spec.name, "open_table (preparing erase)");
  shared_->tables.push_back(std::move(state));
  return TableHandle(shared_->tables.back().get());
}

// Creates the spec's indexes the table does not have yet: their key columns (generated from
// the body, so that items written from now on are indexed) and the partial SQLite index. The
// items already stored lack the index key attributes until Table::backfill_index writes them.
inline void Backend::Impl::add_indexes(detail::ConnectionState& conn,
                                       const backend::TableSpec& spec) const {
  if (spec.indexes.empty()) return;
  sqlite3* db = conn.db();
  const auto complete = [&] {
    std::vector<std::string> diffs;
    const bool indexes_there = detail::missing_indexes(db, spec, diffs).empty();
    const bool none_missing = indexes_there && detail::missing_index_columns(db, spec).empty();
    if (!diffs.empty()) {
      std::string msg = detail::context(spec.name) + "in " + pksk::detail::quoted(path()) + ": ";
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
    throw BackendError(errc::access_denied,
                       detail::context(spec.name) + "in " + pksk::detail::quoted(path()) +
                           ", lacks some of its indexes' columns or SQLite indexes, and the file "
                           "is open read-only");
  }
  const std::string_view operation = "open_table (adding its indexes)";
  detail::run_control(conn, detail::Control::begin, spec.name, operation);
  try {
    // Looked at again under the write lock: another connection may have added them meanwhile.
    for (const std::string& column : detail::missing_index_columns(db, spec)) {
      detail::for_each_row(db, detail::add_index_column_sql(spec, column), {}, spec.name, operation,
                           [](sqlite3_stmt*) {});
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

}  // namespace pksk::sqlite
