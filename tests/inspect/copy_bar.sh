#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# pksk-inspect copy on a terminal: run in a tmux pane (a pty), its progress is one line redrawn
# in place (a bar, items, percent, items/s, ETA), seen while it runs and at the end. tmux runs
# on a server of its own (-L), which this script alone stops.
#   copy_bar.sh <pksk-inspect> <work dir>
set -euo pipefail
inspect=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "copy_bar.sh: $*" >&2; exit 1; }

total=1500
for ((i = 0; i < total; i++)); do
  printf '{"Item":{"pk":{"S":"C#%02d"},"sk":{"S":"O#%04d"},"n":{"N":"%d"}}}\n' $((i % 30)) "$i" "$i"
done >in.json
"$inspect" src.db --import in.json --table shop 2>/dev/null

socket="pksk-copy-bar-$$"
tmux_() { tmux -L "$socket" -f /dev/null "$@"; }
trap 'tmux_ kill-server 2>/dev/null || true' EXIT
# 1500 items at 1000 a second: about 1.5 s, long enough to see the bar drawn halfway.
tmux_ new-session -d -x 120 -y 10 \
  "'$inspect' copy src.db dst.db --checkpoint copy.checkpoint --rate 1000 --batch 50; echo exit=\$?; sleep 60"

bar='\[[#.]{30}\] [0-9]+/1500 +[0-9]+%  [0-9]+ items/s  ETA [0-9]+:[0-9]{2}'
seen_running=""
for _ in $(seq 1 300); do
  screen=$(tmux_ capture-pane -p)
  if grep -q '^exit=' <<<"$screen"; then break; fi
  if grep -Eq "$bar" <<<"$screen" && ! grep -q ' 1500/1500 ' <<<"$screen"; then
    seen_running=$(grep -E "$bar" <<<"$screen")
  fi
  sleep 0.05
done
screen=$(tmux_ capture-pane -p)
echo "$screen"
grep -q '^exit=0$' <<<"$screen" || fail "the copy did not end well"
[ -n "$seen_running" ] || fail "no bar was seen while the copy ran"
echo "while running: $seen_running"
# Redrawn in place: the final bar is the only progress line on the screen.
[ "$(grep -Ec "$bar" <<<"$screen")" = 1 ] || fail "the bar is not one line redrawn in place"
grep -Eq '^\[#{30}\] 1500/1500 100%  [0-9]+ items/s  ETA 0:00 *$' <<<"$screen" ||
  fail "no final bar"
grep -q '^copied 1500 items' <<<"$screen" || fail "no count after the bar"
