#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Builds and runs every test: with g++ (Release: the build a newcomer types first, optimised,
# so that warnings only the optimiser sees and optimised code are tested) and with clang (Debug:
# unoptimised, which compiles in less than half the time here, keeps a second compiler's
# diagnostics and asserts, and runs every test under AddressSanitizer and
# UndefinedBehaviorSanitizer), then the fuzz targets for a bounded time. Both ways a program
# can use pksk are tested in both builds: the tests link pksk's code compiled once
# (PKSK_SEPARATE_COMPILATION: a test_table.cpp at -O3 takes 27 s of CPU so against 48 s
# header-only, the backends compiled again in every test), and the examples, the package
# tests, the documentation's C++ and the header checks use pksk header-only.
# Both builds also run the package tests (install, find_package, add_subdirectory,
# FetchContent, pkg-config, conan create; see tests/consumer/README.md) and compile the
# documentation's C++, with Conan 2 from build/venv. Build trees live in build/ and are reused;
# every option that decides what is tested is passed each time, so a stale cache cannot drop a
# test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh test

jobs=${PKSK_JOBS:-$(nproc)}
conan=$(scripts/python-venv.sh)
python=$(dirname "$conan")/python
# DynamoDB Local from Maven Central, cached under build/ (the ctest fixture dynamodb_local
# starts it for each build's run).
scripts/dynamodb-local.sh fetch
builds=${PKSK_BUILDS:-"gcc clang fuzz"}

# Where the time goes: each phase's seconds, and a build's slowest steps (from .ninja_log,
# the steps this run built). ctest prints each test's seconds itself.
phase_start=$SECONDS
phase() {
  echo "=== $1 (at $((SECONDS - phase_start)) s)"
}
slowest_steps() {
  local log="$1/.ninja_log" since=$2
  [ -f "$log" ] || return 0
  echo "--- the 12 slowest build steps (s):"
  awk -v since="$since" 'NR > 1 && $3 >= since * 1e9 { printf "%7.1f %s\n", ($2 - $1) / 1000, $4 }' "$log" |
    sort -rn | head -12
}

configure_and_test() {
  local name=$1; shift
  local dir="$root/build/$name"
  phase "$name: configure"
  cmake -S "$root" -B "$dir" -G Ninja -DPKSK_BUILD_TESTS=ON -DPKSK_BUILD_EXAMPLES=ON \
    "-DPKSK_CONAN=$conan" "-DPKSK_PYTHON=$python" -DPKSK_REQUIRE_ALL_TESTS=ON "$@" >/dev/null
  phase "$name: build"
  local before
  before=$(date +%s)
  cmake --build "$dir" -j "$jobs"
  slowest_steps "$dir" "$before"
  phase "$name: test"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
  phase "$name: done"
}

# The fuzz build: libFuzzer targets under ASan+UBSan (fuzz/README.md), only they are built,
# and ctest runs each for PKSK_FUZZ_SECONDS (default 30). The builds above cover the tests.
fuzz_build() {
  local dir="$root/build/fuzz"
  phase "fuzz: configure"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-16 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPKSK_BUILD_FUZZERS=ON -DPKSK_BUILD_TESTS=OFF \
    -DPKSK_BUILD_EXAMPLES=OFF -DPKSK_BUILD_BENCHMARKS=OFF -DPKSK_BUILD_INSPECT=OFF >/dev/null
  phase "fuzz: build"
  cmake --build "$dir" -j "$jobs"
  phase "fuzz: test (${PKSK_FUZZ_SECONDS:-30} s per target)"
  ctest --test-dir "$dir" --output-on-failure -L fuzz -j "$jobs"
}

for build in $builds; do
  case $build in
    gcc)
      # The compile-fail cases run on both compilers from here, and each public header is
      # compiled alone once (header_check.*).
      configure_and_test gcc -DCMAKE_CXX_COMPILER=g++-12 -DCMAKE_BUILD_TYPE=Release \
        -DPKSK_BUILD_BENCHMARKS=ON -DPKSK_TEST_PACKAGE=ON -DPKSK_COMPILE_FAIL_TESTS=ON \
        -DPKSK_HEADER_CHECKS=ON -DPKSK_SEPARATE_COMPILATION=ON ;;
    clang)
      # The benchmarks are built and smoke-run by the g++ build only: they are the slowest
      # translation units, and their figures come from benchmarks/run.sh, not from here.
      # The sanitizers ride on this build rather than on a build of their own: clang compiles
      # an instrumented -O0 tree in 40% of the CPU time g++ does (the SQLite conformance
      # suite: 45 s against 113 s), and one tree instead of two saves the second compile of
      # every test. The backends are instrumented once, in pksk_src; the examples, built
      # header-only, are instrumented whole. Stack-use-after-return detection (on by default
      # in clang's runtime, off in g++'s) is left off: a frame unwound by an exception stays
      # on its fake stack, and test_key_property, whose generated keys often throw KeyError,
      # took 170 s instead of 0.7 s.
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0 \
        configure_and_test clang -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=Debug \
        -DPKSK_BUILD_BENCHMARKS=OFF -DPKSK_TEST_PACKAGE=ON -DPKSK_COMPILE_FAIL_TESTS=OFF \
        -DPKSK_HEADER_CHECKS=OFF -DPKSK_SEPARATE_COMPILATION=ON \
        "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" ;;
    fuzz)
      fuzz_build ;;
    *) echo "unknown build: $build" >&2; exit 2 ;;
  esac
done
echo "all builds passed: $builds, in $((SECONDS - phase_start)) s"
