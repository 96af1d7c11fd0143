// SPDX-License-Identifier: BSL-1.0
#pragma once
// Replaces the global operator new of the binary that includes this header (once!), so a
// test can count heap allocations around a call. Include it from exactly one source file.

#include <cstddef>
#include <cstdlib>
#include <new>

namespace counting {
inline thread_local std::size_t allocations = 0;

// Allocations made while running f.
template <class F>
std::size_t allocations_during(F&& f) {
  const std::size_t before = allocations;
  f();
  return allocations - before;
}
}  // namespace counting

// The replacements stay out of line ([[gnu::noinline]]): inlined at -O2, g++ 12 sees free()
// applied to what it takes for the built-in operator new's memory and rejects the program
// (-Werror=mismatched-new-delete), although here both sides are malloc and free.
[[gnu::noinline]] void* operator new(std::size_t size) {
  ++counting::allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new[](std::size_t size) {
  return ::operator new(size);
}
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++counting::allocations;
  return std::malloc(size == 0 ? 1 : size);
}
[[gnu::noinline]] void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return ::operator new(size, tag);
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
