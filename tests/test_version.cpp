// SPDX-License-Identifier: BSL-1.0
// One version everywhere: CMakeLists.txt reads project()'s version from <pksk/version.hpp>, and
// the package files and the Conan recipe carry it on; here the header's macros, constants and
// text are held to each other and to what CMake read (PKSK_TEST_CMAKE_VERSION).

#include <catch2/catch.hpp>

#include <pksk/pksk.hpp>  // the umbrella header brings the version too

TEST_CASE("version: macros, constants and text agree with each other and with CMake") {
  STATIC_REQUIRE(pksk::version ==
                 pksk::Version{PKSK_VERSION_MAJOR, PKSK_VERSION_MINOR, PKSK_VERSION_PATCH});
  STATIC_REQUIRE(PKSK_VERSION ==
                 PKSK_VERSION_MAJOR * 10000 + PKSK_VERSION_MINOR * 100 + PKSK_VERSION_PATCH);
  STATIC_REQUIRE(pksk::version < pksk::Version{PKSK_VERSION_MAJOR, PKSK_VERSION_MINOR + 1, 0});
  CHECK(pksk::version_string == PKSK_TEST_CMAKE_VERSION);
}
