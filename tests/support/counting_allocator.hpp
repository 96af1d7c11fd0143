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

void* operator new(std::size_t size) {
  ++counting::allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return ::operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++counting::allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return ::operator new(size, tag);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
