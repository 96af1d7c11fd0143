// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of batch.hpp: inline through it in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../error.hpp"
#include "../batch.hpp"
#include "../detail/messages.hpp"

namespace pksk::detail {

PKSK_DECL std::vector<std::size_t> last_write_of_each_key(std::span<const backend::ItemKey> keys,
                                                          std::span<const std::size_t> pending) {
  // The rare path (a retry): the keys of the slice are indexed once, the last index of each.
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> last;
  for (std::size_t i = 0; i < keys.size(); ++i) last[{keys[i].pk, keys[i].sk}] = i;
  std::vector<std::size_t> kept;
  kept.reserve(pending.size());
  for (std::size_t i : pending) {
    if (last[{keys[i].pk, keys[i].sk}] == i) kept.push_back(i);
  }
  return kept;
}

PKSK_DECL void refuse_duplicate_keys(std::string_view table,
                                     std::span<const backend::ItemKey> group,
                                     std::string_view operation) {
  // Keys in strictly increasing order (the usual bulk load) are distinct: one comparison a
  // key instead of one a pair. Otherwise every pair is compared, so the error names the
  // first pair in the order of the request.
  const auto less = [](const backend::ItemKey& a, const backend::ItemKey& b) {
    const int pk = a.pk.compare(b.pk);
    return pk < 0 || (pk == 0 && a.sk < b.sk);
  };
  bool increasing = true;
  for (std::size_t i = 1; i < group.size() && increasing; ++i) {
    increasing = less(group[i - 1], group[i]);
  }
  if (increasing) return;
  for (std::size_t i = 0; i < group.size(); ++i) {
    for (std::size_t j = i + 1; j < group.size(); ++j) {
      if (group[i] == group[j]) {
        throw ValidationError("pksk table " + detail::quoted(table) + ", " +
                              std::string(operation) + ": items " + std::to_string(i) + " and " +
                              std::to_string(j) + " of one batch request have the same key " +
                              detail::key_text(group[i]));
      }
    }
  }
}

}  // namespace pksk::detail
