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
    auto value = [&](std::string_view flag) -> std::string_view {
      return a.starts_with(flag) ? a.substr(flag.size()) : std::string_view{};
    };
    if (auto v = value("--customers="); !v.empty()) {
      o.customers = std::stoi(std::string(v));
    } else if (auto v2 = value("--scale="); !v2.empty()) {
      o.scale = parse_int_list(v2);
    } else if (auto v3 = value("--data-dir="); !v3.empty()) {
      o.data_dir = std::string(v3);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return o;
}

}  // namespace bench
