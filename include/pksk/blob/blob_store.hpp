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
  std::string table;
  std::string pk;
  std::string sk;
  std::string member;

  friend bool operator==(const BlobMetadata&, const BlobMetadata&) = default;
};

// An object as a listing shows it; `metadata` is filled by head() only (S3's listings carry
// none).
struct BlobInfo {
  std::string key;
  std::uint64_t size = 0;
  std::chrono::system_clock::time_point modified{};
  BlobMetadata metadata{};
};

class BlobStore {
 public:
  virtual ~BlobStore() = default;

  // Stores `bytes` under `key`, replacing any object there; the object is whole or absent,
  // never partly written. Failures are BackendError.
  virtual void put(std::string_view key, std::string_view bytes, const BlobMetadata& metadata) = 0;
  // The object's bytes, or nullopt if there is none.
  virtual std::optional<std::string> get(std::string_view key) = 0;
  // Removes the object; no error if there is none.
  virtual void remove(std::string_view key) = 0;
  // The object's size, time and metadata, or nullopt if there is none.
  virtual std::optional<BlobInfo> head(std::string_view key) = 0;
  // Every object whose key begins with `prefix` (metadata left empty), in key order.
  virtual std::vector<BlobInfo> list(std::string_view prefix) = 0;
};

// Objects as files under a directory: the key is the file's path below it ('/' separating
// directories), the metadata a sidecar file beside it (<name>.meta). Each file is written under
// a temporary name and renamed into place, so that a reader sees the old object or the new one,
// never half of one. For one machine's tables, as SQLite's are.
class DirectoryBlobStore final : public BlobStore {
 public:
  // Creates the directory if it does not exist.
  PKSK_DECL explicit DirectoryBlobStore(std::filesystem::path root);

  PKSK_DECL void put(std::string_view key, std::string_view bytes,
                     const BlobMetadata& metadata) override;
  PKSK_DECL std::optional<std::string> get(std::string_view key) override;
  PKSK_DECL void remove(std::string_view key) override;
  PKSK_DECL std::optional<BlobInfo> head(std::string_view key) override;
  PKSK_DECL std::vector<BlobInfo> list(std::string_view prefix) override;

  const std::filesystem::path& root() const noexcept { return root_; }

 private:
  std::filesystem::path path_of(std::string_view key) const;

  std::filesystem::path root_;
};

}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/directory_blob_store.ipp"
#endif
