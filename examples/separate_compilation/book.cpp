// SPDX-License-Identifier: BSL-1.0
// The one file that compiles Book's code.
#include <pksk/entity_code.hpp>

#include "library.hpp"

template struct pksk::EntityCode<library::Book>;
