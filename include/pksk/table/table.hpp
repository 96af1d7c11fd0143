#pragma once
// Table<Backend>: the typed API. Entities in, entities out; the backend sees raw items only.
// A Table reuses its key, body and decode buffers across calls, so one Table belongs to one
// thread at a time (as does the SQLite connection under it).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../backend/backend.hpp"
#include "../codec/codec.hpp"
#include "../config.hpp"
#include "../error.hpp"
#include "../key/condition.hpp"
#include "../key/entity.hpp"
#include "../key/key.hpp"
#include "../model/collection.hpp"
#include "query.hpp"

namespace pksk {

// DynamoDB's item size limit.
inline constexpr std::size_t max_item_bytes = 400 * 1024;

namespace detail {

template <class R>
struct QueryResult;

template <class... Ts>
struct QueryResult<ItemCollection<Ts...>> {
  using type = ItemCollection<Ts...>;
};

template <class T>
  requires EntityType<T>
struct QueryResult<T> {
  using type = std::vector<T>;
};

// A key or name in an error message, quoted, with bytes a terminal would not show escaped:
// keys read back from a store are not trusted to be printable.
inline std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  append_escaped(out, text);
  out += '\'';
  return out;
}

}  // namespace detail

// What query<R> returns: R itself for an ItemCollection, std::vector<T> for an entity T.
template <class R>
using query_result_t = typename detail::QueryResult<R>::type;

template <Backend B>
class Table {
 public:
  Table(B& backend, std::string name, TableOptions options = {})
      : backend_(&backend),
        name_(std::move(name)),
        options_(std::move(options)),
        handle_(backend.open_table(TableSpec{name_, options_.type_attribute})) {}

  const std::string& name() const noexcept { return name_; }
  const TableOptions& options() const noexcept { return options_; }

  // Writes the item, replacing any item with the same key.
  template <EntityType T>
  void put(const T& item) {
    format_keys(item, "put");
    try {
      encode_body(item, body_);
    } catch (const EncodeError& e) {
      throw EncodeError(context("put", type_name_v<T>) + e.what());
    }
    const ItemView stored{pk_, sk_, type_name_v<T>, body_};
    const std::size_t size = item_size(options_.type_attribute, stored);
    if (size > max_item_bytes) {
      throw ItemTooLarge(context("put", type_name_v<T>) + "item pk=" + detail::quoted(pk_) +
                         " sk=" + detail::quoted(sk_) + " is " + std::to_string(size) +
                         " bytes, over DynamoDB's limit of " + std::to_string(max_item_bytes));
    }
    backend_->put(handle_, stored);
  }

  // The item with the key of `key` (only its key fields are read), or nullopt.
  template <EntityType T>
  std::optional<T> get(const T& key) {
    format_keys(key, "get");
    std::optional<T> found;
    backend_->get(handle_, pk_, sk_, [&](const ItemView& row) {
      if (row.type != type_name_v<T>) {
        throw DecodeError(context("get", type_name_v<T>) + "item pk=" + detail::quoted(row.pk) +
                          " sk=" + detail::quoted(row.sk) + " is of type " +
                          detail::quoted(row.type));
      }
      decode_row(row, found.emplace());
    });
    return found;
  }

  // Removes the item with the key of `key`; true if there was one.
  template <EntityType T>
  bool erase(const T& key) {
    format_keys(key, "erase");
    return backend_->erase(handle_, pk_, sk_);
  }

  // Every item of the partition that matches, all pages read: an ItemCollection, or for an
  // entity type T the items of type T (sort key beginning with T's literal prefix).
  template <class R>
  query_result_t<R> query(const PartitionKey& pk, const QueryOptions& options = {}) {
    query_result_t<R> result;
    run_query<R>(pk, options, result, /*all_pages=*/true);
    return result;
  }

  // One page: up to options.limit items evaluated, or 1 MB of data, as DynamoDB pages.
  template <class R>
  Page<query_result_t<R>> query_page(const PartitionKey& pk, const QueryOptions& options = {}) {
    Page<query_result_t<R>> page;
    page.next = run_query<R>(pk, options, page.items, /*all_pages=*/false);
    return page;
  }

