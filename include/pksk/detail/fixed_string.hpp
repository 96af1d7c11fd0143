// SPDX-License-Identifier: BSL-1.0
#pragma once
// A string usable as a template argument. pksk passes key templates and offending text to its
// diagnostic class templates this way, because a C++20 static_assert message must be a literal:
// the compiler then prints the text as part of the template arguments of the failed check.

#include <cstddef>
#include <string_view>

namespace pksk::detail {

template <std::size_t N>
struct fixed_string {
  // NUL-terminated so that compilers print it as a string literal. The constructors store the
  // NUL explicitly: left to the default member initializer, clang 16 prints some lengths (8,
  // 16, ...) as a list of character codes instead.
  char chars[N + 1]{};

  constexpr fixed_string() = default;
  constexpr fixed_string(const char (&text)[N + 1]) noexcept {  // NOLINT: implicit on purpose
    for (std::size_t i = 0; i < N; ++i) chars[i] = text[i];
    chars[N] = '\0';
  }
  constexpr explicit fixed_string(std::string_view text) noexcept {
    for (std::size_t i = 0; i < N && i < text.size(); ++i) chars[i] = text[i];
    chars[N] = '\0';
  }

  static constexpr std::size_t size() noexcept { return N; }
  constexpr std::string_view view() const noexcept { return {chars, N}; }
  constexpr operator std::string_view() const noexcept { return view(); }

  friend constexpr bool operator==(const fixed_string&, const fixed_string&) = default;
};

template <std::size_t M>
fixed_string(const char (&)[M]) -> fixed_string<M - 1>;

}  // namespace pksk::detail
