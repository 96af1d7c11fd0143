// SPDX-License-Identifier: BSL-1.0
#pragma once
// The dataset every case reads: pksk's table written through pksk::Table::put, and the
// normalised schema, in one cached file.

#include <string>

#include "dataset.hpp"
#include "pksk_side.hpp"

namespace bench {

inline std::string ensure_dataset(const std::string& dir, int customers) {
  return ensure_dataset(dir, customers, "pksk", fill_pksk_table);
}

}  // namespace bench
