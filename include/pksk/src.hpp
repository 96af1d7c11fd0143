// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk's non-template code, for a program built with PKSK_SEPARATE_COMPILATION defined in every
// translation unit: include this in exactly one of them, after the headers of the backends the
// program uses (<pksk/sqlite.hpp>, <pksk/dynamodb.hpp>), and it defines those backends there.
// That translation unit alone then includes <sqlite3.h> or <curl/curl.h>, and links against
// SQLite or libcurl (the CMake targets pksk::sqlite and pksk::dynamodb carry them). It also
// compiles Table's own members for the library's backends, which the backend headers declare
// extern in this mode.
#ifndef PKSK_SEPARATE_COMPILATION
#error \
    "<pksk/src.hpp> is for programs that define PKSK_SEPARATE_COMPILATION in every translation unit; without it pksk is header-only and needs no source file"
#endif

// It compiles the library's backends whose headers came before it, and cannot see a backend
// header that comes after it, nor what other files use: included alone (or first), it compiled
// none, and the program failed to link with an undefined reference to every backend member.
// That is one error here instead (and in a backend header included after it). A program that
// uses only backends of its own defines PKSK_SRC_WITHOUT_LIBRARY_BACKENDS.
#if !defined(PKSK_DETAIL_SQLITE_BACKEND_DECLARED) && \
    !defined(PKSK_DETAIL_DYNAMODB_BACKEND_DECLARED) && !defined(PKSK_SRC_WITHOUT_LIBRARY_BACKENDS)
#error \
    "<pksk/src.hpp> compiles the backends whose headers come before it, and none did: include <pksk/sqlite.hpp> (and <pksk/dynamodb.hpp> if the program uses it) first; a program with only backends of its own defines PKSK_SRC_WITHOUT_LIBRARY_BACKENDS"
#endif
#define PKSK_DETAIL_SRC_INCLUDED 1

#include "detail/config.hpp"

#include "backend/impl/emulation.ipp"
#include "backend/impl/messages.ipp"
#include "blob/impl/directory_blob_store.ipp"
#include "codec/impl/blob_reads.ipp"
#include "codec/impl/decoder_handle.ipp"
#include "codec/impl/parsed_item.ipp"
#include "codec/impl/string_attributes.ipp"
#include "detail/impl/json_key.ipp"
#include "detail/impl/quoted.ipp"
#include "detail/impl/worker_pool.ipp"
#include "key/impl/read_back.ipp"
#include "key/impl/ulid.ipp"
#include "model/impl/access_patterns.ipp"
#include "pksk.hpp"
#include "table/impl/access_counts.ipp"
#include "table/impl/batch.ipp"
#include "table/impl/blob_scopes.ipp"
#include "table/impl/chunks.ipp"
#include "table/impl/cursor_signing.ipp"
#include "table/impl/decode_row.ipp"
#include "table/impl/fan_out.ipp"
#include "table/impl/item_encoding.ipp"
#include "table/impl/messages.ipp"
#include "table/impl/read_plan.ipp"
#include "table/impl/stats.ipp"
#include "table/impl/transact_get.ipp"
#include "table/impl/unique_guards.ipp"
#include "table/impl/versioning.ipp"

// Table's members that are not templates of their own, for the backends the library ships (the
// extern template declarations that promise them are beside each backend's Table).
template class pksk::Table<pksk::AnyBackend>;
template class pksk::Maintenance<pksk::AnyBackend>;

#ifdef PKSK_DETAIL_SQLITE_BACKEND_DECLARED
#include "sqlite/impl/backend.ipp"
template class pksk::Table<pksk::sqlite::Backend>;
template class pksk::Maintenance<pksk::sqlite::Backend>;
#endif
#ifdef PKSK_DETAIL_DYNAMODB_BACKEND_DECLARED
#include "dynamodb/impl/backend.ipp"
template class pksk::Table<pksk::dynamodb::Backend>;
template class pksk::Maintenance<pksk::dynamodb::Backend>;
#endif
#ifdef PKSK_DETAIL_DYNAMODB_CREDENTIALS_DECLARED
#include "dynamodb/credentials/impl/cache.ipp"
#include "dynamodb/credentials/impl/chain.ipp"
#include "dynamodb/credentials/impl/sources.ipp"
#endif
#ifdef PKSK_DETAIL_S3_BLOB_STORE_DECLARED
#include "dynamodb/impl/s3_blob_store.ipp"
#endif
