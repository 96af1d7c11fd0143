#pragma once
// The Backend concept: what pksk::Table needs of a store, in raw items. A backend knows
// nothing of entities: it stores (pk, sk, type, body) and answers key-condition queries in
// sort-key byte order, with DynamoDB's paging rules. Reads hand each row to a visitor as
// views into the store's own memory, valid only during the call: no vector of copies.

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../key/condition.hpp"

namespace pksk {

// One item as the store holds it. `body` is the item's JSON text (its attributes other than
// the keys and the discriminator).
struct ItemView {
  std::string_view pk;
  std::string_view sk;
  std::string_view type;
  std::string_view body;
};

// An item's size as DynamoDB measures it (attribute names plus values, in bytes), with the
// body's JSON text standing for the attributes other than the keys and the type. One measure
// for the 400 KB item limit and the 1 MB page budget, so the two can never disagree.
inline std::size_t item_size(std::string_view type_attribute, const ItemView& item) noexcept {
  return 2 + item.pk.size() + 2 + item.sk.size() + type_attribute.size() + item.type.size() +
         item.body.size();
}

// What a backend needs to create or check one pksk table.
struct TableSpec {
  std::string name;
  std::string type_attribute = "type";  // the discriminator's attribute (column) name
};

// DynamoDB ends a query page at 1 MB of data read.
inline constexpr std::size_t max_page_bytes = 1024 * 1024;

struct RawQuery {
  std::string_view pk;
  const KeyCondition* sk = nullptr;  // nullptr: every item of the partition
  bool forward = true;
  std::size_t limit = 0;  // items evaluated in this page; 0 = no limit but the page size
  std::optional<std::string_view> exclusive_start_sk;
  std::size_t page_bytes = max_page_bytes;
  // False when the caller stops at the limit whatever follows (a query that reads every page
  // up to `limit` items): a page ending at the limit then reports no last key, which saves
  // copying a key nobody reads. A page ending at the byte budget always reports it.
  bool last_key_at_limit = true;
};

// How a page ended. As in DynamoDB, last_evaluated_sk is set whenever the page stopped at
// the limit (unless RawQuery::last_key_at_limit is false) or at the byte budget, even if no
// item follows; empty means the range is done.
struct QueryOutcome {
  std::size_t evaluated = 0;
  std::optional<std::string> last_evaluated_sk;
};

namespace detail {
struct ItemVisitorArchetype {
  void operator()(const ItemView&) const {}
};
}  // namespace detail

template <class B>
concept Backend =
    requires(B& backend, const TableSpec& spec, const ItemView& item, std::string_view key,
             const RawQuery& query, detail::ItemVisitorArchetype visitor) {
      typename B::TableHandle;
      // Creates the table if absent, checks its schema if present (a mismatch throws).
      { backend.open_table(spec) } -> std::same_as<typename B::TableHandle>;
      requires requires(typename B::TableHandle& table) {
        { backend.put(table, item) } -> std::same_as<void>;
        // Calls the visitor with the item and returns true, or returns false when absent.
        { backend.get(table, key, key, visitor) } -> std::same_as<bool>;
        { backend.erase(table, key, key) } -> std::same_as<bool>;  // true if an item was removed
        { backend.query(table, query, visitor) } -> std::same_as<QueryOutcome>;
      };
    };

}  // namespace pksk
