// SPDX-License-Identifier: BSL-1.0
#pragma once
// Heap allocations made through operator new, counted by the replacement operators in
// alloc_counter.cpp (linked into every benchmark binary). SQLite's own malloc is not counted:
// both sides of each comparison read through SQLite alike.

#include <cstdint>

namespace bench {
std::uint64_t allocation_count() noexcept;
}
