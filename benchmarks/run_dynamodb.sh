#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The DynamoDB backend's benchmarks (bench_dynamodb.cpp) on DynamoDB Local, started here on
# 127.0.0.1 and stopped at the end: Release build (g++ 12), REPS repetitions, results in
# benchmarks/results/dynamodb.{json,txt}, and copy.{json,txt} (bench_copy.cpp).
# PKSK_DYNAMODB_ENDPOINT set: that endpoint instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build/bench}
out=$root/benchmarks/results
mkdir -p "$out"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=g++-12 -DCMAKE_BUILD_TYPE=Release \
  -DPKSK_BUILD_TESTS=OFF -DPKSK_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target pksk_bench_dynamodb pksk_bench_copy
if [ -z "${PKSK_DYNAMODB_ENDPOINT:-}" ]; then
  run_dir="$build/dynamodb-local-bench"
  "$root/scripts/dynamodb-local.sh" start "$run_dir"
  trap '"$root/scripts/dynamodb-local.sh" stop "$run_dir"' EXIT
  PKSK_DYNAMODB_ENDPOINT=$(cat "$run_dir/endpoint")
  export PKSK_DYNAMODB_ENDPOINT
fi
# Interleaved repetitions: on a shared machine the load moves during a run, and each pair's
# ratio should not depend on which side ran while it did.
"$build/benchmarks/pksk_bench_dynamodb" --benchmark_repetitions="${REPS:-5}" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/dynamodb.json" --benchmark_out_format=json | tee "$out/dynamodb.txt"
# pksk-inspect copy against a hand-written BatchWriteItem loop: results/copy.{json,txt}.
"$build/benchmarks/pksk_bench_copy" --benchmark_repetitions="${REPS:-5}" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/copy.json" --benchmark_out_format=json | tee "$out/copy.txt"
