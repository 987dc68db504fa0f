#!/usr/bin/env bash
# The issue-22 side-by-side against the demo host: a long reply streamed in
# realistic 20–60-byte deltas (`/demo stream N`) into ahptui in tmux at
# 120x40, the host in its own process (`ahptui serve --pace 0`) so that the
# client's CPU is the client's alone. Per size it prints:
#
#   last_line_ms  prompt sent → the reply's last line on screen (polled
#                 every 10 ms with capture-pane, so ±10 ms plus tmux's cost)
#   cpu_ms        the client process's user+system CPU over that time
#   host_cpu_ms   the host process's over the same time (it shares the cores)
#   rss_mb        the client's peak RSS (VmHWM) so far
#   echo p50/p90/max  keystroke echo while a second reply of the same size
#                 streams (KEYS keys, 50 ms apart; only when the reply lasts
#                 long enough to type into: sizes ≥ 1 MB)
#   resize_ms     tmux resize 120x40 → 80x24 after the reply → the status
#                 line redrawn at the new width
#
#   scripts/stream-bench.sh                    3 MB and 200 KB, 3 rounds interleaved
#   SIZES="3m" ROUNDS=1 scripts/stream-bench.sh
#   AHPTUI_BIN=/path/to/ahptui scripts/stream-bench.sh
#   HOST_BIN=./ahptui AHPTUI_BIN=/path/to/older/ahptui scripts/stream-bench.sh   an older client
#                                              against a host that has /demo stream
#   DUMP=1 scripts/stream-bench.sh             print the last screen of each run
#   CLIENTS="old=/tmp/ahptui-old new=./ahptui" scripts/stream-bench.sh
#                                              several clients, interleaved in each round
#
# Needs tmux, go (unless AHPTUI_BIN is set). Linux only (/proc).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-stream.XXXXXX")
export TMUX_TMPDIR="$WORK/tmux"
mkdir -p "$TMUX_TMPDIR" "$WORK/proj" "$WORK/state"
S=stream
SIZES=${SIZES:-"3m 200k"}
ROUNDS=${ROUNDS:-3}
KEYS=${KEYS:-20}
TIMEOUT=${TIMEOUT:-120}
HOSTPID=

cleanup() {
	tmux kill-server 2>/dev/null || true
	[ -z "$HOSTPID" ] || kill "$HOSTPID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

. "$(dirname "$0")/lib/tmux-screen.sh" # ahptui_bin, snap, wait_for
POLL=0.01
BIN=$(ahptui_bin)
HOST_BIN=${HOST_BIN:-$BIN} # the host (needs /demo stream); BIN is the client measured
TCK=$(getconf CLK_TCK)

now_ns() { date +%s%N; }
bytes() { # 3m → 3145728, 200k → 204800 (as /demo's ParseSize)
	case $1 in
	*m) echo $((${1%m} << 20)) ;;
	*k) echo $((${1%k} << 10)) ;;
	*) echo "$1" ;;
	esac
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/${1:-$PID}/stat"; }
kb() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$PID/status"; }
composer() { snap && grep -m1 '^┃' "$WORK/last-screen.txt" || true; }
status_line() { snap && tail -n 1 "$WORK/last-screen.txt" | sed 's/ *$//'; }

