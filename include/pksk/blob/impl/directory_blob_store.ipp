// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of DirectoryBlobStore (blob_store.hpp): inline through it in header-only
// mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../../key/ulid.hpp"
#include "../blob_store.hpp"
#include "../object_keys.hpp"

namespace pksk {

namespace detail {

[[noreturn]] inline void throw_blob_io(std::string_view what, const std::filesystem::path& path,
                                       const std::error_code& error = {}) {
  std::string message = "blob store: cannot " + std::string(what) + " " + path.string();
  if (error) message += ": " + error.message();
  throw BackendError(errc::io_error, message);
}

// `bytes` into `path`, through a temporary file renamed over it.
inline void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::path temp = path;
  temp += std::string(blob_temp_marker) + ulid();
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw_blob_io("create", temp);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      throw_blob_io("write", temp);
    }
  }
  std::error_code error;
  std::filesystem::rename(temp, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw_blob_io("rename into place", path, error);
  }
}

inline std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return std::nullopt;
    throw_blob_io("open", path);
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw_blob_io("read", path);
  return bytes;
}

// The sidecar: each field as its length, a colon, and its bytes, so that any byte may appear.
inline std::string blob_metadata_text(const BlobMetadata& m) {
  std::string out;
  for (const std::string* field : {&m.table, &m.pk, &m.sk, &m.member}) {
    out += std::to_string(field->size());
    out += ':';
    out += *field;
  }
  return out;
}

inline std::optional<BlobMetadata> parse_blob_metadata(std::string_view text) {
  BlobMetadata m;
  for (std::string* field : {&m.table, &m.pk, &m.sk, &m.member}) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    std::size_t size = 0;
    for (const char c : text.substr(0, colon)) {
      if (c < '0' || c > '9') return std::nullopt;
      size = size * 10 + static_cast<std::size_t>(c - '0');
    }
    text.remove_prefix(colon + 1);
    if (size > text.size()) return std::nullopt;
    field->assign(text.substr(0, size));
    text.remove_prefix(size);
  }
  if (!text.empty()) return std::nullopt;
  return m;
}

inline std::chrono::system_clock::time_point blob_file_time(const std::filesystem::path& path) {
  std::error_code error;
  const auto time = std::filesystem::last_write_time(path, error);
  if (error) return {};
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(
      std::chrono::file_clock::to_sys(time));
}

}  // namespace detail

PKSK_DECL DirectoryBlobStore::DirectoryBlobStore(std::filesystem::path root)
    : root_(std::move(root)) {
  std::error_code error;
  std::filesystem::create_directories(root_, error);
  if (error) detail::throw_blob_io("create the directory", root_, error);
}

PKSK_DECL std::filesystem::path DirectoryBlobStore::path_of(std::string_view key) const {
  if (!detail::is_plain_blob_key(key)) {
    throw ValidationError("blob store: the object key " + detail::quoted(key) +
                          " is not a relative path of letters, digits, '/', '_', '-' and '.'");
  }
  return root_ / std::filesystem::path(std::string(key));
}

PKSK_DECL void DirectoryBlobStore::put(std::string_view key, std::string_view bytes,
                                       const BlobMetadata& metadata) {
  const std::filesystem::path path = path_of(key);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) detail::throw_blob_io("create the directory", path.parent_path(), error);
  // The metadata first: an object without its sidecar would be one the sweep cannot place.
  std::filesystem::path meta = path;
  meta += detail::blob_meta_suffix;
  detail::write_file_atomically(meta, detail::blob_metadata_text(metadata));
  detail::write_file_atomically(path, bytes);
}

PKSK_DECL std::optional<std::string> DirectoryBlobStore::get(std::string_view key) {
  return detail::read_file(path_of(key));
}

PKSK_DECL void DirectoryBlobStore::remove(std::string_view key) {
  const std::filesystem::path path = path_of(key);
  std::filesystem::path meta = path;
  meta += detail::blob_meta_suffix;
  std::error_code error;
  std::filesystem::remove(path, error);
  if (error) detail::throw_blob_io("remove", path, error);
  std::filesystem::remove(meta, error);
  if (error) detail::throw_blob_io("remove", meta, error);
}

PKSK_DECL std::optional<BlobInfo> DirectoryBlobStore::head(std::string_view key) {
  const std::filesystem::path path = path_of(key);
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) {
    if (!std::filesystem::exists(path, error)) return std::nullopt;
    detail::throw_blob_io("read the size of", path);
  }
  BlobInfo info{std::string(key), size, detail::blob_file_time(path), {}};
  std::filesystem::path meta = path;
  meta += detail::blob_meta_suffix;
  if (const std::optional<std::string> text = detail::read_file(meta)) {
    if (std::optional<BlobMetadata> parsed = detail::parse_blob_metadata(*text)) {
      info.metadata = std::move(*parsed);
    }
  }
  return info;
}

PKSK_DECL std::vector<BlobInfo> DirectoryBlobStore::list(std::string_view prefix) {
  std::vector<BlobInfo> out;
  std::error_code error;
  std::filesystem::recursive_directory_iterator it(root_, error);
  if (error) detail::throw_blob_io("list", root_, error);
  for (; it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (error) detail::throw_blob_io("list", root_, error);
    if (!it->is_regular_file(error)) continue;
    const std::string key = it->path().lexically_relative(root_).generic_string();
    if (!key.starts_with(prefix) || !detail::is_plain_blob_key(key)) continue;
    std::error_code size_error;
    const std::uintmax_t size = it->file_size(size_error);
    if (size_error) continue;  // removed meanwhile
    out.push_back(BlobInfo{key, size, detail::blob_file_time(it->path()), {}});
  }
  std::ranges::sort(out, {}, &BlobInfo::key);
  return out;
}

}  // namespace pksk
