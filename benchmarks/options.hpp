// SPDX-License-Identifier: BSL-1.0
#pragma once
// Sizes and places shared by the benchmark binary and the callgrind driver. Each can be given
// as a flag (--customers=N) or an environment variable (PKSK_BENCH_CUSTOMERS=N), so that ctest
// can run every case at a tiny size and a person can ask for 10M items.

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

struct Options {
  int customers = 1000;                 // the main dataset: 100 items a customer
  std::vector<int> scale{1000, 10000};  // the scale cases: 100k and 1M items
  std::string data_dir = "pksk-bench-data";
};

inline std::vector<int> parse_int_list(std::string_view s) {
  std::vector<int> out;
  while (!s.empty()) {
    const auto comma = s.find(',');
    out.push_back(std::stoi(std::string(s.substr(0, comma))));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

// Reads the environment, then removes the flags it knows from argv (flags win), leaving the
// rest for Google Benchmark.
inline Options parse_options(int& argc, char** argv) {
  Options o;
  if (const char* v = std::getenv("PKSK_BENCH_CUSTOMERS")) o.customers = std::stoi(v);
  if (const char* v = std::getenv("PKSK_BENCH_SCALE")) o.scale = parse_int_list(v);
  if (const char* v = std::getenv("PKSK_BENCH_DIR")) o.data_dir = v;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--customers=")) {
      o.customers = std::stoi(std::string(a.substr(12)));
    } else if (a.starts_with("--scale=")) {  // empty: no scale cases
      o.scale = parse_int_list(a.substr(8));
    } else if (a.starts_with("--data-dir=")) {
      o.data_dir = std::string(a.substr(11));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return o;
}

}  // namespace bench
