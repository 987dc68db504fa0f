#!/usr/bin/env bash
# RSS growth of `ahptui demo` (host and client in one process) for one large
# reply, in a real terminal (tmux): start the demo, open a session, read
# VmRSS, send `/demo big N`, wait until the reply's last line is on screen,
# let it settle and read VmRSS (and the peak, VmHWM) again.
#
#   scripts/rss-big-reply.sh [N]          (default 32000000 bytes)
#   AHPTUI_BIN=/path/to/ahptui scripts/rss-big-reply.sh
#   SPLIT=1 scripts/rss-big-reply.sh      (then the live heap's split by
#                                          component: BenchmarkBigReplyMemory)
#
# rss_after is read SETTLE seconds (default 3) after the reply's end shows:
# by then the client has re-read the finished reply by reference, dropped
# its inline text and given the memory back (tui Options.ReleaseMemory).
# peak (VmHWM) is the highest RSS while the reply streamed.
#
# Needs tmux and go (unless AHPTUI_BIN is set). Linux only (/proc).
set -euo pipefail
N=${1:-32000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-rss.XXXXXX")
export TMUX_TMPDIR="$WORK/tmux"
# tmux prefers the server named by $TMUX (the one this may run inside) to
# TMUX_TMPDIR: unset, every tmux command below (kill-server included)
# reaches only this run's private server.
unset TMUX TMUX_PANE
mkdir -p "$TMUX_TMPDIR" "$WORK/proj" "$WORK/state"
S=rss
cleanup() { tmux kill-server 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
TIMEOUT=30
. "$(dirname "$0")/lib/tmux-screen.sh" # ahptui_bin, wait_for
BIN=$(ahptui_bin)
kb() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$PID/status"; }
tmux new-session -d -s "$S" -x 120 -y 40 -e TERM=xterm-256color -e HOME="$WORK" -e XDG_STATE_HOME="$WORK/state"
tmux respawn-pane -k -t "$S" "cd '$WORK/proj' && exec '$BIN' demo"
wait_for 'No messages yet' # the demo opens into a new chat
PID=$(tmux display -p -t "$S" '#{pane_pid}')
# The pane's shell may fork the binary, and ahptui runs the app in a
# supervised child (cli/supervise_unix.go): measure the deepest
# ahptui process.
while child=$(cat /proc/$PID/task/*/children 2>/dev/null | awk '{print $1; exit}') && [ -n "$child" ]; do
	PID=$child
done
tmux send-keys -t "$S" C-n
wait_for "New session"
tmux send-keys -t "$S" Enter
wait_for 'Message…'
sleep 1
echo "pid=$PID comm=$(cat /proc/$PID/comm)" >&2
before=$(kb VmRSS)
start=$(date +%s%N)
tmux send-keys -t "$S" -l "/demo big $N"
tmux send-keys -t "$S" Enter
wait_for "end of $N" 180
done_ms=$((($(date +%s%N) - start) / 1000000))
sleep "${SETTLE:-3}"
after=$(kb VmRSS)
peak=$(kb VmHWM)
echo "reply=${N}B rss_before=$((before / 1024))MB rss_after=$((after / 1024))MB growth=$(((after - before) / 1024))MB peak=$((peak / 1024))MB reply_on_screen=${done_ms}ms"
if [ "${SPLIT:-0}" != 0 ]; then
	# Live heap after the reply, by component, in one process holding host,
	# client and TUI (MB; see tui/bench_size_test.go).
	(cd "$ROOT" && go test ./tui/ -run '^$' -bench BenchmarkBigReplyMemory -benchtime=1x -count=1) |
		awk '/^BenchmarkBigReplyMemory/ {for (i = 3; i < NF; i += 2) printf "%s=%s ", $(i+1), $i; print ""}'
fi
