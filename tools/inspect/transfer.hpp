// SPDX-License-Identifier: BSL-1.0
#pragma once
// Export and import in DynamoDB's JSON export format (what "Export to S3" writes in DYNAMODB_JSON
// format): one {"Item":{...}} per line, each attribute as AttributeValue JSON. A file whose
// name ends in .gz is gzip-compressed; "-" is standard output or input.

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "items.hpp"
#include "location.hpp"

namespace pksk::inspect {

struct TransferCount {
  std::size_t items = 0;
  std::size_t bytes = 0;  // DynamoDB's measure
};

// Every item of `table`, scanned page by page.
TransferCount export_items(const Location& where, const backend::TableSpec& table,
                           const std::string& file);

// Puts every item of `file` into `table`, `batch` items per backend batch write (on SQLite
// one write transaction each; on DynamoDB BatchWriteItem requests of 25). An item replaces one
// with its key, so importing a file twice leaves what importing it once does. A line that is
// not an item is a Failure naming its line number; the batches before it are written.
TransferCount import_items(const Location& where, const backend::TableSpec& table,
                           const std::string& file, std::size_t batch);

// Writes the items of one batch (one key each) through the backend's batch write, handing what
// it leaves unprocessed back with a growing pause (DynamoDB's throttling); a Failure once it
// keeps refusing. Import and copy write through it.
void write_batch(const Location& where, const AnyBackend::TableHandle& handle,
                 const std::vector<StoredItem>& items);

// One line of an export: {"Item":{...}} for a whole item (items.hpp), without the newline.
void append_export_line(std::string& out, const AttributeValue& item);

}  // namespace pksk::inspect