 private:
  std::string context(std::string_view operation, std::string_view type) const {
    return "pksk table " + detail::quoted(name_) + ", " + std::string(operation) + " " +
           std::string(type) + ": ";
  }

  template <EntityType T>
  void format_keys(const T& item, std::string_view operation) {
    try {
      format_partition_key(item, pk_);
      format_sort_key(item, sk_);
    } catch (const KeyError& e) {
      throw KeyError(context(operation, type_name_v<T>) + e.what());
    }
  }

  [[noreturn]] void throw_decode_error(const ItemView& row, const DecodeError& error) const {
    throw DecodeError(context("read", row.type) + "item pk=" + detail::quoted(row.pk) +
                      " sk=" + detail::quoted(row.sk) + " type=" + detail::quoted(row.type) + ": " +
                      error.what());
  }

  template <class T>
  void decode_row(const ItemView& row, T& out) {
    try {
      decoder_.decode(row.body, out);
    } catch (const DecodeError& e) {
      throw_decode_error(row, e);
    }
  }

  template <class R, class Result>
  std::optional<Cursor> run_query(const PartitionKey& pk, const QueryOptions& options,
                                  Result& result, bool all_pages) {
    const KeyCondition* condition = options.sk ? &*options.sk : nullptr;
    if constexpr (EntityType<R>) {
      static const KeyCondition type_prefix = begins_with(std::string(sort_key_prefix_v<R>));
      if (!condition && !type_prefix.first.empty()) condition = &type_prefix;
    }
    // Reading every page, the query ends at the limit: no cursor is needed there.
    RawQuery raw{.pk = pk.value,
                 .sk = condition,
                 .forward = options.forward,
                 .limit = options.limit,
                 .last_key_at_limit = !all_pages};
    if (options.start) {
      check_cursor(*options.start, pk, condition);
      raw.exclusive_start_sk = options.start->sk;
    }

    const auto visit = [&](const ItemView& row) {
      if constexpr (EntityType<R>) {
        if (row.type != type_name_v<R>) return;
        push_decoded(result, row);
      } else {
        try {
          result.append_decoded(row.pk, row.sk, row.type, row.body, decoder_);
        } catch (const DecodeError& e) {
          throw_decode_error(row, e);
        }
      }
    };

    std::string resume_after;
    std::size_t remaining = options.limit;
    for (;;) {
      QueryOutcome outcome = backend_->query(handle_, raw, visit);
      if (!all_pages) {
        if (!outcome.last_evaluated_sk) return std::nullopt;
        return Cursor{{}, pk.value, std::move(*outcome.last_evaluated_sk)};
      }
      if (options.limit != 0) {
        remaining -= outcome.evaluated;
        if (remaining == 0) return std::nullopt;
        raw.limit = remaining;
      }
      if (!outcome.last_evaluated_sk) return std::nullopt;
      resume_after = std::move(*outcome.last_evaluated_sk);
      raw.exclusive_start_sk = resume_after;
    }
  }

  template <class T>
  void push_decoded(std::vector<T>& result, const ItemView& row) {
    T& item = result.emplace_back();
    try {
      decode_row(row, item);
    } catch (...) {
      result.pop_back();
      throw;
    }
  }

  void check_cursor(const Cursor& cursor, const PartitionKey& pk,
                    const KeyCondition* condition) const {
    if (!cursor.index.empty()) {
      throw Error("pksk table " + detail::quoted(name_) + ": the cursor belongs to index " +
                  detail::quoted(cursor.index) + ", not to the table");
    }
    if (cursor.pk != pk.value) {
      throw Error("pksk table " + detail::quoted(name_) + ": the cursor belongs to partition " +
                  detail::quoted(cursor.pk) + ", not to " + detail::quoted(pk.value));
    }
    // DynamoDB rejects an ExclusiveStartKey outside the query's key condition.
    if (condition && !matches(*condition, cursor.sk)) {
      throw Error("pksk table " + detail::quoted(name_) + ": the cursor's sort key " +
                  detail::quoted(cursor.sk) + " is outside the query's key condition");
    }
  }

  B* backend_;
  std::string name_;
  TableOptions options_;
  typename B::TableHandle handle_;
  BodyDecoder decoder_;
  std::string pk_, sk_, body_;  // reused across writes: no allocation once warm
};

}  // namespace pksk
