#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# DynamoDB Local for the tests of the DynamoDB backend (tests/dynamodb/README.md):
#   dynamodb-local.sh fetch            DynamoDB Local 2.6 and its dependencies from Maven Central
#                                      into build/dynamodb-local/lib (once; cached with the
#                                      Maven repository under build/m2), and the launcher compiled
#   dynamodb-local.sh start <dir>      starts it in memory on 127.0.0.1, on a port the system
#                                      picks; writes <dir>/endpoint and <dir>/pid
#   dynamodb-local.sh stop <dir>       stops the one started with <dir>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
home="$root/build/dynamodb-local"
launcher_source="$root/tests/dynamodb/local/LoopbackDynamoDBLocal.java"

fetch() {
  if [ ! -f "$home/lib/DynamoDBLocal-2.6.1.jar" ]; then
    echo "fetching DynamoDB Local from Maven Central into $home/lib" >&2
    mvn -q -B -Dmaven.repo.local="$root/build/m2" -f "$root/tests/dynamodb/local/pom.xml" \
      org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
      -DoutputDirectory="$home/lib" >&2
  fi
  if [ ! -f "$home/classes/LoopbackDynamoDBLocal.class" ] ||
     [ "$launcher_source" -nt "$home/classes/LoopbackDynamoDBLocal.class" ]; then
    mkdir -p "$home/classes"
    javac -d "$home/classes" -cp "$home/lib/*" "$launcher_source"
  fi
}

start() {
  local dir=$1
  fetch
  mkdir -p "$dir"
  rm -f "$dir/endpoint" "$dir/pid"
  # setsid: its own session, so that ctest does not wait for it to exit.
  setsid java -Xmx512m -Djava.library.path="$home/lib" -cp "$home/classes:$home/lib/*" \
    LoopbackDynamoDBLocal -inMemory -disableTelemetry >"$dir/log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$dir/pid"
  for _ in $(seq 1 600); do
    local line
    line=$(grep -m1 '^pksk-dynamodb-local ' "$dir/log" || true)
    if [ -n "$line" ]; then
      echo "http://${line#pksk-dynamodb-local }" >"$dir/endpoint"
      echo "DynamoDB Local (pid $pid) at $(cat "$dir/endpoint")"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "DynamoDB Local exited before it listened:" >&2
      cat "$dir/log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "DynamoDB Local did not listen within 60 s:" >&2
  cat "$dir/log" >&2
  kill "$pid" 2>/dev/null || true
  return 1
}

stop() {
  local dir=$1
  if [ -f "$dir/pid" ]; then
    kill "$(cat "$dir/pid")" 2>/dev/null || true
    rm -f "$dir/pid" "$dir/endpoint"
  fi
}

case ${1:-} in
  fetch) fetch ;;
  start) start "${2:?start needs a directory}" ;;
  stop) stop "${2:?stop needs a directory}" ;;
  *) echo "usage: $0 fetch | start <dir> | stop <dir>" >&2; exit 2 ;;
esac
