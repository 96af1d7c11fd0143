// SPDX-License-Identifier: BSL-1.0
// pksk's headers under every warning, as a user's build includes them, instantiated by
// the conformance cases on the SQLite backend (README.md here).

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // for the test code below only
#include "../conformance/on_sqlite.cpp"
