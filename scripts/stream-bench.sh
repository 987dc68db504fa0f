#!/usr/bin/env bash
# The issue-22 side-by-side: a long reply streamed in realistic 20–60-byte
# deltas into ahptui in tmux at 120x40, the host in its own process so that
# the client's CPU is the client's alone. Two sources of the reply:
#
#   AGENT=demo (default)  the demo agent: `ahptui serve --pace 0`, prompt
#                         `/demo stream N` (ends "-- end of stream N bytes --")
#   AGENT=claude          a real agent: Claude Code's ACP adapter
#                         (@zed-industries/claude-agent-acp@0.23.1, npm-installed
#                         by scripts/e2e-real-agent.sh into $AHPTUI_CI_CACHE)
#                         behind `ahptui serve --agent claude=…`, fed by
#                         internal/mockanthropic on loopback; prompt
#                         `markdown N` (ends "-- end of markdown N bytes --")
#
# One line per run (round × size × client), then a summary per client and
# size (min/median/max over the rounds) and each issue-22 target with the
# rounds that met it. Columns:
#
#   last_line_ms  prompt sent → the reply's last line on screen (polled
#                 every 10 ms with capture-pane, so ±10 ms plus tmux's cost)
#   cpu_ms        the client process's user+system CPU over that time
#   host_cpu_ms   the host process's over the same time (it shares the cores)
#   agent_cpu_ms  AGENT=claude: the agent's processes (node) over that time
#   rss_mb        the client's peak RSS (VmHWM) so far
#   resize_ms     tmux resize 120x40 → 80x24 right after the reply → the
#                 pane redrawn (it differs from the cut frame tmux shows first)
#   echo p50/p90/max  keystroke echo while a second reply, ECHO_X times the
#                 size (demo: 2, claude: 1), streams (up to KEYS keys, 50 ms
#                 apart, only those typed before its end shows: echo_keys;
#                 sizes ≥ 1 MB only). Typed and polled by echoprobe
#                 (internal/tmuxctl) through one tmux control client: the
#                 earlier bash poller forked tmux and grep per poll and
#                 read p90 61-87 ms with ahptui idle; echoprobe reads 16-19
#                 (Bubble Tea's 60 fps frame is the floor)
#
#   scripts/stream-bench.sh                    3 MB and 200 KB, 3 rounds
#   SIZES="3m" ROUNDS=1 scripts/stream-bench.sh
#   AGENT=claude ROUNDS=1 scripts/stream-bench.sh
#   AHPTUI_BIN=/path/to/ahptui scripts/stream-bench.sh
#   HOST_BIN=./ahptui AHPTUI_BIN=/path/to/older/ahptui scripts/stream-bench.sh   an older client
#                                              against a host that has /demo stream
#   CLIENTS="old=/tmp/ahptui-old new=./ahptui" scripts/stream-bench.sh
#                                              several clients, interleaved in each round
#   CLIENTS="old=/tmp/ahptui-old,/tmp/ahptui-old new=./ahptui,./ahptui" scripts/stream-bench.sh
#                                              NAME=CLIENT,HOST: each with its own host binary
#   PERSIST=0 scripts/stream-bench.sh          the host keeps nothing on disk (serve --ephemeral;
#                                              by default a new host writes every delta to its
#                                              state database first, issue 28)
#   PERSIST=both scripts/stream-bench.sh       each client twice a round, against a durable host
#                                              and an ephemeral one (NAME-on, NAME-off; the order
#                                              alternates by round), then persistence's cost:
#                                              on/off of the median last_line_ms and host_cpu_ms
#   DUMP=1 scripts/stream-bench.sh             print the last screen of each run
#   PROFILE=DIR scripts/stream-bench.sh        CPU profile of each client run into
#                                              DIR/CLIENT-SIZE-rROUND.prof (go tool pprof)
#   HOST_PROFILE=DIR scripts/stream-bench.sh   CPU profile of each host process into
#                                              DIR/host-CLIENT-SIZE-rROUND-N.prof
#
# Needs tmux, go (unless AHPTUI_BIN is set; AGENT=claude always builds the
# mock). Linux only (/proc). ROUNDS=3 SIZES="3m 200k" takes about 2–4
# minutes with one client on a quiet machine (AGENT=claude: more, the
# adapter starts for every run).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-stream.XXXXXX")
export TMUX_TMPDIR="$WORK/tmux"
# tmux prefers the server named by $TMUX (the one this may run inside) to
# TMUX_TMPDIR: unset, every tmux command below (kill-server included)
# reaches only this run's private server.
unset TMUX TMUX_PANE
mkdir -p "$TMUX_TMPDIR" "$WORK/proj" "$WORK/state" "$WORK/home"
S=stream
SIZES=${SIZES:-"3m 200k"}
ROUNDS=${ROUNDS:-3}
KEYS=${KEYS:-20}
TIMEOUT=${TIMEOUT:-120}
AGENT=${AGENT:-demo}
# The echo phase streams ECHO_X times the size, so that KEYS keys fit in
# it (the demo's 3 MB reply lasts about a second now).
if [ "$AGENT" = demo ]; then ECHO_X=${ECHO_X:-2}; else ECHO_X=${ECHO_X:-1}; fi
HOSTPID= MOCK_PID=
PERSIST=${PERSIST:-1}

