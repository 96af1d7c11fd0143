// SPDX-License-Identifier: BSL-1.0
#pragma once
// Entity <-> item text, in two formats from one traversal each way: encode.hpp writes the JSON
// body the SQLite backend stores and DynamoDB's AttributeValue JSON, decode.hpp reads them back
// with simdjson On-Demand.

#include "decode.hpp"
#include "encode.hpp"
