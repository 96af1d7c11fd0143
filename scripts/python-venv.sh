#!/usr/bin/env bash
# Creates (or reuses) build/venv, a Python virtual environment with Conan 2 from PyPI, for the
# Conan package test (ctest's package.conan_create). Prints the venv's conan executable.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/build/venv"
if ! "$venv/bin/conan" --version 2>/dev/null | grep -q '^Conan version 2\.'; then
  mkdir -p "$root/build"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'conan>=2,<3' >&2
fi
echo "$venv/bin/conan"