# start_client: a fresh host process and a client attached to it at 120x40,
# in a new session's chat; sets PID to the client's (deepest ahptui) process.
start_client() {
	tmux kill-server 2>/dev/null || true
	[ -z "$HOSTPID" ] || { kill "$HOSTPID" 2>/dev/null || true; wait "$HOSTPID" 2>/dev/null || true; }
	"$HOST_BIN" serve --addr 127.0.0.1:0 --without-connection-token --pace 0 --log-level error >"$WORK/host.out" 2>&1 &
	HOSTPID=$!
	local url=""
	for _ in $(seq 100); do
		url=$(head -n 1 "$WORK/host.out" 2>/dev/null || true)
		[[ "$url" == ws://* ]] && break
		sleep 0.05
	done
	tmux new-session -d -s "$S" -x 120 -y 40 -e TERM=xterm-256color -e HOME="$WORK" -e XDG_STATE_HOME="$WORK/state"
	tmux respawn-pane -k -t "$S" "cd '$WORK/proj' && exec '$BIN' '$url'"
	wait_for 'Sessions' 30
	PID=$(tmux display -p -t "$S" '#{pane_pid}')
	while child=$(cat /proc/$PID/task/*/children 2>/dev/null | awk '{print $1; exit}') && [ -n "$child" ]; do
		PID=$child
	done
	tmux send-keys -t "$S" C-n
	wait_for 'Demo 1 \(scripted\)' 30
	tmux send-keys -t "$S" Enter
	wait_for 'Message…' 30
	sleep 0.5
}

# stream SIZE: one reply; prints last_line_ms, cpu_ms and the host's.
stream() {
	local n=$1 c0 h0 t0 ms cpu
	c0=$(cpu_ticks)
	h0=$(cpu_ticks "$HOSTPID")
	tmux send-keys -t "$S" -l "/demo stream $n"
	t0=$(now_ns)
	tmux send-keys -t "$S" Enter
	wait_for "end of stream $n bytes" "$TIMEOUT"
	ms=$((($(now_ns) - t0) / 1000000))
	cpu=$((($(cpu_ticks) - c0) * 1000 / TCK))
	echo "$ms $cpu $((($(cpu_ticks "$HOSTPID") - h0) * 1000 / TCK))"
}

# echo_keys SIZE: keystroke echo while a reply of SIZE streams.
echo_keys() {
	local n=$1 typed="" samples=() letters=abcdefghijklmnopqrstuvwxyz c t0 line
	tmux send-keys -t "$S" -l "/demo stream $n"
	tmux send-keys -t "$S" Enter
	sleep 0.2
	for ((i = 0; i < KEYS; i++)); do
		c=${letters:$((i % 26)):1}
		typed+=$c
		t0=$(now_ns)
		tmux send-keys -t "$S" -l "$c"
		while :; do
			line=$(composer)
			[[ "$line" == *"$typed"* ]] && break
			(($(now_ns) - t0 < 30000000000)) || { echo "no echo within 30 s" >&2; exit 1; }
		done
		samples+=($((($(now_ns) - t0) / 1000000)))
		sleep 0.05
	done
	wait_for "end of stream $n bytes" "$TIMEOUT"
	tmux send-keys -t "$S" C-u # clear what was typed
	local sorted k
	sorted=$(printf '%s\n' "${samples[@]}" | sort -n)
	k=${#samples[@]}
	echo "$(echo "$sorted" | sed -n "$(((k * 50 + 99) / 100))p")/$(echo "$sorted" | sed -n "$(((k * 90 + 99) / 100))p")/$(echo "$sorted" | tail -1)"
}

# resize: 120x40 → 80x24; ms until the status line is drawn again at the
# new width: tmux alone only cuts the old line (a prefix of it), the
# redrawn one is cut by ahptui with an ellipsis. Resizes back after.
resize() {
	local old t0 line
	old=$(status_line)
	t0=$(now_ns)
	tmux resize-window -t "$S" -x 80 -y 24
	while :; do
		line=$(status_line)
		[ "$(tmux display -p -t "$S" '#{pane_width}')" = 80 ] && [[ "$old" != "$line"* ]] && break
		(($(now_ns) - t0 < 30000000000)) || { echo "no redraw within 30 s" >&2; exit 1; }
	done
	echo $((($(now_ns) - t0) / 1000000))
	tmux resize-window -t "$S" -x 120 -y 40
	sleep 0.3
}

echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg) host=$HOST_BIN"
CLIENTS=${CLIENTS:-"ahptui=$BIN"}
for ((r = 1; r <= ROUNDS; r++)); do
	for size in $SIZES; do
		for client in $CLIENTS; do
			BIN=${client#*=}
			n=$(bytes "$size")
			start_client
			read -r ms cpu hcpu < <(stream "$n")
			rs=$(resize)
			keys=-
			if ((n >= 1 << 20)); then keys=$(echo_keys "$n"); fi
			rss=$(($(kb VmHWM) / 1024))
			[ -z "${DUMP:-}" ] || screen
			echo "round=$r client=${client%%=*} size=$n last_line_ms=$ms cpu_ms=$cpu host_cpu_ms=$hcpu rss_mb=$rss resize_ms=$rs echo_p50/p90/max_ms=$keys"
		done
	done
done
