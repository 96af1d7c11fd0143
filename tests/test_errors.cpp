// SPDX-License-Identifier: BSL-1.0
// The error model (<pksk/error.hpp>): every code is caught as the class it names, including
// when a store's answer is mapped to a code at run time; codes compare by value across shared
// libraries; ChunkMissing and BlobError carry codes of their own and are still DecodeErrors.

#include <catch2/catch.hpp>

#include <string>
#include <system_error>

#include <boost/system/error_code.hpp>

#include <pksk/error.hpp>

boost::system::error_code pksk_test_condition_failed_elsewhere();
const void* pksk_test_category_elsewhere();
void pksk_test_throw_elsewhere(pksk::errc code);

namespace {

constexpr pksk::errc last_code = pksk::errc::blob_failed;

// The code of the error `throw_error(code)` throws, and whether it was caught as `Expected`.
template <class Expected>
bool thrown_as(pksk::errc code) {
  try {
    pksk::throw_error(code, "test");
  } catch (const Expected& e) {
    return e.kind() == code;
  } catch (...) {
    return false;
  }
}

}  // namespace

TEST_CASE("errors: each code is thrown as its class, and BackendError holds no other code") {
  CHECK(thrown_as<pksk::KeyError>(pksk::errc::invalid_key));
  CHECK(thrown_as<pksk::DecodeError>(pksk::errc::decode_failed));
  CHECK(thrown_as<pksk::ChunkMissing>(pksk::errc::chunk_missing));
  CHECK(thrown_as<pksk::BlobError>(pksk::errc::blob_failed));
  CHECK(thrown_as<pksk::EncodeError>(pksk::errc::encode_failed));
  CHECK(thrown_as<pksk::ConditionFailed>(pksk::errc::condition_failed));
  CHECK(thrown_as<pksk::TransactionCanceled>(pksk::errc::transaction_canceled));
  CHECK(thrown_as<pksk::ItemTooLarge>(pksk::errc::item_too_large));
  CHECK(thrown_as<pksk::ValidationError>(pksk::errc::validation));
  for (int value = 1; value <= static_cast<int>(last_code); ++value) {
    const auto code = static_cast<pksk::errc>(value);
    INFO("code " << value << ": " << pksk::make_error_code(code).message());
    CHECK(pksk::make_error_code(code).message() != "unknown pksk error");
    if (pksk::has_own_class(code)) {
      CHECK_FALSE(thrown_as<pksk::BackendError>(code));
      // A BackendError made with such a code by hand does not carry it either.
      CHECK(pksk::BackendError(code, "test").kind() == pksk::errc::backend_failure);
    } else {
      CHECK(thrown_as<pksk::BackendError>(code));
    }
  }
}

TEST_CASE("errors: ChunkMissing and BlobError have codes of their own and are DecodeErrors") {
  const pksk::ChunkMissing chunk("chunk");
  const pksk::BlobError blob("blob");
  const pksk::DecodeError& chunk_as_decode = chunk;
  const pksk::DecodeError& blob_as_decode = blob;
  CHECK(chunk_as_decode.code() == pksk::errc::chunk_missing);
  CHECK(blob_as_decode.code() == pksk::errc::blob_failed);
  CHECK(chunk.code() != pksk::errc::decode_failed);
  CHECK_FALSE(chunk.retryable());
}

TEST_CASE("errors: a code made in another shared library compares equal by the category's id") {
  // The library holds a category object of its own (it is built with hidden visibility) ...
  CHECK(pksk_test_category_elsewhere() != static_cast<const void*>(&pksk::error_category()));
  // ... and its codes still equal the program's.
  const boost::system::error_code elsewhere = pksk_test_condition_failed_elsewhere();
  CHECK(elsewhere == pksk::errc::condition_failed);
  CHECK(elsewhere == pksk::make_error_code(pksk::errc::condition_failed));
  CHECK(elsewhere != pksk::errc::validation);
  CHECK(std::string(elsewhere.category().name()) == "pksk");
  // An error thrown there is caught here by its class.
  CHECK_THROWS_AS(pksk_test_throw_elsewhere(pksk::errc::condition_failed), pksk::ConditionFailed);
}

TEST_CASE("errors: codes convert to and compare with std::error_code") {
  const std::error_code standard = pksk::errc::throttled;
  CHECK(standard == pksk::errc::throttled);
  CHECK(standard.message() == "throttled");
  const pksk::BackendError error(pksk::errc::throttled, "busy");
  const std::error_code converted = error.code();
  CHECK(converted == pksk::errc::throttled);
  CHECK(error.retryable());
  // A pksk code is an error; none is a success.
  CHECK(std::error_code(pksk::errc::condition_failed));
  CHECK_FALSE(boost::system::error_code{});
}
