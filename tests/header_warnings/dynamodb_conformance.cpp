// SPDX-License-Identifier: BSL-1.0
// pksk's headers under every warning, as a user's build includes them, instantiated by
// the conformance cases on the DynamoDB backend (README.md here).

#include <pksk/dynamodb.hpp>
#include <pksk/pksk.hpp>

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // for the test code below only
#include "../conformance/on_dynamodb.cpp"
