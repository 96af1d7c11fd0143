#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Instructions per query, counted by callgrind (deterministic where wall time on a shared
# machine moves by ±20%). For each side, runs the driver with K queries and with 0 under
# callgrind and reports (I_K - I_0) / K, so opening, preparing and warming up cancel out;
# then the ratio of each side to the floor.
#
#   benchmarks/callgrind.sh [build-dir] [K] [customers]      (defaults: build/bench 200 1000)
#   SIDES="rows floor newest10 pksk pksk_newest10" to choose the sides; add pksk_any and
#   pksk_any_newest10 for Table<AnyBackend> over the same file, pksk_renamed and
#   pksk_renamed_newest10 for entities with stored names of their own (PascalCase, a rename) on
#   the same items (ratios to pksk printed), pksk_valued for the renamed order with its total
#   a type of its own (pksk::Value).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/bench}
k=${2:-200}
customers=${3:-1000}
sides=${SIDES:-"rows floor newest10 pksk pksk_newest10"}
driver="$build/benchmarks/pksk_bench_driver"
data=${PKSK_BENCH_DIR:-$build/benchmarks/bench-data}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -x "$driver" ] || { echo "no driver at $driver: build the benchmarks first" >&2; exit 1; }
# The dataset is built outside valgrind (building it under callgrind would take minutes).
"$driver" --mode=prepare --customers="$customers" --data-dir="$data"

instructions() {  # side, queries -> total Ir of the run
  local file="$out/cg.$1.$2"
  valgrind --tool=callgrind --callgrind-out-file="$file" \
    "$driver" --mode="$1" --queries="$2" --customers="$customers" --data-dir="$data" \
    >"$out/stdout.$1.$2" 2>"$out/stderr.$1.$2" || return 1
  awk '/^(summary|totals):/ {print $2; exit}' "$file"
}

declare -A per_query
printf '%-16s %14s %14s %16s  %s\n' side "Ir(K=$k)" "Ir(0)" "Ir/query" checksum
for side in $sides; do
  if ! full=$(instructions "$side" "$k"); then
    printf '%-16s %s\n' "$side" "skipped: $(grep -v '^==' "$out/stderr.$side.$k" | tail -1)"
    continue
  fi
  base=$(instructions "$side" 0)
  per_query[$side]=$(( (full - base) / k ))
  printf '%-16s %14d %14d %16d  %s\n' "$side" "$full" "$base" "${per_query[$side]}" \
    "$(grep -o 'checksum=[0-9]*' "$out/stdout.$side.$k")"
done

ratio() {  # numerator denominator label
  if [ -n "${per_query[$1]:-}" ] && [ -n "${per_query[$2]:-}" ]; then
    awk -v a="${per_query[$1]}" -v b="${per_query[$2]}" -v l="$3" \
      'BEGIN {printf "%-28s %.3fx\n", l, a / b}'
  fi
}
echo
ratio rows floor "rows only / floor"
ratio pksk floor "pksk / floor (collection)"
ratio pksk_newest10 newest10 "pksk / floor (A + newest 10)"
ratio pksk_any pksk "AnyBackend / sqlite::Backend (collection)"
ratio pksk_any_newest10 pksk_newest10 "AnyBackend / sqlite::Backend (A + newest 10)"
ratio pksk_renamed pksk "stored names / C++ names (collection)"
ratio pksk_renamed_newest10 pksk_newest10 "stored names / C++ names (A + newest 10)"
ratio pksk_valued pksk "renamed + Value<T> / plain (collection)"
ratio pksk_valued pksk_renamed "renamed + Value<T> / renamed"
