// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of the blob members' reads and object names (blob_member.hpp): inline through
// it in header-only mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION. In
// codec/, which uses the store (blob/blob_store.hpp), so that blob/ need not include codec/.

#include <optional>
#include <string>
#include <string_view>

#include "../../blob/blob_store.hpp"
#include "../../detail/hmac_sha256.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../../key/ulid.hpp"
#include "../blob_member.hpp"

namespace pksk::detail {

// Names a file and an S3 key alike: characters outside [A-Za-z0-9_.-] become '_'.
inline void append_plain_key_text(std::string& key, std::string_view text) {
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '-' || c == '.';
    key += plain ? c : '_';
  }
}

PKSK_DECL std::string blob_key_prefix(std::string_view table) {
  std::string key;
  append_plain_key_text(key, table);
  key += '/';
  return key;
}

PKSK_DECL std::string blob_object_key(std::string_view table, std::string_view pk,
                                      std::string_view sk, std::string_view member) {
  std::string item(pk);
  item += '\0';
  item += sk;
  std::string key = blob_key_prefix(table);
  key += sha256_hex(item).substr(0, 32);
  key += '/';
  append_plain_key_text(key, member);
  key += '/';
  key += ulid();
  return key;
}

PKSK_DECL std::string fetch_blob(const BlobReads& reads, const BlobRef& ref,
                                 std::string_view member) {
  // The table, the item's key and its type are added where the item's decoding fails.
  const std::string where = "member " + detail::quoted(member) + ": ";
  if (reads.store == nullptr) {
    throw ValidationError(where +
                          "the value is kept in a blob store, and the table has none "
                          "(TableOptions::blob_store)");
  }
  std::optional<std::string> bytes = reads.store->get(ref.blob);
  if (!bytes) {
    throw BlobError(where + "its object " + detail::quoted(ref.blob) +
                    " is missing from the blob store");
  }
  const std::string digest = sha256_hex(*bytes);
  if (static_cast<std::int64_t>(bytes->size()) != ref.size || digest != ref.sha256) {
    throw BlobError(where + "its object " + detail::quoted(ref.blob) +
                    " is corrupt: " + std::to_string(bytes->size()) + " bytes with SHA-256 " +
                    digest + ", where the item records " + std::to_string(ref.size) +
                    " bytes with " + ref.sha256);
  }
  return std::move(*bytes);
}

}  // namespace pksk::detail
