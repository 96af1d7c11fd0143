#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Installs from Debian's packages what one use of pksk needs, and only what is missing, so that
# a second run costs nothing. The profile says which use:
#   install-deps.sh example   the main example (scripts/example.sh): a compiler, CMake, Ninja and
#                             the libraries of the core and the SQLite backend, nothing more
#   install-deps.sh [test]    everything scripts/test.sh builds and runs: both compilers,
#                             clang-format, the tests' and benchmarks' libraries, valgrind,
#                             libcurl (the DynamoDB backend's HTTP client), libzstd and the zstd
#                             command (compressed members, their benchmark), and Maven and a JDK,
#                             which fetch and run DynamoDB Local for its tests, and Doxygen,
#                             which builds the API reference (docs/reference.md)
set -euo pipefail

example_packages=(cmake ninja-build g++ libboost1.81-dev libsimdjson-dev libsqlite3-dev zlib1g-dev)

profile=${1:-test}
case $profile in
  example) packages=("${example_packages[@]}") ;;
  test)
    packages=(
      "${example_packages[@]}"
      clang-16 clang-format-16 libclang-rt-16-dev catch2
      libbenchmark-dev nlohmann-json3-dev valgrind python3
      libcurl4-openssl-dev maven openjdk-17-jdk-headless libzstd-dev zstd tmux doxygen
    ) ;;
  *) echo "usage: $0 [example | test]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
