// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/transact_get.hpp: inline through it in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../error.hpp"
#include "../detail/messages.hpp"
#include "../detail/transact_get.hpp"

namespace pksk::detail {

PKSK_DECL void check_transact_get_keys(std::string_view table,
                                       std::span<const backend::ItemKey> keys) {
  const std::string where = "pksk table " + detail::quoted(table) + ", transact_get: ";
  if (keys.empty() || keys.size() > backend::max_transaction_actions) {
    throw ValidationError(where + "a transactional read holds 1 to " +
                          std::to_string(backend::max_transaction_actions) + " keys, not " +
                          std::to_string(keys.size()));
  }
  // Sorted, equal keys are neighbours: n log n for 100 keys, and the pair named is the first
  // in the order of the keys among those of that item.
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto less = [&](std::size_t a, std::size_t b) {
    const int pk = keys[a].pk.compare(keys[b].pk);
    if (pk != 0) return pk < 0;
    const int sk = keys[a].sk.compare(keys[b].sk);
    return sk != 0 ? sk < 0 : a < b;
  };
  std::sort(order.begin(), order.end(), less);
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (keys[order[i - 1]] == keys[order[i]]) {
      throw ValidationError(where + "keys " + std::to_string(order[i - 1]) + " and " +
                            std::to_string(order[i]) + " name the same item " +
                            detail::key_text(keys[order[i]]) +
                            "; DynamoDB reads an item once per transaction");
    }
  }
}

}  // namespace pksk::detail
