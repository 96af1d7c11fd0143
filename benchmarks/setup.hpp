#pragma once
// Which writer fills pksk's table: pksk::Table::put when the benchmarks are built with pksk,
// else the by-hand filler (same format), so that the baselines run before pksk is complete.

#include <string>

#include "dataset.hpp"

#ifdef PKSK_BENCH_WITH_PKSK
#include "pksk_side.hpp"
#endif

namespace bench {

inline std::string ensure_dataset(const std::string& dir, int customers) {
#ifdef PKSK_BENCH_WITH_PKSK
  return ensure_dataset(dir, customers, "pksk", fill_pksk_table);
#else
  return ensure_dataset(dir, customers, "hand", fill_pksk_table_by_hand);
#endif
}

}  // namespace bench
