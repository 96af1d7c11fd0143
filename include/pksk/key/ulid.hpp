// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::ulid(): sortable unique ids for key values (an order id, a message id), as the ULID
// specification defines them (github.com/ulid/spec): 26 characters of Crockford's base32, the
// first 10 the milliseconds since the Unix epoch, the last 16 eighty random bits. Ids sort in
// byte order as they sort in time, so "ORDER#{order_id}" with ulid() ids reads oldest first.
//
// Monotonic: within one millisecond (and when the system clock steps back) each id is the
// previous one plus one in its random part, so that ids made one after the other always sort
// in the order they were made, across threads too (one generator per process, behind a mutex).
// Roughly 2^79 ids fit in one millisecond before one borrows the next.
// The random part comes from std::random_device once and a 64-bit generator after it: ids are
// unique, not secret (do not use them as tokens).

#include <chrono>
#include <string>

#include "../detail/config.hpp"

namespace pksk {

// A new id, greater than every id this process made before.
// Throws: only std::bad_alloc (and std::random_device's error, the first call in the process).
// Exception safety: strong.
PKSK_DECL std::string ulid();

// An id for a given time (before 1970 or past 2^48 - 1 ms is a ValidationError): ids for items
// imported with their own times. Ids made one after another for the same millisecond sort in
// the order made; for an earlier time than the last id, the id is new, not greater.
// Throws: ValidationError for a time outside what an id holds; as ulid().
// Exception safety: strong.
PKSK_DECL std::string ulid(std::chrono::system_clock::time_point at);

// The milliseconds since the epoch an id was made at; ValidationError for text that is not an
// id (26 characters of Crockford's base32, the first at most '7').
// Throws: ValidationError for text that is not an id.
// Exception safety: strong.
PKSK_DECL std::chrono::system_clock::time_point ulid_time(std::string_view id);

}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/ulid.ipp"
#endif
