// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/chunks.hpp: inline through it in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../backend/messages.hpp"
#include "../../codec/attribute_value.hpp"
#include "../../codec/attribute_value_json.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../detail/chunks.hpp"
#include "../detail/entity_writes.hpp"
#include "../detail/messages.hpp"

namespace pksk::detail {

namespace chunk_names {
inline constexpr std::string_view bytes = "pksk:bytes";
inline constexpr std::string_view beside = "pksk:beside";
inline constexpr std::string_view data = "pksk:data";
inline constexpr std::string_view parent_pk = "pksk:parent_pk";
inline constexpr std::string_view parent_sk = "pksk:parent_sk";
inline constexpr std::string_view written = "pksk:written";
}  // namespace chunk_names

namespace chunk_io {
inline void append_body(const AttributeValue& item, BodyFormat format, std::string& out) {
  out.clear();
  if (format == BodyFormat::json) {
    append_plain_json(out, item);
  } else {
    append_item_attribute_value_json(out, item);
  }
}

inline std::size_t stored_size(const backend::TableSpec& spec, std::string_view pk,
                               std::string_view sk, std::string_view type,
                               const AttributeValue& item) {
  return spec.pk_attribute.size() + pk.size() + spec.sk_attribute.size() + sk.size() +
         spec.type_attribute.size() + type.size() + attributes_size(item);
}

inline const AttributeValue& member(const AttributeValue& item, std::string_view name,
                                    AttributeValue::Kind kind) {
  const AttributeValue* v = item.find(name);
  if (v == nullptr || v->kind != kind) {
    throw DecodeError("pksk: a chunked item's " + std::string(name) + " is absent or not a " +
                      to_string(kind));
  }
  return *v;
}

inline std::size_t number(const AttributeValue& item, std::string_view name) {
  return static_cast<std::size_t>(
      std::stoull(member(item, name, AttributeValue::Kind::number).text));
}
}  // namespace chunk_io

PKSK_DECL bool is_chunk_head(std::string_view text) noexcept {
  return text.find("\"pksk:chunks\":") != std::string_view::npos;
}

PKSK_DECL ChunkHead parse_chunk_head(std::string_view text, BodyFormat format) {
  const AttributeValue item = parse_body(text, format);
  ChunkHead head;
  head.version = chunk_io::member(item, chunk_version_attribute, AttributeValue::Kind::string).text;
  head.count = chunk_io::number(item, chunk_count_attribute);
  head.bytes = chunk_io::number(item, chunk_names::bytes);
  const AttributeValue* beside = item.find(chunk_names::beside);
  head.beside =
      beside != nullptr && beside->kind == AttributeValue::Kind::boolean && beside->boolean;
  return head;
}

PKSK_DECL std::size_t chunk_head_body(const backend::TableSpec& spec, std::string_view pk,
                                      std::string_view sk, std::string_view type,
                                      const ChunkHead& head, BodyFormat format, std::string& out) {
  AttributeValue item = AttributeValue::empty_map();
  item.assign(chunk_count_attribute, AttributeValue::from_number(std::to_string(head.count)));
  item.assign(chunk_version_attribute, AttributeValue::from_string(head.version));
  item.assign(chunk_names::bytes, AttributeValue::from_number(std::to_string(head.bytes)));
  if (head.beside) item.assign(chunk_names::beside, AttributeValue::from_bool(true));
  chunk_io::append_body(item, format, out);
  return chunk_io::stored_size(spec, pk, sk, type, item);
}

PKSK_DECL std::vector<std::string_view> split_body(std::string_view body) {
  std::vector<std::string_view> pieces;
  while (!body.empty()) {
    std::size_t n = std::min(chunk_data_bytes, body.size());
    // Never inside a UTF-8 sequence: each piece is a string DynamoDB accepts.
    while (n < body.size() && n > 0 && (static_cast<unsigned char>(body[n]) & 0xC0) == 0x80) --n;
    pieces.push_back(body.substr(0, n));
    body.remove_prefix(n);
  }
  return pieces;
}

PKSK_DECL ChunkKey chunk_key(std::string_view parent_pk, const ChunkHead& head, std::size_t seq) {
  std::string name = std::string(chunk_type) + "#" + head.version + "#" + std::to_string(seq);
  if (head.beside) return {std::string(parent_pk), std::move(name)};
  return {std::move(name), std::string(chunk_type)};
}

PKSK_DECL std::size_t chunk_body(const backend::TableSpec& spec, const ChunkKey& key,
                                 std::string_view parent_pk, std::string_view parent_sk,
                                 std::string_view version, std::string_view data, BodyFormat format,
                                 std::string& out) {
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  AttributeValue item = AttributeValue::empty_map();
  item.assign(chunk_names::data, AttributeValue::from_string(std::string(data)));
  item.assign(chunk_names::parent_pk, AttributeValue::from_string(std::string(parent_pk)));
  item.assign(chunk_names::parent_sk, AttributeValue::from_string(std::string(parent_sk)));
  item.assign(chunk_version_attribute, AttributeValue::from_string(std::string(version)));
  item.assign(chunk_names::written, AttributeValue::from_number(std::to_string(now)));
  chunk_io::append_body(item, format, out);
  return chunk_io::stored_size(spec, key.pk, key.sk, chunk_type, item);
}

PKSK_DECL ChunkContent parse_chunk(std::string_view text, BodyFormat format) {
  AttributeValue item = parse_body(text, format);
  ChunkContent chunk;
  chunk.parent_pk =
      chunk_io::member(item, chunk_names::parent_pk, AttributeValue::Kind::string).text;
  chunk.parent_sk =
      chunk_io::member(item, chunk_names::parent_sk, AttributeValue::Kind::string).text;
  chunk.version =
      chunk_io::member(item, chunk_version_attribute, AttributeValue::Kind::string).text;
  chunk.written = std::chrono::system_clock::time_point(std::chrono::milliseconds(
      static_cast<std::int64_t>(chunk_io::number(item, chunk_names::written))));
  // Absent when the chunk was read without its bytes (sweep_chunks reads only the rest).
  if (AttributeValue* data = item.find(chunk_names::data);
      data != nullptr && data->kind == AttributeValue::Kind::string) {
    chunk.data = std::move(data->text);
  }
  return chunk;
}

PKSK_DECL backend::Condition chunk_head_condition(const std::optional<ChunkHead>& old) {
  if (!old) {
    return {
        backend::Condition::Op::not_exists, {path_operand(top_level(chunk_version_attribute))}, {}};
  }
  return {backend::Condition::Op::eq,
          {path_operand(top_level(chunk_version_attribute)),
           value_operand(AttributeValue::from_string(old->version))},
          {}};
}

PKSK_DECL void throw_chunk_missing(std::string_view table, std::string_view type,
                                   std::string_view pk, std::string_view sk, const ChunkHead& head,
                                   std::size_t seq) {
  throw ChunkMissing(table_context(table, "read", type) + "item" +
                     key_text(backend::ItemKey{pk, sk}) + " is chunked, and chunk " +
                     std::to_string(seq + 1) + " of " + std::to_string(head.count) +
                     " of its version " + detail::quoted(head.version) +
                     " is missing, also after reading the item again (a sweep_chunks that "
                     "removed the chunks of a write in progress, or chunks removed by hand)");
}

PKSK_DECL void throw_chunked_without_type(std::string_view table, std::string_view type,
                                          std::string_view pk, std::string_view sk) {
  throw ValidationError(table_context(table, "put", type) + "item" +
                        key_text(backend::ItemKey{pk, sk}) +
                        " is over 400 KB and would be chunked, but the table stores no type "
                        "attribute (type_attribute is empty), so its chunk items could not be "
                        "told from other items; nothing was written");
}

PKSK_DECL void throw_chunked_read_refused(std::string_view table, std::string_view what) {
  throw ValidationError("pksk table " + detail::quoted(table) + ": a read of a chunked entity (" +
                        std::string(what) +
                        ") takes no select, and a chunked entity's read no filter: the table holds "
                        "a chunked item's head, not its members, so they would be applied to the "
                        "head");
}

PKSK_DECL void throw_chunked_filter_refused(std::string_view table, std::string_view type,
                                            std::string_view attribute) {
  throw ValidationError(
      "pksk table " + detail::quoted(table) + ": a read of an ItemCollection whose member " +
      std::string(type) + " is chunked takes no filter on " + std::string(type) + "'s attribute " +
      detail::quoted(attribute) + ": the table holds a large " + std::string(type) +
      " as a head without its members, which the filter would be applied to; "
      "filter on the type (pksk::type_is), the sort key or other members");
}

}  // namespace pksk::detail
