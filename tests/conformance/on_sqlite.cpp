// The conformance cases on the SQLite backend, in memory.

#include <pksk/sqlite.hpp>

#include "conformance.hpp"

struct OnSqlite {
  pksk::sqlite::Backend backend{":memory:"};
};
using Store = OnSqlite;

#include "cases.hpp"
