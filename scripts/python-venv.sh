#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Creates (or reuses) build/venv, a Python virtual environment with Conan 2 (for ctest's
# package.conan_create), botocore (the reference SigV4 signer of tests/dynamodb) and moto's
# server (the stand-in for AWS STS of the credential tests) and the AWS CLI (v1: what reads the
# items pksk-inspect copy wrote into DynamoDB Local) from PyPI.
# Prints the venv's conan executable; its python is next to it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/build/venv"
if ! "$venv/bin/conan" --version 2>/dev/null | grep -q '^Conan version 2\.' ||
   ! "$venv/bin/python" -c 'import botocore' 2>/dev/null ||
   ! "$venv/bin/moto_server" --help >/dev/null 2>&1 ||
   ! "$venv/bin/aws" --version 2>&1 | grep -q '^aws-cli/1\.'; then
  mkdir -p "$root/build"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'conan>=2,<3' \
    'botocore>=1.34,<2' 'moto[server]>=5,<6' 'awscli>=1.32,<2' >&2
fi
echo "$venv/bin/conan"
