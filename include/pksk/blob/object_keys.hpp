// SPDX-License-Identifier: BSL-1.0
#pragma once
// For BlobStore implementations (DirectoryBlobStore, dynamodb/s3_blob_store.hpp), not for
// users: which object keys a store accepts, and the names DirectoryBlobStore keeps beside its
// objects, which are therefore never an object's key. Public so that a store in another folder
// checks keys as DirectoryBlobStore does without including blob/'s private headers.

#include <cstddef>
#include <string_view>

namespace pksk::detail {

// The sidecar file of an object's metadata: "<key>.meta".
inline constexpr std::string_view blob_meta_suffix = ".meta";
// In the name of a file being written, renamed into place once whole.
inline constexpr std::string_view blob_temp_marker = ".tmp-";

// A key names a file below the root: plain characters, no empty, "." or ".." segment.
inline bool is_plain_blob_key(std::string_view key) {
  if (key.empty() || key.front() == '/' || key.back() == '/') return false;
  for (const char c : key) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '/' || c == '_' || c == '-' || c == '.';
    if (!plain) return false;
  }
  std::size_t start = 0;
  while (start <= key.size()) {
    std::size_t end = key.find('/', start);
    if (end == std::string_view::npos) end = key.size();
    const std::string_view segment = key.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == ".." ||
        segment.ends_with(blob_meta_suffix) ||
        segment.find(blob_temp_marker) != std::string_view::npos)
      return false;
    start = end + 1;
  }
  return true;
}

}  // namespace pksk::detail
