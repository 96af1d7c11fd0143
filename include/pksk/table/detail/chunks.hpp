// SPDX-License-Identifier: BSL-1.0
#pragma once
// Chunked items (Entity<T>::chunked): an item past DynamoDB's 400 KB is stored as chunk items
// holding its body's bytes plus a small head item under its own key that names the version
// and the number of chunks (seed 002's "break up large attributes across multiple items").
// This header holds what does not depend on the entity: the reserved names, the head's and a
// chunk's bodies in either body format, the keys of a version's chunks, the condition a head
// is written under. Table (table.hpp) runs the protocol with them.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../codec/body_format.hpp"
#include "../../detail/config.hpp"
#include "../../key/entity.hpp"
#include "../../model/collection.hpp"

namespace pksk::detail {

template <class T>
consteval bool chunked_of() {
  if constexpr (requires { Entity<T>::chunked; }) {
    return static_cast<bool>(Entity<T>::chunked);
  } else {
    return false;
  }
}
// Whether T's items are chunked past 400 KB (Entity<T>::chunked).
template <class T>
inline constexpr bool chunked_v = chunked_of<T>();

template <class T>
consteval bool chunks_beside_parent_of() {
  if constexpr (requires { Entity<T>::chunks_beside_parent; }) {
    return static_cast<bool>(Entity<T>::chunks_beside_parent);
  } else {
    return false;
  }
}
// Entity<T>::chunks_beside_parent: chunks under the parent's partition key instead of each
// under its own (the seed's spread of a large item over partitions is the default).
template <class T>
inline constexpr bool chunks_beside_parent_v = chunks_beside_parent_of<T>();

// Whether a read of R (an entity or an ItemCollection) may meet a chunked item's head.
template <class R>
inline constexpr bool reads_chunked_v = chunked_v<R>;
template <class... Ts>
inline constexpr bool reads_chunked_v<ItemCollection<Ts...>> = (chunked_v<Ts> || ...);

// The type of chunk items, and the attributes of heads and chunks: "pksk:" names, which no C++
// member name can be and no entity type should start with, so that typed reads never see them.
inline constexpr std::string_view chunk_type = "pksk:chunk";
inline constexpr std::string_view chunk_count_attribute = "pksk:chunks";
inline constexpr std::string_view chunk_version_attribute = "pksk:version";
// What a chunk holds: a piece of the item's body text (in the backend's body format), as a
// string. At most this many bytes: with the parent's keys (at most 2048 + 1024 bytes) and the
// names, a chunk stays under 400 KB by DynamoDB's measure.
inline constexpr std::size_t chunk_data_bytes = 350'000;

// The body cut into the pieces its chunks hold, each ending on a UTF-8 character's end.
PKSK_DECL std::vector<std::string_view> split_body(std::string_view body);

// What a head names: the version whose chunks hold the body, how many, the body's bytes.
struct ChunkHead {
  std::string version;
  std::size_t count = 0;
  std::size_t bytes = 0;
  bool beside = false;  // chunks under the parent's partition key
};

// Whether an item's text (a body in either format) is a chunked item's head.
PKSK_DECL bool is_chunk_head(std::string_view text) noexcept;

PKSK_DECL ChunkHead parse_chunk_head(std::string_view text, BodyFormat format);

// The head's body; returns its size by DynamoDB's measure (keys and type included).
PKSK_DECL std::size_t chunk_head_body(const backend::TableSpec& spec, std::string_view pk,
                                      std::string_view sk, std::string_view type,
                                      const ChunkHead& head, BodyFormat format, std::string& out);

// A head met by a read, whose item is decoded once the read's answer is done: `at` is where its
// placeholder stands in the result.
struct PendingHead {
  std::size_t at = 0;
  std::string pk;
  std::string sk;
  std::string type;
  ChunkHead head;
};

struct ChunkKey {
  std::string pk;
  std::string sk;
};

// The key of chunk `seq` (0-based) of the version `head` names, for the parent's partition key.
PKSK_DECL ChunkKey chunk_key(std::string_view parent_pk, const ChunkHead& head, std::size_t seq);

// A chunk's body: its bytes, its parent's key, its version and when it was written (what
// sweep_chunks needs to tell a dead chunk); returns its size by DynamoDB's measure.
PKSK_DECL std::size_t chunk_body(const backend::TableSpec& spec, const ChunkKey& key,
                                 std::string_view parent_pk, std::string_view parent_sk,
                                 std::string_view version, std::string_view data, BodyFormat format,
                                 std::string& out);

struct ChunkContent {
  std::string parent_pk;
  std::string parent_sk;
  std::string version;
  std::chrono::system_clock::time_point written{};
  std::string data;
};

PKSK_DECL ChunkContent parse_chunk(std::string_view text, BodyFormat format);

// The head's condition: the stored item is the version the writer read (`old`), or, when it
// read none, an item that is no head (absent, or a plain item).
PKSK_DECL backend::Condition chunk_head_condition(const std::optional<ChunkHead>& old);

// A head whose chunk is gone (removed by a writer that replaced the version while it was read,
// or by a sweep) after the reader tried again.
[[noreturn]] PKSK_DECL void throw_chunk_missing(std::string_view table, std::string_view type,
                                                std::string_view pk, std::string_view sk,
                                                const ChunkHead& head, std::size_t seq);

// A chunked write on a table that stores no type attribute: chunk items could not be told from
// the entities' items.
[[noreturn]] PKSK_DECL void throw_chunked_without_type(std::string_view table,
                                                       std::string_view type, std::string_view pk,
                                                       std::string_view sk);

// A read of a chunked entity with a filter or a projection, which DynamoDB would apply to the
// head, not to the item.
[[noreturn]] PKSK_DECL void throw_chunked_read_refused(std::string_view table,
                                                       std::string_view what);

// A collection's filter that names an attribute of its chunked member (see
// check_chunked_collection_filter in read_plan.hpp).
[[noreturn]] PKSK_DECL void throw_chunked_filter_refused(std::string_view table,
                                                         std::string_view type,
                                                         std::string_view attribute);

// Where a chunked put stands, for tests that inject a failure (a crash) at that point.
enum class ChunkWriteStage : unsigned char {
  chunk_written,   // after each chunk, before the next one
  chunks_written,  // after the last chunk, before the head
  head_written,    // after the head, before the old version's chunks are removed
};
// Called by a chunked put at each stage (tests only: never set it in a program).
inline thread_local void (*chunk_write_hook)(ChunkWriteStage) = nullptr;

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/chunks.ipp"
#endif
