#!/usr/bin/env bash
# Keystroke echo latency of `ahptui demo` in a real terminal (tmux, 120x40).
#
#   scripts/measure-keystroke.sh                 build ./ahptui, burst of 32000000 bytes
#   AHPTUI_BIN=/path/to/ahptui scripts/measure-keystroke.sh   use a prebuilt binary
#   BIG=3000000 KEYS=40 scripts/measure-keystroke.sh          other burst size / key count
#   BIG=0 scripts/measure-keystroke.sh                        idle (no burst)
#   DUMP=1 scripts/measure-keystroke.sh                       print the last screen too
#   PROMPT='/demo shell' KEYS=30 scripts/measure-keystroke.sh  while a terminal streams
#
# It creates a session, sends $PROMPT (default `/demo big $BIG`), and while the reply streams
# sends single keys (one at a time, 50 ms apart) with `tmux send-keys`,
# timing each from the send to the moment the typed text appears on the
# composer line in `capture-pane`. It prints one line per key and then
# p50/p90/max in milliseconds. The typing and polling go through one tmux
# control client (internal/tmuxctl/cmd/echoprobe), which adds about a
# millisecond; idle is still the floor to compare against.
# Needs: tmux, go (unless AHPTUI_BIN is set).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-keys.XXXXXX")
export TMUX_TMPDIR="$WORK/tmux"
# tmux prefers the server named by $TMUX (the one this may run inside) to
# TMUX_TMPDIR: unset, every tmux command below (kill-server included)
# reaches only this run's private server.
unset TMUX TMUX_PANE
mkdir -p "$TMUX_TMPDIR" "$WORK/proj" "$WORK/state"
S=keys
BIG=${BIG:-32000000}
KEYS=${KEYS:-40}
TIMEOUT=${TIMEOUT:-30}
PROMPT=${PROMPT:-}
if [ -z "$PROMPT" ] && [ "$BIG" != 0 ]; then PROMPT="/demo big $BIG"; fi

cleanup() {
	tmux kill-server 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

. "$(dirname "$0")/lib/tmux-screen.sh" # ahptui_bin, snap, wait_for
POLL=0.05
BIN=$(ahptui_bin)
PROBE=$(echoprobe_bin)

tmux new-session -d -s "$S" -x 120 -y 40 \
	-e TERM=xterm-256color -e HOME="$WORK" -e XDG_STATE_HOME="$WORK/state"
tmux respawn-pane -k -t "$S" "cd '$WORK/proj' && '$BIN' demo; sleep 60"

wait_for '● Connected'
tmux send-keys -t "$S" C-n
wait_for 'Demo 1 \(scripted\)'
tmux send-keys -t "$S" Enter
wait_for 'Message…'
if [ -n "$PROMPT" ]; then
	tmux send-keys -t "$S" -l "$PROMPT"
	tmux send-keys -t "$S" Enter
	wait_for 'Message…'
	sleep 0.3
fi

# echoprobe types the keys and prints one line per key, then p50/p90/max.
result=$("$PROBE" -t "$S" -keys "$KEYS" -timeout "${TIMEOUT}s" -v 2>&1 >"$WORK/probe.out") || {
	echo "$result" >&2
	exit 1
}
echo "$result"
read -r pcts n <"$WORK/probe.out"
IFS=/ read -r p50 p90 pmax <<<"$pcts"

done_yet=no
snap
# The turn is over when the composer hint no longer offers to cancel it.
grep -q -- "esc cancels" "$WORK/last-screen.txt" || done_yet=yes
[ -z "${DUMP:-}" ] || cat "$WORK/last-screen.txt"
echo "prompt='${PROMPT:-idle}' keys=$n p50=${p50}ms p90=${p90}ms max=${pmax}ms (turn finished: $done_yet)"
