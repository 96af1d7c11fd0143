// SPDX-License-Identifier: BSL-1.0
// The one file of a program built with PKSK_SEPARATE_COMPILATION, including <pksk/src.hpp>
// alone: src.hpp compiles the backends whose headers come before it, so this compiled none and
// the program failed to link with an undefined reference to every sqlite::Backend member. Now
// one error, saying what to include. (Compiled with -DPKSK_SEPARATE_COMPILATION.)
//
// expect: <pksk/src.hpp> compiles the backends whose headers come before it
// expect: include <pksk/sqlite.hpp>
#include <pksk/src.hpp>
