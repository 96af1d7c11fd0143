#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Everything benchmarks/README.md reports, from one run: builds the benchmarks (Release, g++ 12),
# runs every case with repetitions (JSON), counts instructions under callgrind, and plots
# pksk / baseline per case. Outputs go to benchmarks/results/.
#
#   benchmarks/run.sh                      100k items main set, scale at 100k and 1M
#   PKSK_BENCH_SCALE=1000,10000,100000 benchmarks/run.sh     adds 10M items (hours to build)
#   REPS=5 JOBS=2 benchmarks/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD:-$root/build/bench}
out=$root/benchmarks/results
reps=${REPS:-5}
mkdir -p "$out"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=g++-12 -DCMAKE_BUILD_TYPE=Release \
  -DPKSK_BUILD_TESTS=OFF -DPKSK_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target pksk_bench_read pksk_bench_driver

export PKSK_BENCH_DIR=${PKSK_BENCH_DIR:-$build/benchmarks/bench-data}
"$build/benchmarks/pksk_bench_read" \
  --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/results.json" --benchmark_out_format=json | tee "$out/results.txt"

"$root/benchmarks/callgrind.sh" "$build" "${CALLGRIND_QUERIES:-200}" | tee "$out/callgrind.txt"

# matplotlib from PyPI in a virtual environment kept out of git (benchmarks/.venv).
venv=$root/benchmarks/.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet matplotlib
fi
# Real time (the default) and CPU time: on a loaded machine real time includes waiting for a core.
"$venv/bin/python" "$root/benchmarks/plot.py" "$out/results.json" -o "$out/ratios.png" \
  | tee "$out/ratios.md"
"$venv/bin/python" "$root/benchmarks/plot.py" "$out/results.json" -o "$out/ratios_cpu.png" \
  --metric cpu_time | tee "$out/ratios_cpu.md"
python3 "$root/benchmarks/summary.py" "$out/results.json" "$out/callgrind.txt" | tee "$out/summary.md"
{ uname -srm; lscpu | grep -E 'Model name|^CPU\(s\)'; g++-12 --version | head -1; uptime; } \
  > "$out/machine.txt"
