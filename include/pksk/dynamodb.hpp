// SPDX-License-Identifier: BSL-1.0
#pragma once
// The DynamoDB backend: pksk::dynamodb::Backend, for Amazon DynamoDB and the services that
// speak its API. Link the CMake target pksk::dynamodb (libcurl); the core stays free of it.

#include "dynamodb/backend.hpp"
#include "dynamodb/credentials.hpp"
#include "dynamodb/credentials/chain.hpp"
#include "dynamodb/credentials/sources.hpp"
#include "dynamodb/s3_blob_store.hpp"
#include "pksk.hpp"

#ifdef PKSK_SEPARATE_COMPILATION
#ifdef PKSK_DETAIL_SRC_INCLUDED
#error \
    "<pksk/dynamodb.hpp> after <pksk/src.hpp>: src.hpp compiles only the backends whose headers come before it; include <pksk/dynamodb.hpp> first"
#endif
// Table<dynamodb::Backend>'s and Maintenance<dynamodb::Backend>'s own members are compiled once, by
// <pksk/src.hpp>.
extern template class pksk::Table<pksk::dynamodb::Backend>;
extern template class pksk::Maintenance<pksk::dynamodb::Backend>;
#endif
