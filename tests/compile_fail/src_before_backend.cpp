// SPDX-License-Identifier: BSL-1.0
// <pksk/src.hpp> before the backend's header, in the one file of a program built with
// PKSK_SEPARATE_COMPILATION: the backend would not be compiled. One error, in the backend's
// header, naming both. (Compiled with -DPKSK_SEPARATE_COMPILATION and, so that src.hpp itself
// is content, PKSK_SRC_WITHOUT_LIBRARY_BACKENDS.)
//
// expect: <pksk/sqlite.hpp> after <pksk/src.hpp>
#define PKSK_SRC_WITHOUT_LIBRARY_BACKENDS
#include <pksk/src.hpp>
// Must come first:
#include <pksk/sqlite.hpp>
