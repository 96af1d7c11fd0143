// SPDX-License-Identifier: BSL-1.0
#pragma once
// Decoding one row a backend hands over into an entity, with a failure reported as the row's
// key and type in the table: the one decode every Table read goes through. A key member the
// body lacks is read back from the row's keys (key/read_back.hpp).

#include <string>
#include <string_view>

#include "../../backend/backend.hpp"
#include "../../codec/body_format.hpp"
#include "../../codec/entity_code.hpp"
#include "../../detail/config.hpp"
#include "../../error.hpp"
#include "../../key/read_back.hpp"
#include "blob_scopes.hpp"
#include "indexed_row.hpp"
#include "messages.hpp"

namespace pksk::detail {

// The message of throw_decode_error: the table, the item's key and type, and the error.
PKSK_DECL std::string decode_error_message(std::string_view table, const backend::ItemView& row,
                                           const DecodeError& error);

[[noreturn]] PKSK_DECL void throw_decode_error(std::string_view table, const backend::ItemView& row,
                                               const DecodeError& error);

// A row of another type than the entity `type` a get asked for.
[[noreturn]] PKSK_DECL void throw_wrong_type(std::string_view table, const backend::ItemView& row,
                                             std::string_view type, std::string_view operation);

// `keys` gives the keys the members the body lacks are read back from (key/read_back.hpp).
template <class T, class Format, class Keys>
void decode_row(Format format, std::string_view table, BodyDecoder& decoder,
                const backend::ItemView& row, const Keys& keys, T& out) {
  try {
    complete_key_members(keys, out,
                         EntityCode<T>::decode(format, decoder, row.live, row.body, out));
  } catch (const DecodeError& e) {
    throw_decode_error(table, row, e);
  }
}

template <class T, class Format>
void decode_row(Format format, std::string_view table, BodyDecoder& decoder,
                const backend::ItemView& row, T& out) {
  decode_row(format, table, decoder, row, row, out);
}

// The same, for a Table: an entity with blob members fetches them from the table's store, and
// the members only an index's keys hold are read back from them (`through`: the index read,
// nullptr for the table).
template <class T, class Format>
void decode_row(Format format, const backend::TableSpec& spec, BodyDecoder& decoder,
                const backend::ItemView& row, T& out, const TableIndex* through = nullptr) {
  const IndexedRow keys{row, format, spec, through};
  if constexpr (has_blob_members_v<T>) {
    const BlobReadScope blobs(spec, type_name_v<T>, "read");
    decode_row(format, std::string_view(spec.name), decoder, row, keys, out);
  } else {
    decode_row(format, std::string_view(spec.name), decoder, row, keys, out);
  }
}

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/decode_row.ipp"
#endif
