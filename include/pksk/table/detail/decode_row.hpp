// SPDX-License-Identifier: BSL-1.0
#pragma once
// Decoding one row a backend hands over into an entity, with a failure reported as the row's
// key and type in the table: the one decode every Table read goes through.

#include <string_view>

#include "../../backend/backend.hpp"
#include "../../codec/body_format.hpp"
#include "../../codec/entity_code.hpp"
#include "../../error.hpp"
#include "messages.hpp"

namespace pksk::detail {

[[noreturn]] inline void throw_decode_error(std::string_view table, const ItemView& row,
                                            const DecodeError& error) {
  throw DecodeError(table_context(table, "read", row.type) + "item pk=" +
                    detail::quoted(row.partition_key()) + " sk=" + detail::quoted(row.sort_key()) +
                    " type=" + detail::quoted(row.type) + ": " + error.what());
}

template <class T, class Format>
void decode_row(Format format, std::string_view table, BodyDecoder& decoder, const ItemView& row,
                T& out) {
  try {
    EntityCode<T>::decode(format, decoder, row.live, row.body, out);
  } catch (const DecodeError& e) {
    throw_decode_error(table, row, e);
  }
}

}  // namespace pksk::detail
