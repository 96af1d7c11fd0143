// SPDX-License-Identifier: BSL-1.0
#pragma once
// For a program built with PKSK_SEPARATE_COMPILATION: what the one translation unit that
// compiles an entity's code includes before `template struct pksk::EntityCode<Order>;`. It has
// the definitions of EntityCode's members, which <pksk/pksk.hpp> leaves out in that mode so that
// the other translation units parse no JSON reader. Header-only, <pksk/pksk.hpp> has them
// already and this header adds nothing.

#include "codec/entity_code_definitions.hpp"
#include "pksk.hpp"
