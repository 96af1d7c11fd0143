// SPDX-License-Identifier: BSL-1.0
// The conformance cases through a pksk::AnyBackend: Table<AnyBackend> must behave as Table over
// the backend it holds does, case for case. One binary for every held backend, chosen when it
// runs (PKSK_CONFORMANCE_HELD: sqlite, or dynamodb for DynamoDB Local), since Table<AnyBackend>
// is one type whatever it holds: ctest runs it once per backend (test_conformance_any_sqlite,
// test_conformance_any_dynamodb), and the suite's largest translation unit is compiled once.

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <pksk/backend.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/sqlite.hpp>
#ifdef PKSK_TEST_WITH_DYNAMODB
#include <pksk/dynamodb.hpp>
#endif

#include "conformance.hpp"
#include "sqlite_store.hpp"
#ifdef PKSK_TEST_WITH_DYNAMODB
#include "dynamodb_store.hpp"
#endif

namespace conformance {

// The backend the run holds: PKSK_CONFORMANCE_HELD, which ctest sets for each test.
inline bool holds_dynamodb() {
  static const bool dynamodb = [] {
    const char* held = std::getenv("PKSK_CONFORMANCE_HELD");
    const std::string_view name = held != nullptr ? held : "";
    if (name == "sqlite") return false;
#ifdef PKSK_TEST_WITH_DYNAMODB
    if (name == "dynamodb") return true;
#endif
    throw std::runtime_error("PKSK_CONFORMANCE_HELD must name the backend to hold: sqlite"
#ifdef PKSK_TEST_WITH_DYNAMODB
                             " or dynamodb"
#endif
    );
  }();
  return dynamodb;
}

inline pksk::AnyBackend held_backend() {
#ifdef PKSK_TEST_WITH_DYNAMODB
  if (holds_dynamodb()) return pksk::dynamodb::Backend{local_options()};
#endif
  return pksk::sqlite::Backend{":memory:"};
}

struct OnAny {
  pksk::AnyBackend backend = held_backend();
  // A backend that opens tables without creating them, held by reference.
  struct NoCreate {
    std::optional<SqliteWithoutCreate> sqlite;
#ifdef PKSK_TEST_WITH_DYNAMODB
    std::optional<DynamoDBWithoutCreate> dynamodb;
#endif
    pksk::AnyBackend backend = make();

   private:
    pksk::AnyBackend make() {
#ifdef PKSK_TEST_WITH_DYNAMODB
      if (holds_dynamodb()) return pksk::AnyBackend::ref(dynamodb.emplace().backend);
#endif
      return pksk::AnyBackend::ref(sqlite.emplace().backend);
    }
  };
  // SQLite keeps an expired item until a sweep deletes it; DynamoDB deletes it itself.
  static inline const bool keeps_expired_items = !holds_dynamodb();
};

}  // namespace conformance

using Store = conformance::OnAny;

#include "cases.hpp"
