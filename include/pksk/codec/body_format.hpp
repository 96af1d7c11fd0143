// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which text an item body is: the backend decides (Backend::body_format), Table encodes and
// decodes with the matching writer and reader, one traversal either way.

namespace pksk {

// The two forms an item body is kept in.
enum class BodyFormat : unsigned char {
  json,             // plain JSON: the SQLite backend, readable in the sqlite3 shell
  attribute_value,  // DynamoDB's AttributeValue JSON ({"S": "..."})
};

}  // namespace pksk
