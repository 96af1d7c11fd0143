#pragma once
// The Backend concept and the raw shapes it speaks, for those who write a backend: the core
// umbrella <pksk/pksk.hpp> includes it too.

#include "backend/backend.hpp"
