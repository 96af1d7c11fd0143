// SPDX-License-Identifier: BSL-1.0
#pragma once
// How pksk's non-template code is compiled. By default pksk is header-only: that code is inline
// and compiled in every translation unit that includes it. A program that defines
// PKSK_SEPARATE_COMPILATION in every translation unit (the CMake targets can define it) gets it
// declared only, and defined once, in the one translation unit that includes <pksk/src.hpp>;
// the headers of SQLite and libcurl then stay out of every other one. Boost.JSON's scheme.

#ifdef PKSK_SEPARATE_COMPILATION
// Declared here, defined in <pksk/src.hpp>'s translation unit.
#define PKSK_DECL
#else
// Defined in the header's own .ipp, included at its end.
#define PKSK_DECL inline
#endif
