#pragma once
// pksk core: entities, key templates, the codec, item collections, queries and the typed
// Table over any Backend. No backend and no network here: include <pksk/sqlite.hpp> or
// <pksk/dynamodb.hpp> for one.
//
// One folder per layer, each including only its own layer or those below it:
// reflect/ -> key/ -> codec/ -> expr/ -> model/ -> backend/ -> table/, with error.hpp,
// config.hpp and detail/ beneath them all; the backends, sqlite/ and dynamodb/, sit on
// backend/ and the layers below it.

#include "backend.hpp"
#include "codec/attribute_value.hpp"
#include "codec/codec.hpp"
#include "codec/decimal.hpp"
#include "codec/item_size.hpp"
#include "config.hpp"
#include "error.hpp"
#include "expr/attr.hpp"
#include "expr/evaluate.hpp"
#include "expr/expression.hpp"
#include "expr/filter.hpp"
#include "expr/render.hpp"
#include "key/condition.hpp"
#include "key/entity.hpp"
#include "key/index.hpp"
#include "key/key.hpp"
#include "key/typed_condition.hpp"
#include "model/collection.hpp"
#include "reflect/enum_name.hpp"
#include "reflect/equal.hpp"
#include "reflect/reflect.hpp"
#include "table/query.hpp"
#include "table/table.hpp"
#include "table/transaction.hpp"
#include "version.hpp"
