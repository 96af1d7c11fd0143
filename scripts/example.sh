#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Builds the main example and runs it on an embedded SQLite file (build/example/shop.db).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh example
dir="$root/build/example"
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPKSK_BUILD_TESTS=OFF -DPKSK_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$dir" --target customer_orders -j "$(nproc)"
cd "$dir"
rm -f shop.db shop.db-wal shop.db-shm
./examples/customer_orders shop.db
