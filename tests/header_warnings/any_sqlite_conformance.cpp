// SPDX-License-Identifier: BSL-1.0
// pksk's headers under every warning, as a user's build includes them, instantiated by the
// conformance cases through AnyBackend on the SQLite backend (README.md here): Table's
// run-time body format and AnyBackend's dispatch are held to -Wextra too.

#include <pksk/backend.hpp>
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // for the test code below only
#include "../conformance/on_any.cpp"
