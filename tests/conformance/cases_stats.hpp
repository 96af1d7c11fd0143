// SPDX-License-Identifier: BSL-1.0
// The conformance cases on table.stats(), included by cases.hpp: counts and bytes per
// collection and per type, by DynamoDB's measure whatever the backend, from a parallel scan.

#include "ttl.hpp"

TEST_CASE("stats count items and DynamoDB's bytes per collection and per type",
          "[conformance][stats]") {
  Store store;
  TtlTable<Store> t(store);
  for (const char* at : {"01", "02", "03"})
    t.table.put(Probe{.device = "d1", .at = at, .value = 1});
  t.table.put(Probe{.device = "d2", .at = "01", .value = 7});
  t.table.put(ProbeIndex{.device = "d1"});
  // Expired, not yet deleted: not counted.
  t.table.put(Probe{.device = "d3", .at = "01", .value = 1, .expires = t.at(-10)});

  // By DynamoDB's measure: names plus values. A probe: pk "DEVICE#d1" (2 + 9), sk "01"
  // (2 + 2), type "Probe" (4 + 5), device "d1" (6 + 2), at "01" (2 + 2), value 1 (5 + 2) = 43.
  // The index item: 11 + sk "I" (2 + 1) + type "ProbeIndex" (4 + 10) + device (6 + 2) = 36.
  std::size_t last_items = 0, last_done = 0;
  const pksk::TableStats stats =
      t.table.stats({.largest = 1, .segments = 3, .progress = [&](const pksk::StatsProgress& p) {
                       CHECK(p.segments == 3);
                       last_items = p.items;
                       last_done = p.segments_done;
                     }});
  CHECK(last_items == 5);
  CHECK(last_done == 3);
  CHECK(stats.items == 5);
  CHECK(stats.bytes == 4 * 43 + 36);
  CHECK(stats.collections == 2);
  REQUIRE(stats.types.size() == 2);
  CHECK(stats.types[0] == pksk::TypeStats{.type = "Probe",
                                          .items = 4,
                                          .bytes = 4 * 43,
                                          .min_bytes = 43,
                                          .median_bytes = 43,
                                          .p99_bytes = 43,
                                          .max_bytes = 43});
  CHECK(stats.types[1].type == "ProbeIndex");
  CHECK(stats.types[1].bytes == 36);
  CHECK(stats.largest ==
        std::vector<pksk::CollectionStats>{{.pk = "DEVICE#d1", .items = 4, .bytes = 3 * 43 + 36}});
  CHECK(stats.warnings.empty());
  // A share of 10 GB so small that every collection is near it.
  const pksk::TableStats tiny = t.table.stats({.warn_share = 1e-9});
  REQUIRE(tiny.warnings.size() == 2);
  CHECK(tiny.warnings[0].collection.pk == "DEVICE#d1");
  CHECK(tiny.warnings[0].near_limit);
  CHECK_FALSE(tiny.warnings[0].many_items);
  CHECK_FALSE(tiny.warnings[0].large);
  CHECK(tiny.largest.size() == 2);
}
