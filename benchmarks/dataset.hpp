// SPDX-License-Identifier: BSL-1.0
#pragma once
// The benchmark's data: a deterministic generator (fixed seed) and the normalised layout; pksk's
// table is filled with the same items through pksk::Table::put (pksk_side.hpp), in the same file.
// Built once per size and reused from a cache file.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"
#include "sqlite_util.hpp"

namespace bench {

inline constexpr std::uint64_t kSeed = 0x706b736b'62656e63;  // "pksk" "benc"
inline constexpr int kOrdersPerCustomer = 99;
inline constexpr int kLinesPerOrder = 3;
inline constexpr std::string_view kTable = "shop";
// Bump when the data or the layout changes: cached files of another version are rebuilt.
inline constexpr int kDataVersion = 1;

// splitmix64: tiny, and the same sequence with every standard library (std's distributions
// are not), so every build sees the same data.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

// ---- the generator ----------------------------------------------------------------------------

inline std::string customer_id(int i) {
  std::string s = "C0000000";
  for (int pos = 7; i > 0 && pos > 0; --pos, i /= 10) s[pos] = static_cast<char>('0' + i % 10);
  return s;
}
inline std::string partition_of(std::string_view id) {
  return "CUSTOMER#" + std::string(id);
}
inline std::string order_sk(std::string_view order_id) {
  return "#ORDER#" + std::string(order_id);
}

// Days since 1970-01-01 to a civil date (H. Hinnant's algorithm), for ISO timestamps without
// depending on <format> or a time zone database.
inline void civil_from_days(std::int64_t z, int& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

// "2020-01-01T00:00:00.000Z": fixed width, so text order is time order.
inline std::string iso_millis(std::int64_t ms) {
  int y;
  unsigned mo, d;
  civil_from_days(ms / 86'400'000, y, mo, d);
  std::int64_t r = ms % 86'400'000;
  auto put = [](char* p, std::int64_t v, int width) {
    for (int i = width - 1; i >= 0; --i, v /= 10) p[i] = static_cast<char>('0' + v % 10);
  };
  std::string s = "0000-00-00T00:00:00.000Z";
  put(&s[0], y, 4);
  put(&s[5], mo, 2);
  put(&s[8], d, 2);
  put(&s[11], r / 3'600'000, 2);
  put(&s[14], r / 60'000 % 60, 2);
  put(&s[17], r / 1000 % 60, 2);
  put(&s[20], r % 1000, 3);
  return s;
}

inline constexpr std::int64_t kEpoch2020Ms = 18262LL * 86'400'000;  // 2020-01-01T00:00:00Z

struct CustomerData {
  Customer customer;
  std::vector<Order> orders;  // in sort-key (time) order
};

// Customer i's items depend on the seed and i only, so any size is a prefix of a larger one.
inline CustomerData generate_customer(int i) {
  static constexpr std::array<std::string_view, 8> first{"Ada",     "Grace",  "Alan",    "Edsger",
                                                         "Barbara", "Donald", "Frances", "Ken"};
  static constexpr std::array<std::string_view, 8> last{"Lovelace", "Hopper", "Turing", "Dijkstra",
                                                        "Liskov",   "Knuth",  "Allen",  "Thompson"};
  static constexpr std::array<std::string_view, 5> statuses{"pending", "paid", "shipped",
                                                            "delivered", "cancelled"};
  // Each holds an escaped quote, a newline, a backslash and multibyte UTF-8 once encoded.
  static constexpr std::array<std::string_view, 4> notes{
      "Leave at the \"blue\" door\nCall first: C:\\door\\bell, Zoë",
      "Gift wrap \"🎁\" please\nNo invoice \\ no prices, merci à vous",
      "Deliver to 東京 office \"B\"\nRing twice \\ ask for Søren",
      "Fragile \"glass\" ☕ mugs\nPath: \\\\share\\orders — thanks",
  };
  Rng rng{kSeed ^ (static_cast<std::uint64_t>(i) * 0x100000001b3ULL)};
  CustomerData out;
  const std::string id = customer_id(i);
  const auto& fn = first[rng.below(first.size())];
  const auto& ln = last[rng.below(last.size())];
  out.customer.id = id;
  out.customer.name = std::string(fn) + " " + std::string(ln);
  out.customer.email = std::string(fn) + "." + std::string(ln) + std::to_string(i) + "@example.com";
  for (char& ch : out.customer.email)
    ch = static_cast<char>(ch | (ch >= 'A' && ch <= 'Z' ? 32 : 0));

  // About 4 days between orders on average: 99 orders span 2020 into early 2021.
  std::int64_t t = kEpoch2020Ms + static_cast<std::int64_t>(rng.below(30LL * 86'400'000));
  out.orders.reserve(kOrdersPerCustomer);
  for (int k = 0; k < kOrdersPerCustomer; ++k) {
    t += 86'400'000 + static_cast<std::int64_t>(rng.below(6LL * 86'400'000));
    Order o;
    o.customer_id = id;
    o.order_id = iso_millis(t);
    o.status = std::string(statuses[rng.below(statuses.size())]);
    long long total_cents = 0;
    for (int l = 0; l < kLinesPerOrder; ++l) {
      LineItem li;
      li.sku = "SKU-" + std::to_string(10000 + rng.below(90000));
      li.qty = 1 + static_cast<int>(rng.below(5));
      const auto cents = static_cast<long long>(99 + rng.below(19900));
      li.price = static_cast<double>(cents) / 100.0;
      total_cents += cents * li.qty;
      o.items.push_back(std::move(li));
    }
    o.total = static_cast<double>(total_cents) / 100.0;
    if (rng.below(4) == 0) o.note = std::string(notes[rng.below(notes.size())]);
    out.orders.push_back(std::move(o));
  }
  return out;
}

// ---- the two layouts --------------------------------------------------------------------------

// The strongest normalised design: each table clustered by customer (WITHOUT ROWID with the
// customer first in the key), so one customer's rows are contiguous, as in pksk's layout.
inline void fill_normalised(Db& db, int customers) {
  db.exec(
      "CREATE TABLE customers (id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
      "email TEXT NOT NULL) WITHOUT ROWID");
  db.exec(
      "CREATE TABLE orders (customer_id TEXT NOT NULL, order_id TEXT NOT NULL, "
      "status TEXT NOT NULL, total REAL NOT NULL, note TEXT, "
      "PRIMARY KEY (customer_id, order_id)) WITHOUT ROWID");
  db.exec(
      "CREATE TABLE line_items (customer_id TEXT NOT NULL, order_id TEXT NOT NULL, "
      "line_no INTEGER NOT NULL, sku TEXT NOT NULL, qty INTEGER NOT NULL, price REAL NOT NULL, "
      "PRIMARY KEY (customer_id, order_id, line_no)) WITHOUT ROWID");
  Stmt c(db, "INSERT INTO customers VALUES (?1, ?2, ?3)");
  Stmt o(db, "INSERT INTO orders VALUES (?1, ?2, ?3, ?4, ?5)");
  Stmt l(db, "INSERT INTO line_items VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  db.exec("BEGIN");
  for (int i = 0; i < customers; ++i) {
    CustomerData d = generate_customer(i);
    c.bind(1, d.customer.id);
    c.bind(2, d.customer.name);
    c.bind(3, d.customer.email);
    c.run();
    for (const Order& ord : d.orders) {
      o.bind(1, ord.customer_id);
      o.bind(2, ord.order_id);
      o.bind(3, ord.status);
      o.bind(4, ord.total);
      if (ord.note) {
        o.bind(5, *ord.note);
      } else {
        o.bind_null(5);
      }
      o.run();
      for (std::size_t n = 0; n < ord.items.size(); ++n) {
        l.bind(1, ord.customer_id);
        l.bind(2, ord.order_id);
        l.bind(3, static_cast<long long>(n));
        l.bind(4, ord.items[n].sku);
        l.bind(5, static_cast<long long>(ord.items[n].qty));
        l.bind(6, ord.items[n].price);
        l.run();
      }
    }
  }
  db.exec("COMMIT");
  db.exec("ANALYZE");
}

// The database file for `customers` customers under `dir`, built on first use. A meta table
// records what built it, so a file from another data version or filler is rebuilt, never reused.
inline std::string dataset_path(const std::string& dir, int customers, std::string_view filler) {
  std::filesystem::create_directories(dir);
  const std::string path =
      dir + "/pksk-bench-" + std::to_string(customers) + "-" + std::string(filler) + ".db";
  const std::string stamp =
      std::to_string(kDataVersion) + "/" + std::string(filler) + "/" + std::to_string(customers);
  if (std::filesystem::exists(path)) {
    Db db(path);
    bool ok = false;
    try {
      Stmt s(db, "SELECT stamp FROM bench_meta");
      ok = s.step() && s.text(0) == stamp;
    } catch (const std::exception&) {
    }
    if (ok) return path;
  }
  for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(path + ext);
  return path;  // the caller fills it, then calls mark_dataset_built
}

inline bool dataset_built(const std::string& path) {
  if (!std::filesystem::exists(path)) return false;
  Db db(path);
  try {
    Stmt s(db, "SELECT 1 FROM bench_meta");
    return s.step();
  } catch (const std::exception&) {
    return false;
  }
}

inline void mark_dataset_built(Db& db, int customers, std::string_view filler) {
  db.exec("CREATE TABLE bench_meta (stamp TEXT NOT NULL)");
  db.exec("INSERT INTO bench_meta VALUES ('" + std::to_string(kDataVersion) + "/" +
          std::string(filler) + "/" + std::to_string(customers) + "')");
}

// Builds (or reuses) a dataset: pksk's table, filled by `fill_pksk(path, customers)`, and the
// normalised schema, in one file. `filler` names the filler in the file name and its stamp.
template <class FillPksk>
std::string ensure_dataset(const std::string& dir, int customers, std::string_view filler,
                           FillPksk&& fill_pksk) {
  const std::string path = dataset_path(dir, customers, filler);
  if (dataset_built(path)) return path;
  fill_pksk(path, customers);
  Db db(path);
  apply_pksk_pragmas(db);
  fill_normalised(db, customers);
  mark_dataset_built(db, customers, filler);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return path;
}

// The stream of customers the queries read: fixed seed, uniform over the dataset.
struct CustomerStream {
  std::vector<std::string> ids;  // "C0000123"
  std::vector<std::string> pks;  // "CUSTOMER#C0000123"

  CustomerStream(int customers, std::size_t length = 4096) {
    Rng rng{kSeed ^ 0x5eed};
    ids.reserve(length);
    pks.reserve(length);
    for (std::size_t i = 0; i < length; ++i) {
      ids.push_back(
          customer_id(static_cast<int>(rng.below(static_cast<std::uint64_t>(customers)))));
      pks.push_back(partition_of(ids.back()));
    }
  }
  std::size_t size() const { return ids.size(); }
};

}  // namespace bench
