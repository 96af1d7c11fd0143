#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Instructions per write of each side of bench_write's cases, under callgrind: load-independent,
# unlike time. Each single-item case runs 64 warm-up writes and one timed write (65 in all,
# counted with --toggle-collect on write_once); put_all runs once over ORDERS orders (write_all).
#
# Sides: hand (INSERT OR REPLACE), upsert (INSERT ... ON CONFLICT DO UPDATE, UPDATE for an
# update) and pksk; SIDES="upsert pksk" measures some only, CASES="put update" some cases only.
#
#   benchmarks/callgrind_write.sh build/bench [ORDERS]      (default 20000)
set -euo pipefail
build=${1:-build/bench}
orders=${2:-20000}
bin=$build/benchmarks/pksk_bench_write
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '%-12s %-5s %14s %8s %14s\n' case side instructions writes per_write
for c in ${CASES:-put_all put update transact10}; do
  for side in ${SIDES:-hand upsert pksk}; do
    if [ "$c" = put_all ]; then toggle='*write_all*'; writes=$orders; else toggle='*write_once*'; writes=65; fi
    [ "$c" = transact10 ] && writes=650
    valgrind --tool=callgrind --toggle-collect="$toggle" --callgrind-out-file="$dir/out" \
      "$bin" --orders="$orders" --data-dir="$dir/data" --benchmark_filter="^$c/$side\$" \
      --benchmark_min_time=0 >/dev/null 2>&1
    ir=$(callgrind_annotate "$dir/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    printf '%-12s %-5s %14d %8d %14.0f\n' "$c" "$side" "$ir" "$writes" "$(echo "$ir / $writes" | bc -l)"
  done
done
