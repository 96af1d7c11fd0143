// SPDX-License-Identifier: BSL-1.0
// The main example on an embedded SQLite file, the one its first argument names (shop.db by
// default): a customer and their orders as one item collection (customer_orders.hpp).

#include <pksk/sqlite.hpp>

#include "customer_orders.hpp"

int main(int argc, char** argv) {
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "shop.db"};
  run(backend);
}
