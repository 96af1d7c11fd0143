// SPDX-License-Identifier: BSL-1.0
#pragma once
// Names recovered from the compiler's spelling of a function signature: the technique of
// Boost.PFR's names_as_array (Boost >= 1.84) and of magic_enum, for g++ and clang.

#include <array>
#include <cstddef>
#include <string_view>

namespace pksk::detail {

constexpr bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The last identifier in a signature such as
//   g++:   "... [with auto Ptr = PointerWrapper<...>{(& fake.value.Customer::email)}]"
//   clang: "... [Ptr = PointerWrapper<...>{&fake.value.email}]"
// Both end the name being sought with punctuation only.
constexpr std::string_view last_identifier(std::string_view signature) noexcept {
  std::size_t end = signature.size();
  while (end > 0 && !is_identifier_char(signature[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && is_identifier_char(signature[begin - 1])) --begin;
  return signature.substr(begin, end - begin);
}

// A string_view into static storage that outlives the consteval function it came from.
template <std::size_t N>
struct StaticName {
  std::array<char, N + 1> chars{};
  constexpr explicit StaticName(std::string_view name) {
    for (std::size_t i = 0; i < N; ++i) chars[i] = name[i];
  }
  constexpr std::string_view view() const noexcept { return {chars.data(), N}; }
};

}  // namespace pksk::detail
