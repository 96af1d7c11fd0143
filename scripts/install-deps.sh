#!/usr/bin/env bash
# Installs what pksk's build, tests and benchmarks need from Debian's packages, and only
# what is missing, so that a second run costs nothing. libcurl is the DynamoDB backend's HTTP
# client; Maven and the JDK fetch and run DynamoDB Local for its tests.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang-16 clang-format-16
  libboost1.81-dev libsimdjson-dev libsqlite3-dev catch2
  libbenchmark-dev nlohmann-json3-dev valgrind python3
  libclang-rt-16-dev
  libcurl4-openssl-dev maven openjdk-17-jdk-headless
)

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
