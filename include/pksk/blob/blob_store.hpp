// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where the values of an entity's blob members live (codec/blob_member.hpp): a store of named
// objects beside the table, as DynamoDB's own answer to items past 400 KB keeps large values in
// Amazon S3 with the object's name in the item. The table holds the reference; the object's
// metadata names the item that references it, so that a sweep (Maintenance::sweep_blobs) can tell
// an orphan (an object whose item write failed, or was replaced) from a live one.
//
// BlobStore is the customization point: an abstract class, since a table holds its store at
// run time (TableOptions::blob_store) and one store may serve several tables and backends.
// pksk ships DirectoryBlobStore (files, for the SQLite backend) and dynamodb::S3BlobStore (any
// S3-compatible endpoint, <pksk/dynamodb/s3_blob_store.hpp>).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../detail/config.hpp"
#include "../error.hpp"

namespace pksk {

// The item an object belongs to: its table, its keys, and the member (stored name) it holds.
struct BlobMetadata {
  // The table of the item.
  std::string table;
  // The item's partition key.
  std::string pk;
  // The item's sort key.
  std::string sk;
  // The stored name of the member whose value the object holds.
  std::string member;

  friend bool operator==(const BlobMetadata&, const BlobMetadata&) = default;
};

// An object as a listing shows it; `metadata` is filled by head() only (S3's listings carry
// none).
struct BlobInfo {
  // The object's key in the store.
  std::string key;
  // Its size in bytes.
  std::uint64_t size = 0;
  // When it was last written.
  std::chrono::system_clock::time_point modified{};
  // The item it belongs to (head() only).
  BlobMetadata metadata{};
};

// A store of named objects beside a table, for members kept outside their items
// (Entity<T>::stored_in_blob_store): implement it for a store of your own. Its calls may come from
// any thread at once.
class BlobStore {
 public:
  virtual ~BlobStore() = default;

  // Stores `bytes` under `key`, replacing any object there; the object is whole or absent,
  // never partly written. Failures are BackendError.
  // Throws: BackendError on the store's failure (ValidationError for a key it cannot hold).
  // Exception safety: strong, as an implementation must make it: whole or absent.
  virtual void put(std::string_view key, std::string_view bytes, const BlobMetadata& metadata) = 0;
  // The object's bytes, or nullopt if there is none.
  // Throws: BackendError on the store's failure.
  // Exception safety: strong (a read changes nothing).
  virtual std::optional<std::string> get(std::string_view key) = 0;
  // Removes the object; no error if there is none.
  // Throws: BackendError on the store's failure.
  // Exception safety: strong, as an implementation should make it.
  virtual void remove(std::string_view key) = 0;
  // The object's size, time and metadata, or nullopt if there is none.
  // Throws: BackendError on the store's failure.
  // Exception safety: strong (a read changes nothing).
  virtual std::optional<BlobInfo> head(std::string_view key) = 0;
  // Every object whose key begins with `prefix` (metadata left empty), in key order.
  // Throws: BackendError on the store's failure.
  // Exception safety: strong (a read changes nothing).
  virtual std::vector<BlobInfo> list(std::string_view prefix) = 0;
};

// Objects as files under a directory: the key is the file's path below it ('/' separating
// directories), the metadata a sidecar file beside it (<name>.meta). Each file is written under
// a temporary name and renamed into place, so that a reader sees the old object or the new one,
// never half of one. For one machine's tables, as SQLite's are.
class DirectoryBlobStore final : public BlobStore {
 public:
  // Creates the directory if it does not exist.
  // Throws: BackendError (io_error) when it cannot be created.
  // Exception safety: basic: the parents made before a failure stay.
  PKSK_DECL explicit DirectoryBlobStore(std::filesystem::path root);

  // Writes the metadata's sidecar, then the object, each under a temporary name renamed into place.
  // Throws: ValidationError for a key that is not a plain relative path, BackendError (io_error).
  // Exception safety: basic: a failure writing the object leaves the new sidecar beside the old
  // object (or none); each file is whole, never half-written.
  PKSK_DECL void put(std::string_view key, std::string_view bytes,
                     const BlobMetadata& metadata) override;
  // The file's bytes, or nullopt.
  // Throws: ValidationError for a key that is not a plain relative path, BackendError (io_error).
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL std::optional<std::string> get(std::string_view key) override;
  // Removes the file, then its sidecar.
  // Throws: ValidationError for a key that is not a plain relative path, BackendError (io_error).
  // Exception safety: basic: a failure removing the sidecar leaves it, the object removed.
  PKSK_DECL void remove(std::string_view key) override;
  // The file's size, time and sidecar, or nullopt.
  // Throws: ValidationError for a key that is not a plain relative path, BackendError (io_error).
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL std::optional<BlobInfo> head(std::string_view key) override;
  // The files under the directory whose keys begin with `prefix`.
  // Throws: BackendError (io_error).
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL std::vector<BlobInfo> list(std::string_view prefix) override;

  // The directory the objects are under.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::filesystem::path& root() const noexcept { return root_; }

 private:
  std::filesystem::path path_of(std::string_view key) const;

  std::filesystem::path root_;
};

}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/directory_blob_store.ipp"
#endif
