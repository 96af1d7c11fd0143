#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# pksk-inspect copy interrupted for real: SIGTERM at about a quarter and SIGINT at about half of
# a copy slowed down by --rate, each time a checkpoint that counts exactly the target's items
# and names its last key; the same command then finishes the copy, which verify finds whole.
#   copy_signal.sh <pksk-inspect> <work dir>
set -euo pipefail
inspect=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"

total=2000
for ((i = 0; i < total; i++)); do
  printf '{"Item":{"pk":{"S":"C#%02d"},"sk":{"S":"O#%04d"},"type":{"S":"Order"},"n":{"N":"%d"}}}\n' \
    $((i % 40)) "$i" "$i"
done >in.json
"$inspect" src.db --import in.json --table shop 2>/dev/null

fail() { echo "copy_signal.sh: $*" >&2; exit 1; }
checkpoint_items() { sed -n 's/^items //p' copy.checkpoint 2>/dev/null || true; }
unhex() { printf "$(sed 's/../\\x&/g' <<<"$1")"; }
target_items() { "$inspect" dst.db | sed -n 's/^table shop .*: \([0-9]*\) items.*/\1/p'; }

# interrupt SIGNAL AT: starts the copy, sends SIGNAL once the checkpoint counts AT items.
interrupt() {
  local signal=$1 at=$2
  "$inspect" copy src.db dst.db --checkpoint copy.checkpoint --rate 2000 --batch 50 \
    >/dev/null 2>copy.err &
  local pid=$!
  for _ in $(seq 1 400); do
    local n
    n=$(checkpoint_items)
    if [ -n "$n" ] && [ "$n" -ge "$at" ]; then break; fi
    sleep 0.02
  done
  kill "-$signal" "$pid"
  local rc=0
  wait "$pid" || rc=$?
  [ "$rc" -eq 130 ] || fail "SIG$signal: exit status $rc, expected 130: $(cat copy.err)"
  grep -q "interrupted (SIG$signal) after" copy.err || fail "SIG$signal: $(cat copy.err)"
  local items
  items=$(checkpoint_items)
  [ "$items" -lt "$total" ] || fail "SIG$signal came after the end ($items items)"
  [ "$(target_items)" = "$items" ] ||
    fail "SIG$signal: the checkpoint counts $items items, the target holds $(target_items)"
  # The last key recorded is the last one written: the target's largest (SQLite scans in key
  # order), in hexadecimal.
  local last
  last=$("$inspect" dst.db --export - 2>/dev/null | sed 's/.*"pk":{"S":"\([^"]*\)"},"sk":{"S":"\([^"]*\)"}.*/\1 \2/' |
         sort | tail -1)
  local recorded
  recorded="$(unhex "$(sed -n 's/^pk //p' copy.checkpoint)") $(unhex "$(sed -n 's/^sk //p' copy.checkpoint)")"
  [ "$last" = "$recorded" ] || fail "SIG$signal: the checkpoint names '$recorded', the last written is '$last'"
  echo "SIG$signal at $items of $total items: the checkpoint matches the target"
}

interrupt TERM $((total / 4))
interrupt INT $((total / 2))
before=$(checkpoint_items)
"$inspect" copy src.db dst.db --checkpoint copy.checkpoint --verify --quiet >verify.out 2>copy.err ||
  fail "the resumed copy failed: $(cat copy.err)"
grep -q "^copied $((total - before)) items" copy.err || fail "resumed: $(cat copy.err)"
grep -q "^verified: $total items in 40 collections" verify.out || fail "$(cat verify.out)"
[ ! -e copy.checkpoint ] || fail "the finished copy left its checkpoint"
echo "resumed at $before: $total items, verified"
