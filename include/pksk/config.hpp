// SPDX-License-Identifier: BSL-1.0
#pragma once
// Settings a user may override per table.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pksk {

class BlobStore;  // blob/blob_store.hpp

// What a secondary index holds of each item besides the table's and the index's keys
// (DynamoDB's Projection): every attribute; the keys alone; or the keys and the attributes
// TableIndex::include names. An item read through a narrower index has only those: its type
// attribute too, unless included, so it is told apart by its sort key, and the members it lacks
// keep their defaults (key members are read back from the keys).
enum class IndexProjection : unsigned char { all, keys_only, include };

// A secondary index of a table: its name, and the attributes that hold each item's keys in it
// (DynamoDB's GSI key schema; the SQLite backend's index columns). "gsi1" alone names the
// attributes "gsi1pk" and "gsi1sk", as ElectroDB does.
struct TableIndex {
  // The index's name, as table.index(name) and Entity<T>::indexes name it.
  std::string name{};
  // The attribute that holds an item's partition key in the index.
  std::string pk_attribute{};
  // The attribute that holds an item's sort key in the index.
  std::string sk_attribute{};
  // Which attributes an item read through the index has.
  IndexProjection projection = IndexProjection::all;
  std::vector<std::string> include{};  // the attributes an `include` projection adds

  // An index of all attributes whose keys are held in `<name>pk` and `<name>sk`.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  TableIndex(std::string index_name)  // NOLINT(google-explicit-constructor): `.indexes = {"gsi1"}`
      : name(std::move(index_name)), pk_attribute(name + "pk"), sk_attribute(name + "sk") {}
  // As TableIndex(std::string), for `.indexes = {"gsi1"}`.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  TableIndex(const char* index_name)  // NOLINT(google-explicit-constructor)
      : TableIndex(std::string(index_name)) {}
  // An index of all attributes whose keys are held in the attributes `pk` and `sk`.
  // Throws: nothing.
  // Exception safety: nothrow.
  TableIndex(std::string index_name, std::string pk, std::string sk)
      : name(std::move(index_name)), pk_attribute(std::move(pk)), sk_attribute(std::move(sk)) {}
  // keys_only, or include with the attributes it adds.
  // Throws: nothing.
  // Exception safety: nothrow.
  TableIndex(std::string index_name, std::string pk, std::string sk, IndexProjection projected,
             std::vector<std::string> included = {})
      : name(std::move(index_name)),
        pk_attribute(std::move(pk)),
        sk_attribute(std::move(sk)),
        projection(projected),
        include(std::move(included)) {}

  // Whether an item read through the index has attribute `attribute` (not a key attribute).
  // Throws: nothing.
  // Exception safety: nothrow.
  bool projects(std::string_view attribute) const noexcept {
    if (projection == IndexProjection::all) return true;
    if (projection == IndexProjection::keys_only) return false;
    for (const std::string& name : include) {
      if (name == attribute) return true;
    }
    return false;
  }

  friend bool operator==(const TableIndex&, const TableIndex&) = default;
};

// The type of a table's sort-key attribute (DynamoDB's AttributeType S or N).
enum class KeyType : unsigned char { string, number };

// How a table is laid out and read: its key and type attributes, indexes, cursor key, TTL, access
// counts and blob store. The topic pages describe each option (docs/tables.md first).
struct TableOptions {
  // The key attributes' names (DynamoDB's key schema; the SQLite backend's columns). No entity
  // member may be named as one of them or as the type attribute.
  std::string pk_attribute = "pk";
  // The sort key's attribute (see pk_attribute).
  std::string sk_attribute = "sk";
  // The sort key's type: a string (DynamoDB's RANGE S), or a number (RANGE N), whose entities'
  // sort keys are an integer member each, "{seq:number}", and whose items sort numerically.
  KeyType sk_type = KeyType::string;
  // The attribute (SQLite column) that holds each item's entity type: the discriminator
  // ItemCollection dispatches on. ElectroDB calls it "__edb_e__", dynamodb-toolbox "_et".
  std::string type_attribute = "type";
  // The table's secondary indexes. An entity is in those its Entity<T>::indexes names, and
  // table.index(name) queries one. On SQLite, an index added to an existing table is created
  // when the table is opened; Maintenance::backfill_index then writes the index keys of the items
  // already stored.
  std::vector<TableIndex> indexes{};
  // A secret that signs the cursors this table hands out (HMAC-SHA256), and without whose
  // signature it refuses one: set it when cursors travel through clients (a page token in an
  // API), so that an edited or forged cursor is a ValidationError, not a query steered
  // elsewhere. Empty: cursors carry a checksum only. Every process serving the same pages
  // needs the same key.
  std::string cursor_key{};
  // The attribute whose time expires an item (DynamoDB's Time to Live): an item whose value
  // there is a number of seconds since the Unix epoch at or before now is never read again, on
  // either backend: not by get, query, scan, index queries, batch or transactional gets, nor
  // counted. An entity's `ttl` member (Entity<T>::ttl) is stored so, and must be stored under
  // this name. The DynamoDB backend turns the table's TTL on when it opens the table (DynamoDB
  // deletes expired items, days late at worst); the SQLite backend deletes them when
  // Maintenance::sweep_expired is called. Empty: nothing expires.
  std::string ttl_attribute{};
  // What "now" is for ttl_attribute; empty: std::chrono::system_clock::now. Tests set a clock
  // of their own rather than wait for an item to expire.
  std::function<std::chrono::system_clock::time_point()> ttl_clock{};
  // Count reads and writes per partition key, for Maintenance::hot_keys (table/access_counts.hpp).
  // Off: nothing is counted, and nothing costs.
  bool count_access = false;
  // Where the members an entity keeps in a blob store (Entity<T>::stored_in_blob_store) live
  // when they are large: a DirectoryBlobStore, a dynamodb::S3BlobStore, or a store of your own
  // (blob/blob_store.hpp). A read or write of such an entity without one is a ValidationError.
  std::shared_ptr<BlobStore> blob_store{};
};

}  // namespace pksk