cleanup() {
	tmux kill-server 2>/dev/null || true
	stop_host
	[ -z "$MOCK_PID" ] || kill "$MOCK_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
# stop_host ends the host and its agents (their own process group).
stop_host() {
	[ -n "$HOSTPID" ] || return 0
	kill -- "-$HOSTPID" 2>/dev/null || kill "$HOSTPID" 2>/dev/null || true
	wait "$HOSTPID" 2>/dev/null || true
	HOSTPID=
}
trap cleanup EXIT

. "$(dirname "$0")/lib/tmux-screen.sh" # ahptui_bin, snap, wait_for
POLL=0.01
BIN=$(ahptui_bin)
HOST_BIN=${HOST_BIN:-$BIN} # the host (needs /demo stream); BIN is the client measured
case $PERSIST in
0 | 1 | both) ;;
*) echo "PERSIST is 0, 1 or both, not $PERSIST" >&2 && exit 2 ;;
esac
persist_flag=
PROBE=$(echoprobe_bin)
TCK=$(getconf CLK_TCK)

now_ns() { date +%s%N; }
bytes() { # 3m → 3145728, 200k → 204800 (as /demo's ParseSize)
	case $1 in
	*m) echo $((${1%m} << 20)) ;;
	*k) echo $((${1%k} << 10)) ;;
	*) echo "$1" ;;
	esac
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/${1:-$PID}/stat" 2>/dev/null || echo 0; }
# agent_ticks: CPU ticks of the host's descendants (the agent's processes).
agent_ticks() {
	local t=0 p kids todo=$HOSTPID
	while [ -n "$todo" ]; do
		kids=
		for p in $todo; do kids+=" $(cat /proc/"$p"/task/*/children 2>/dev/null)"; done
		todo=
		for p in $kids; do t=$((t + $(cpu_ticks "$p"))); todo+=" $p"; done
	done
	echo "$t"
}
kb() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$PID/status"; }

