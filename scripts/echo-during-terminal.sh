#!/usr/bin/env bash
# Keystroke echo while a terminal streams into the transcript, measured in
# a real terminal (tmux): start `ahptui demo`, run `/demo shell` (a scripted
# terminal: progress bar, 3000 lines, a failing test run), and while it
# streams type N characters into the composer, timing each from send-keys to
# the character showing on screen. Prints p50/p90/max in milliseconds.
#
#   scripts/echo-during-terminal.sh [N]        (default 30 keys)
#   AHPTUI_BIN=/path/to/ahptui scripts/echo-during-terminal.sh
#   ECHO_IDLE=1 scripts/echo-during-terminal.sh   baseline: no terminal running
#
# The timer includes tmux's own capture latency (a few ms per poll), so the
# numbers are an upper bound. Needs tmux and go (unless AHPTUI_BIN is set).
set -euo pipefail
N=${1:-30}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-echo.XXXXXX")
export TMUX_TMPDIR="$WORK/tmux"
mkdir -p "$TMUX_TMPDIR" "$WORK/proj" "$WORK/state"
S=echo
cleanup() { tmux kill-server 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
BIN=${AHPTUI_BIN:-}
if [ -z "$BIN" ]; then
	BIN="$WORK/ahptui"
	(cd "$ROOT" && go build -o "$BIN" .)
fi
screen() { tmux capture-pane -p -t "$S"; }
wait_for() {
	local deadline=$((SECONDS + 30))
	until screen | grep -qE -- "$1"; do
		((SECONDS < deadline)) || { echo "timed out waiting for $1" >&2; screen >&2; exit 1; }
		sleep 0.05
	done
}
tmux new-session -d -s "$S" -x 120 -y 40 -e TERM=xterm-256color -e HOME="$WORK" -e XDG_STATE_HOME="$WORK/state"
tmux respawn-pane -k -t "$S" "cd '$WORK/proj' && '$BIN' demo"
wait_for 'Sessions'
tmux send-keys -t "$S" C-n
wait_for 'Message…'
if [ -z "${ECHO_IDLE:-}" ]; then
	tmux send-keys -t "$S" -l '/demo shell'
	tmux send-keys -t "$S" Enter
	wait_for '● running'
fi
times=()
for ((i = 1; i <= N; i++)); do
	start=$(date +%s%N)
	tmux send-keys -t "$S" -l 'x'
	until [ "$(screen | grep -E '^┃' | tr -cd 'x' | wc -c)" -ge "$i" ]; do :; done
	times+=($((($(date +%s%N) - start) / 1000000)))
done
running=no
screen | grep -q '● running' && running=yes
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
pick() { echo "$sorted" | sed -n "$(((N * $1 + 99) / 100))p"; }
echo "keys=$N p50=$(pick 50)ms p90=$(pick 90)ms max=$(echo "$sorted" | tail -1)ms terminal-still-running=$running"
