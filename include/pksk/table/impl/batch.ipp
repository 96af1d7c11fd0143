// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of batch.hpp: inline through it in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "../../backend/backend.hpp"
#include "../../error.hpp"
#include "../batch.hpp"
#include "../detail/messages.hpp"

namespace pksk::detail {

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