# start_client: a fresh host process and a client attached to it at 120x40,
# in a new session's chat; sets PID to the client's (deepest ahptui) process.
start_client() {
	tmux kill-server 2>/dev/null || true
	stop_host
	local agent=()
	[ "$AGENT" = demo ] || agent=(--agent "claude=node '$ADAPTER'" --dir "$WORK/proj" --state-dir "$WORK/state/agents")
	local hprof=()
	HOSTS=$((${HOSTS:-0} + 1))
	[ -z "${HOST_PROFILE:-}" ] || hprof=(env "AHPTUI_CPUPROFILE=$HOST_PROFILE/host-$RUN-$HOSTS.prof")
	HOME="$WORK/home" setsid "${hprof[@]}" "$HOST_BIN" serve --addr 127.0.0.1:0 --without-connection-token --pace 0 --log-level error "${agent[@]}" ${persist_flag:+"$persist_flag"} >"$WORK/host.out" 2>"$WORK/host.err" &
	HOSTPID=$!
	local url=""
	for _ in $(seq 100); do
		url=$(head -n 1 "$WORK/host.out" 2>/dev/null || true)
		[[ "$url" == ws://* ]] && break
		sleep 0.05
	done
	[[ "$url" == ws://* ]] || { cat "$WORK/host.err" >&2; fail "the host printed no URL"; }
	tmux new-session -d -s "$S" -x 120 -y 40 -e TERM=xterm-256color -e HOME="$WORK" -e XDG_STATE_HOME="$WORK/state"
	local prof=
	[ -z "${PROFILE:-}" ] || prof="AHPTUI_CPUPROFILE='$PROFILE/$RUN.prof' "
	tmux respawn-pane -k -t "$S" "cd '$WORK/proj' && ${prof}exec '$BIN' '$url'"
	# A host without sessions may open straight into a new chat.
	wait_for 'Sessions|No messages yet' 60
	PID=$(tmux display -p -t "$S" '#{pane_pid}')
	while child=$(cat /proc/$PID/task/*/children 2>/dev/null | awk '{print $1; exit}') && [ -n "$child" ]; do
		PID=$child
	done
	if ! on_screen 'No messages yet'; then
		tmux send-keys -t "$S" C-n
		wait_for 'New session' 60
		sleep 0.3
		tmux send-keys -t "$S" Enter
	fi
	wait_for 'Message…' 60
	if [ "$AGENT" != demo ]; then # the adapter's first turn starts Claude Code: not measured
		tmux send-keys -t "$S" -l "hello"
		tmux send-keys -t "$S" Enter
		wait_for 'You said: hello' 120
		wait_for 'tab transcript' 60
	fi
	sleep 0.5
}

# prompt N / endmark N: what asks the agent for N bytes, and its last line.
prompt() { if [ "$AGENT" = demo ]; then echo "/demo stream $1"; else echo "markdown $1"; fi; }
endmark() { if [ "$AGENT" = demo ]; then echo "end of stream $1 bytes"; else echo "end of markdown $1 bytes"; fi; }

# stream SIZE: one reply; prints last_line_ms, cpu_ms, the host's and the
# agent's.
stream() {
	local n=$1 c0 h0 a0 t0 ms cpu
	c0=$(cpu_ticks)
	h0=$(cpu_ticks "$HOSTPID")
	a0=$(agent_ticks)
	tmux send-keys -t "$S" -l "$(prompt "$n")"
	t0=$(now_ns)
	tmux send-keys -t "$S" Enter
	wait_for "$(endmark "$n")" "$TIMEOUT"
	ms=$((($(now_ns) - t0) / 1000000))
	cpu=$((($(cpu_ticks) - c0) * 1000 / TCK))
	echo "$ms $cpu $((($(cpu_ticks "$HOSTPID") - h0) * 1000 / TCK)) $((($(agent_ticks) - a0) * 1000 / TCK))"
}

# echo_keys SIZE: keystroke echo while a reply of SIZE streams.
echo_keys() {
	local n=$1
	tmux send-keys -t "$S" -l "$(prompt "$n")"
	tmux send-keys -t "$S" Enter
	local res
	res=$("$PROBE" -t "$S" -keys "$KEYS" -until "$(endmark "$n")") || exit 1
	wait_for "$(endmark "$n")" "$TIMEOUT"
	tmux send-keys -t "$S" C-u # clear what was typed
	echo "$res" # last: the caller reads it once this is done
}

# resize: 120x40 → 80x24; ms until ahptui has redrawn the pane: the screen
# tmux shows right after the resize (the old frame, cut) is captured by the
# same tmux command, then the pane is polled until it differs. Resizes back
# after.
resize() {
	local t0 cut
	t0=$(now_ns)
	cut=$(tmux resize-window -t "$S" -x 80 -y 24 \; capture-pane -p -t "$S")
	while :; do # (cut was captured at 80x24 by the resize's own tmux command)
		snap
		[ "$(<"$WORK/last-screen.txt")" != "$cut" ] && break
		(($(now_ns) - t0 < 30000000000)) || { echo "no redraw within 30 s" >&2; exit 1; }
	done
	echo $((($(now_ns) - t0) / 1000000))
	tmux resize-window -t "$S" -x 120 -y 40
	sleep 0.3
}

if [ "$AGENT" != demo ]; then
	CACHE=${AHPTUI_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ahptui-ci}
	ADAPTER="$CACHE/claude-agent-acp-0.23.1/node_modules/@zed-industries/claude-agent-acp/dist/index.js"
	[ -f "$ADAPTER" ] || { echo "stream-bench: no adapter at $ADAPTER (run scripts/e2e-real-agent.sh once: it installs it)" >&2; exit 1; }
	(cd "$ROOT" && go build -o "$WORK/mockllm" ./internal/mockllm/cmd/mockllm)
	"$WORK/mockllm" -api anthropic -url-file "$WORK/mock.url" >"$WORK/mock.log" 2>&1 &
	MOCK_PID=$!
	for _ in $(seq 100); do [ -s "$WORK/mock.url" ] && break; sleep 0.1; done
	[ -s "$WORK/mock.url" ] || fail "the mock did not start"
	export ANTHROPIC_BASE_URL="$(cat "$WORK/mock.url")" ANTHROPIC_API_KEY=dummy \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1
	[ "$(id -u)" = 0 ] && export IS_SANDBOX=1
	mkdir -p "$WORK/home"
fi

echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg) agent=$AGENT host=$HOST_BIN rounds=$ROUNDS sizes=$SIZES"
echo "# 120x40 tmux; times in ms; cpu = user+system of that process during the reply; see the script's header"
CLIENTS=${CLIENTS:-"ahptui=$BIN"}
HOST_DEFAULT=$HOST_BIN
RESULTS="$WORK/results"
: >"$RESULTS"
for ((r = 1; r <= ROUNDS; r++)); do
	for size in $SIZES; do
		modes=$PERSIST
		if [ "$PERSIST" = both ]; then
			modes="1 0"
			((r % 2)) || modes="0 1"
		fi
		for client in $CLIENTS; do for mode in $modes; do
			BIN=${client#*=} HOST_BIN=$HOST_DEFAULT
			if [[ "$BIN" == *,* ]]; then HOST_BIN=${BIN#*,} BIN=${BIN%%,*}; fi
			name=${client%%=*}
			persist_flag=
			[ "$mode" = 1 ] || persist_flag=--ephemeral
			if [ "$PERSIST" = both ]; then name+=-$([ "$mode" = 1 ] && echo on || echo off); fi
			n=$(bytes "$size")
			RUN="$name-$size-r$r"
			start_client
			read -r ms cpu hcpu acpu < <(stream "$n")
			rs=$(resize)
			keys=- nk=0 rss=
			if ((n >= 1 << 20)); then
				# Claude Code compacts its context after a 3 MB reply: the
				# echo phase gets a fresh host and session.
				if [ "$AGENT" != demo ]; then
					rss=$(($(kb VmHWM) / 1024)) # the client that streamed the reply
					start_client
				fi
				# A size of its own (+ the round): no reply on the screen
				# before ends as this one does, however soon it ends.
				read -r keys nk < <(echo_keys "$((n * ECHO_X + r))")
			fi
			[ -n "$rss" ] || rss=$(($(kb VmHWM) / 1024))
			[ -z "${DUMP:-}" ] || screen
			[ "$AGENT" != demo ] || acpu=-
			echo "round=$r client=$name size=$n last_line_ms=$ms cpu_ms=$cpu host_cpu_ms=$hcpu agent_cpu_ms=$acpu rss_mb=$rss resize_ms=$rs echo_p50/p90/max_ms=$keys echo_keys=$nk"
			echo "$name $n $ms $cpu $hcpu $rss $rs ${keys//\// } $nk" >>"$RESULTS"
		done; done
	done
done
echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"

# The summary: min/median/max per client and size, and the targets.
awk '
function stat(key, col,   n, i, j, t, v) {
	n = split(vals[key, col], v, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return n ? v[1] "/" v[int((n + 1) / 2)] "/" v[n] : "-"
}
{
	key = $1 " " $2
	if (!(key in seen)) { seen[key] = 1; order[++k] = key }
	for (c = 3; c <= NF; c++) if ($c != "-") vals[key, c] = vals[key, c] " " $c
	runs[key]++
	big = $2 >= 1048576
	if ((big && $3 <= 1500) || (!big && $3 <= 300)) last[key]++
	if ($7 <= 100) rsz[key]++
	if (NF >= 11 && $9 != "-") { echoes[key]++; keys[key] += $11; if ($9 <= 60 && $10 <= 250) echo_ok[key]++ }
}
END {
	print ""
	print "summary (min/median/max over the rounds)"
	printf "%-10s %9s %16s %16s %16s %12s %14s %22s\n", "client", "size", "last_line_ms", "cpu_ms", "host_cpu_ms", "rss_mb", "resize_ms", "echo p50 | p90 | max"
	for (i = 1; i <= k; i++) {
		split(order[i], kk, " ")
		printf "%-10s %9s %16s %16s %16s %12s %14s %22s\n", kk[1], kk[2], stat(order[i], 3), stat(order[i], 4), stat(order[i], 5), stat(order[i], 6), stat(order[i], 7), (echoes[order[i]] ? stat(order[i], 8) " | " stat(order[i], 9) " | " stat(order[i], 10) : "-")
	}
	print ""
	print "issue-22 targets (rounds that met each; a quiet machine is assumed: at load > 2 wall times stretch)"
	for (i = 1; i <= k; i++) {
		split(order[i], kk, " ")
		big = kk[2] >= 1048576
		printf "%-10s %9s  last line <= %s ms: %d/%d   resize <= 100 ms: %d/%d", kk[1], kk[2], big ? 1500 : 300, last[order[i]], runs[order[i]], rsz[order[i]], runs[order[i]]
		if (echoes[order[i]]) printf "   echo p90 <= 60 and max <= 250 ms: %d/%d (%d keys while streaming)", echo_ok[order[i]], echoes[order[i]], keys[order[i]]
		printf "\n"
	}
}' "$RESULTS"

# PERSIST=both: persistence's cost, on/off of the medians per client and size.
[ "$PERSIST" != both ] || awk '
function med(s,   n, i, j, t, v) {
	n = split(s, v, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
	base = $1; sub(/-(on|off)$/, "", base); mode = $1; sub(/.*-/, "", mode)
	key = base " " $2
	if (!(key in seen)) { seen[key] = 1; order[++k] = key }
	ms[key, mode] = ms[key, mode] " " $3; cpu[key, mode] = cpu[key, mode] " " $5
}
END {
	print ""
	print "persistence on/off (medians over the rounds)"
	printf "%-10s %9s %24s %24s\n", "client", "size", "last_line_ms on/off", "host_cpu_ms on/off"
	for (i = 1; i <= k; i++) {
		key = order[i]; split(key, kk, " ")
		a = med(ms[key, "on"]); b = med(ms[key, "off"]); c = med(cpu[key, "on"]); d = med(cpu[key, "off"])
		printf "%-10s %9s %24s %24s\n", kk[1], kk[2], sprintf("%s/%s = %.2f", a, b, b ? a / b : 0), sprintf("%s/%s = %.2f", c, d, d ? c / d : 0)
	}
}' "$RESULTS"
