// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk's version, for the preprocessor and for C++. This header is where the version is
// written: CMakeLists.txt (project(pksk VERSION ...)) and conanfile.py read the three
// numbers from the #define lines below, so they must stay plain decimal literals.

#include <array>
#include <cstddef>
#include <string_view>

// Macros, so that code can ask `#if PKSK_VERSION >= 201` (0.2.1) before any C++ is parsed, as
// with FMT_VERSION and BOOST_VERSION.
#define PKSK_VERSION_MAJOR 0
// The minor version.
#define PKSK_VERSION_MINOR 1
// The patch version.
#define PKSK_VERSION_PATCH 0
// major * 10000 + minor * 100 + patch: 0.2.1 is 201.
#define PKSK_VERSION (PKSK_VERSION_MAJOR * 10000 + PKSK_VERSION_MINOR * 100 + PKSK_VERSION_PATCH)

namespace pksk {

// A version of pksk, ordered as versions are (0.1.0 < 0.2.0).
struct Version {
  // Incremented for a change that breaks code written for the version before.
  int major = 0;
  // Incremented for a change that adds to the API.
  int minor = 0;
  // Incremented for a fix.
  int patch = 0;

  friend constexpr auto operator<=>(const Version&, const Version&) = default;
};

// The version of these headers.
inline constexpr Version version{PKSK_VERSION_MAJOR, PKSK_VERSION_MINOR, PKSK_VERSION_PATCH};

namespace detail {

constexpr std::size_t decimal_digits(int n) noexcept {
  std::size_t digits = 1;
  for (; n >= 10; n /= 10) ++digits;
  return digits;
}

// "major.minor.patch", computed from `version` so that the text cannot disagree with it.
inline constexpr auto version_text = [] {
  std::array<char, decimal_digits(version.major) + decimal_digits(version.minor) +
                       decimal_digits(version.patch) + 2>
      text{};
  std::size_t end = 0;
  const auto write = [&](int n) {
    const std::size_t digits = decimal_digits(n);
    for (std::size_t i = end + digits; i-- > end; n /= 10) {
      text[i] = static_cast<char>('0' + n % 10);
    }
    end += digits;
  };
  write(version.major);
  text[end++] = '.';
  write(version.minor);
  text[end++] = '.';
  write(version.patch);
  return text;
}();

}  // namespace detail

// "0.1.0": what CMake's PROJECT_VERSION and the Conan package's version say.
inline constexpr std::string_view version_string{detail::version_text.data(),
                                                 detail::version_text.size()};

}  // namespace pksk
