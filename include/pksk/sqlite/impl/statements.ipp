// SPDX-License-Identifier: BSL-1.0
#pragma once
// What every call on a table shares: its prepared statements (prepared on first use per
// connection), binding text to them with errors that name the key, and the key limits
// DynamoDB enforces (backend/emulation.hpp), checked before anything is read or written.

#include "backend_impl.ipp"

namespace pksk::sqlite {

// A table's statement on this connection, prepared on its first use here. text() gives its
// StatementText and is called only then, so that neither string is built once it is prepared.
template <class Text>
inline detail::CachedStatement& Backend::Impl::prepared(Call& k, detail::CachedStatement& cached,
                                                        Text&& text) {
  if (!cached.stmt) [[unlikely]] {
    const StatementText t = text();
    cached.stmt = detail::prepare(k.db(), t.sql, k.t.name, t.what);
  }
  return cached;
}

// put, erase and get: one statement each, of the table's spec alone.
inline sqlite3_stmt* Backend::Impl::statement(Call& k, detail::CachedStatement& cached,
                                              std::string (*sql)(const backend::TableSpec&),
                                              std::string_view what) {
  return prepared(k, cached,
                  [&] {
                    return StatementText{sql(k.t.spec), std::string(what) + " (preparing it)"};
                  })
      .stmt.get();
}

// An unconditional put or erase outside a transaction is one autocommit statement, which
// takes the write lock itself: step_first gives it the same bounded wait as BEGIN IMMEDIATE.
inline int Backend::Impl::step_write(Call& k, sqlite3_stmt* s) {
  return sqlite3_get_autocommit(k.db()) != 0 ? k.c.step_first(s) : sqlite3_step(s);
}

inline std::string Backend::Impl::key_text(backend::ItemKey key) {
  return pksk::detail::key_text(key);
}

// Table never makes a key DynamoDB would refuse, but the raw API takes any, and the page
// budget of a query counts on the sort key's limit.
inline void Backend::Impl::check_key(const detail::TableState& t, std::string_view operation,
                                     backend::ItemKey key) {
  backend::emulation::check_item_key(backend_name, t.name, operation, key,
                                     !t.spec.sk_attribute.empty());
  backend::emulation::check_number_sort_key(backend_name, t.spec, operation, key.sk);
}

inline void Backend::Impl::check_query_key(const detail::TableState& t,
                                           const backend::RawQuery& query) {
  backend::emulation::check_query_key(backend_name, t.name, query);
  backend::emulation::check_number_sort_key_query(backend_name, t.spec, query);
}

inline std::string Backend::Impl::key_operation(std::string_view operation, std::string_view pk,
                                                std::optional<std::string_view> sk) {
  std::string out(operation);
  out += " of pk ";
  out += pksk::detail::quoted(pk);
  if (sk) {
    out += ", sk ";
    out += pksk::detail::quoted(*sk);
  }
  return out;
}

inline void Backend::Impl::bind(Call& k, sqlite3_stmt* s, int index, std::string_view text,
                                std::string_view operation, std::string_view pk,
                                std::optional<std::string_view> sk) {
  const int rc = detail::bind_text(s, index, text);
  if (rc != SQLITE_OK) {
    detail::throw_failure(k.db(), rc, k.t.name, key_operation(operation, pk, sk));
  }
}

}  // namespace pksk::sqlite
