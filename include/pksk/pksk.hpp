#pragma once
// pksk core: entities, key templates, the codec, item collections, queries and the typed
// Table over any Backend. No backend and no network here: include <pksk/sqlite.hpp> or
// <pksk/dynamodb.hpp> for one.

#include "backend.hpp"
#include "codec.hpp"
#include "collection.hpp"
#include "config.hpp"
#include "entity.hpp"
#include "enum_name.hpp"
#include "equal.hpp"
#include "error.hpp"
#include "key.hpp"
#include "key_condition.hpp"
#include "query.hpp"
#include "reflect.hpp"
#include "table.hpp"
