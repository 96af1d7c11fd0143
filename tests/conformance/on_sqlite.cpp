// The conformance cases on the SQLite backend, in memory.

#include <pksk/sqlite.hpp>

#include "../support/temp_dir.hpp"
#include "conformance.hpp"

struct OnSqlite {
  static constexpr auto origin = pksk::NativeError::Origin::sqlite;
  pksk::sqlite::Backend backend{":memory:"};

  // A backend that opens tables without creating them: a read-only file with no table.
  struct NoCreate {
    support::TempDir dir;
    pksk::sqlite::Backend backend = make(dir.file("empty.db"));
    static pksk::sqlite::Backend make(const std::string& path) {
      { pksk::sqlite::Backend create_the_file{path}; }
      return pksk::sqlite::Backend{path, {.read_only = true}};
    }
  };
};
using Store = OnSqlite;

#include "cases.hpp"
