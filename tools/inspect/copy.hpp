// SPDX-License-Identifier: BSL-1.0
#pragma once
// Copying a table from one location to another (an SQLite file or a DynamoDB table, either
// way), resumable from a checkpoint, and verifying that two tables hold the same items.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

#include "location.hpp"
#include "progress.hpp"
#include "transfer.hpp"

namespace pksk::inspect {

// The copy stopped before the end (SIGINT, SIGTERM, or --stop-after): its checkpoint holds what
// was written, and the same command continues from there. Exit status 130.
struct Interrupted : Failure {
  using Failure::Failure;
};

struct CopyOptions {
  std::size_t batch = 1000;                 // items per batch write (a transaction on SQLite)
  double rate = 0;                          // items written per second at most; 0: no limit
  std::string checkpoint;                   // the checkpoint file
  std::optional<std::size_t> stop_after{};  // for tests: an interruption after this many
  ProgressStyle progress = ProgressStyle::lines;
};

// Writes every item of `table` at `source` into `target_table` at `target` (created when
// missing), batch by batch in the source's scan order. After each batch the checkpoint records
// the count and the last key written; a copy that finds its checkpoint (of the same source and
// target) continues after that key, and a finished copy removes it. Progress goes to `progress`.
TransferCount copy_items(const Location& source, const backend::TableSpec& table,
                         const Location& target, const backend::TableSpec& target_table,
                         const CopyOptions& options, std::ostream& progress);

struct VerifyOutcome {
  std::size_t source_items = 0, target_items = 0;
  std::size_t collections = 0;  // partition keys found on either side
  std::size_t differing = 0;    // of those, the ones whose items differ
};

// Compares the two tables collection by collection (partition key): the item count and an
// order-independent checksum of the items' canonical DynamoDB JSON (attributes sorted by name;
// a string set as the sorted list of its strings, which is how an SQLite file holds one). Each
// differing collection gets a line on `out`, then a summary line.
VerifyOutcome verify_tables(const Location& source, const backend::TableSpec& table,
                            const Location& target, const backend::TableSpec& target_table,
                            std::ostream& out);

}  // namespace pksk::inspect
