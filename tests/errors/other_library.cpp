// SPDX-License-Identifier: BSL-1.0
// A shared library built with hidden visibility, as many are: it holds its own copy of pksk's
// error category object, which a category compared by address would tell apart from the
// program's.

#include <boost/system/error_code.hpp>

#include <pksk/error.hpp>

#if defined(_WIN32)
#define PKSK_TEST_EXPORT __declspec(dllexport)
#else
#define PKSK_TEST_EXPORT __attribute__((visibility("default")))
#endif

PKSK_TEST_EXPORT boost::system::error_code pksk_test_condition_failed_elsewhere() {
  return pksk::errc::condition_failed;
}

PKSK_TEST_EXPORT const void* pksk_test_category_elsewhere() {
  return &pksk::error_category();
}

PKSK_TEST_EXPORT void pksk_test_throw_elsewhere(pksk::errc code) {
  pksk::throw_error(code, "thrown in another library");
}
