// SPDX-License-Identifier: BSL-1.0
#pragma once
// A row handed over by a read of the table or of one of its indexes, as the keys source of
// complete_key_members (key/read_back.hpp): besides the row's table keys it gives the item's
// keys in an index, looked up in the item by the index's key attribute names, so that a member
// only an index's templates hold comes back from a KEYS_ONLY or INCLUDE index.

#include <string>
#include <string_view>

#include "../../backend/backend.hpp"
#include "../../codec/body_format.hpp"
#include "../../codec/string_attributes.hpp"

namespace pksk::detail {

struct IndexedRow {
  const backend::ItemView& row;
  BodyFormat format;
  const backend::TableSpec& spec;
  const TableIndex* through = nullptr;  // the index read; nullptr: the table

  std::string_view partition_key() const { return row.partition_key(); }
  std::string_view sort_key() const { return row.sort_key(); }
  std::string_view read_through() const noexcept {
    return through != nullptr ? std::string_view(through->name) : std::string_view();
  }

  // The item's keys in the table's index `index_name`: false when the table has no such index
  // or the item does not hold its partition key.
  bool index_keys(std::string_view index_name, std::string& pk, std::string& sk) const {
    const TableIndex* index = spec.find_index(index_name);
    return index != nullptr &&
           read_two_string_attributes(format, row.live, row.body, index->pk_attribute,
                                      index->sk_attribute, pk, sk);
  }
};

}  // namespace pksk::detail
