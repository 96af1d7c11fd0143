// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a decode writes into: a struct that may hold a previous item's values (a reused struct,
// the default), whose fields the body lacks must be set back to their defaults, or one just
// value-initialised (an element a read appends to its result), where they already are.

namespace pksk {

// reused: set the fields the body lacks back to their defaults; fresh: they already are.
enum class DecodeTarget : bool { reused, fresh };

}  // namespace pksk
