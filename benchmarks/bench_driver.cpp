// SPDX-License-Identifier: BSL-1.0
// A minimal driver for callgrind: opens a dataset, runs one warm-up query, then --queries=K
// collection queries of one side (--mode). callgrind.sh runs it with K and with 0 and divides
// the difference by K, so that opening, preparing and warming up cancel out.
//
//   pksk_bench_driver --mode=prepare|rows|floor|newest10|pksk|pksk_newest10|pksk_any|
//                            pksk_any_newest10|pksk_renamed|pksk_renamed_newest10|pksk_valued
//                            [--queries=K]
//                     [--customers=N] [--data-dir=DIR]
//
// Prints the checksum of what the K queries decoded, so two sides can be seen to agree.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "filter_floor.hpp"
#include "floor.hpp"
#include "index_side.hpp"
#include "options.hpp"
#include "renamed_side.hpp"
#include "setup.hpp"

using namespace bench;

namespace {

struct RowsOnly {
  std::size_t rows = 0;
  Checksum sum;
};
std::size_t fold(const RowsOnly& r, Checksum& cs) {
  cs.value += r.sum.value;
  return r.rows;
}

template <class Query>
std::uint64_t run(const CustomerStream& stream, long queries, Query&& query) {
  Checksum cs;
  Checksum warm;
  fold(query(stream.size() - 1), warm);
  for (long i = 0; i < queries; ++i) fold(query(static_cast<std::size_t>(i) % stream.size()), cs);
  return cs.value;
}

}  // namespace

int main(int argc, char** argv) try {
  Options options = parse_options(argc, argv);
  std::string mode = "floor";
  long queries = 1000;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--mode=")) {
      mode = a.substr(7);
    } else if (a.starts_with("--queries=")) {
      queries = std::stol(std::string(a.substr(10)));
    } else {
      std::fprintf(stderr, "unknown argument: %s\n", argv[i]);
      return 2;
    }
  }

  const std::string path = ensure_dataset(options.data_dir, options.customers);
  if (mode == "prepare") {
    ensure_index_dataset(options.data_dir, options.customers);
    ensure_renamed_dataset(options.data_dir, options.customers);
    return 0;
  }
  const CustomerStream stream(options.customers);

  std::uint64_t checksum = 0;
  if (mode == "floor") {
    Floor floor(path);
    checksum =
        run(stream, queries, [&](std::size_t at) { return floor.collection(stream.pks[at]); });
  } else if (mode == "newest10") {
    Floor floor(path);
    checksum =
        run(stream, queries, [&](std::size_t at) { return floor.newest(stream.pks[at], 11); });
  } else if (mode == "rows") {
    Floor floor(path);
    checksum = run(stream, queries, [&](std::size_t at) {
      RowsOnly r;
      r.rows = floor.rows_only(stream.pks[at], r.sum);
      return r;
    });
  } else if (mode == "pksk" || mode == "pksk_newest10") {
    PkskSide side(path);
    const std::vector<pksk::PartitionKey> pks = pksk_partitions(stream);
    const bool newest = mode == "pksk_newest10";
    checksum = run(stream, queries, [&](std::size_t at) {
      return newest ? side.newest(pks[at]) : side.collection(pks[at]);
    });
  } else if (mode == "pksk_any" || mode == "pksk_any_newest10") {
    PkskAnySide side(path);  // Table<AnyBackend> over the same SQLite file
    const std::vector<pksk::PartitionKey> pks = pksk_partitions(stream);
    const bool newest = mode == "pksk_any_newest10";
    checksum = run(stream, queries, [&](std::size_t at) {
      return newest ? side.newest(pks[at]) : side.collection(pks[at]);
    });
  } else if (mode == "pksk_renamed" || mode == "pksk_renamed_newest10") {
    // The same collections, stored under PascalCase names with one renamed (renamed_side.hpp).
    PkskRenamedSide side(ensure_renamed_dataset(options.data_dir, options.customers));
    const std::vector<pksk::PartitionKey> pks = pksk_partitions(stream);
    const bool newest = mode == "pksk_renamed_newest10";
    checksum = run(stream, queries, [&](std::size_t at) {
      return newest ? side.newest(pks[at]) : side.collection(pks[at]);
    });
  } else if (mode == "pksk_valued") {
    // The renamed collections, each order's total a converted member (renamed_side.hpp).
    PkskRenamedSide side(ensure_renamed_dataset(options.data_dir, options.customers));
    const std::vector<pksk::PartitionKey> pks = pksk_partitions(stream);
    checksum =
        run(stream, queries, [&](std::size_t at) { return side.valued_collection(pks[at]); });
  } else if (mode == "filtered_floor") {
    FilterFloor floor(path);
    checksum = run(stream, queries, [&](std::size_t at) {
      return floor.collection_total_above(stream.pks[at], 1000.0);
    });
  } else if (mode == "filtered_pksk") {
    PkskSide side(path);
    const std::vector<pksk::PartitionKey> pks = pksk_partitions(stream);
    checksum =
        run(stream, queries, [&](std::size_t at) { return side.total_above(pks[at], 1000.0); });
  } else if (mode == "index_floor") {
    IndexFloor floor(ensure_index_dataset(options.data_dir, options.customers));
    checksum = run(stream, queries,
                   [&](std::size_t at) { return floor.orders_by_status(stream.pks[at]); });
  } else if (mode == "index_pksk") {
    PkskIndexSide side(ensure_index_dataset(options.data_dir, options.customers));
    const std::vector<pksk::PartitionKey> pks = pksk_partitions(stream);
    checksum = run(stream, queries, [&](std::size_t at) { return side.orders_by_status(pks[at]); });
  } else if (mode == "projection_pksk" || mode == "projection_full") {
    PkskSide side(path);
    const std::vector<pksk::PartitionKey> pks = pksk_partitions(stream);
    const bool projected = mode == "projection_pksk";
    checksum = run(stream, queries, [&](std::size_t at) {
      return projected ? side.orders_projected(pks[at]) : side.orders(pks[at]);
    });
  } else {
    std::fprintf(stderr, "unknown mode: %s\n", mode.c_str());
    return 2;
  }
  std::printf("mode=%s queries=%ld checksum=%llu\n", mode.c_str(), queries,
              static_cast<unsigned long long>(checksum));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
