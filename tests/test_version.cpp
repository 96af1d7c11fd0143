// SPDX-License-Identifier: BSL-1.0
// One version everywhere: CMakeLists.txt reads project()'s version from <pksk/version.hpp>, and
// the package files and the Conan recipe carry it on. Here the header's C++ constants and text
// are held to what CMake read (PKSK_TEST_CMAKE_VERSION*, passed by tests/CMakeLists.txt): only
// checks that could fail, none restating a #define against itself.

#include <catch2/catch.hpp>

#include <pksk/pksk.hpp>  // the umbrella header brings the version too

TEST_CASE("version: the header's constants and text agree with CMake's project() version") {
  const pksk::Version cmake{PKSK_TEST_CMAKE_VERSION_MAJOR, PKSK_TEST_CMAKE_VERSION_MINOR,
                            PKSK_TEST_CMAKE_VERSION_PATCH};
  CHECK(pksk::version == cmake);
  CHECK(PKSK_VERSION == cmake.major * 10000 + cmake.minor * 100 + cmake.patch);
  // The text is built from the numbers by the header's own code: held to CMake's text.
  CHECK(pksk::version_string == PKSK_TEST_CMAKE_VERSION);
}
