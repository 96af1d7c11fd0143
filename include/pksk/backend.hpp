// SPDX-License-Identifier: BSL-1.0
#pragma once
// The Backend concept and the raw shapes it speaks, for those who write a backend: the core
// umbrella <pksk/pksk.hpp> includes it too. AnyBackend holds any backend chosen at run time.

#include "backend/any_backend.hpp"
#include "backend/backend.hpp"
