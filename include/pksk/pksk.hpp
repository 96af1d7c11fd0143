// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk core: entities, key templates, the codec, item collections, queries and the typed
// Table over any Backend. No backend and no network here: include <pksk/sqlite.hpp> or
// <pksk/dynamodb.hpp> for one.
//
// One folder per layer, each including only its own layer or those below it, lowest first:
// reflect/ -> values/ -> key/ -> blob/ -> codec/ -> expr/ -> model/ -> backend/ -> extensions/
// -> table/ -> maintenance/ -> {sqlite/, dynamodb/}, the two backends peers that include neither
// each other. Beneath them all: detail/ (the library-wide private helpers) and the base headers
// error.hpp, config.hpp, value.hpp and version.hpp, which include only each other and detail/.
// Above them all: the umbrella headers (this one, sqlite.hpp, dynamodb.hpp, backend.hpp,
// entity_code.hpp, src.hpp), which no folder includes. A folder's own detail/ and impl/ are
// private to it (src.hpp alone includes every impl/, by design). scripts/check_layers.py, the
// test layers.check, enforces this order (its LAYERS).

#include "backend.hpp"
#include "blob/blob_store.hpp"
#include "codec/attribute_value.hpp"
#include "codec/attribute_value_json.hpp"
#include "codec/decimal.hpp"
#include "codec/encode.hpp"
#include "codec/entity_code.hpp"
#include "codec/item_size.hpp"
#include "config.hpp"
#include "error.hpp"
#include "expr/attr.hpp"
#include "expr/expression.hpp"
#include "expr/filter.hpp"
#include "expr/render.hpp"
#include "expr/update.hpp"
#include "key/condition.hpp"
#include "key/entity.hpp"
#include "key/index.hpp"
#include "key/key.hpp"
#include "key/stored_names.hpp"
#include "key/typed_condition.hpp"
#include "key/ulid.hpp"
#include "maintenance/maintenance.hpp"
#include "model/access_patterns.hpp"
#include "model/collection.hpp"
#include "reflect/enum_name.hpp"
#include "reflect/equal.hpp"
#include "reflect/reflect.hpp"
#include "table/query.hpp"
#include "table/table.hpp"
#include "table/write_result.hpp"
#include "table/transaction.hpp"
#include "value.hpp"
#include "values/epoch.hpp"
#include "version.hpp"

// Header-only, the core brings the JSON readers and the in-process evaluator too, as it always
// has. With PKSK_SEPARATE_COMPILATION it leaves them to the translation units that need them (an
// entity's own, <pksk/entity_code.hpp>; a backend's): the others then parse no JSON reader.
#ifndef PKSK_SEPARATE_COMPILATION
#include "backend/emulation/evaluate.hpp"
#include "codec/attribute_value_read.hpp"
#include "codec/codec.hpp"
#endif
