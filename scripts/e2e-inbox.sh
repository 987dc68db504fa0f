#!/usr/bin/env bash
# End-to-end test of the inbox (the session picker over every configured
# host) in a real terminal at 80×24, driven through tmux. Also the way to
# try it by hand: E2E_KEEP=1 leaves the hosts, the config and the tmux
# session running and prints how to attach.
#
#   scripts/e2e-inbox.sh            build ./ahptui and run the scenario
#   AHPTUI_BIN=/path/to/ahptui scripts/e2e-inbox.sh   use a prebuilt binary
#   E2E_WORKDIR=/some/empty/dir  work there and keep it (last-screen.txt,
#                state/ahptui/ahptui.log, the hosts' output)
#
# Scenario: two `ahptui serve` hosts (alpha, beta) and one that is down
# (gone) in a config file; beta has a session waiting for a tool approval
# (`/demo tools` run by `ahptui exec` with no terminal to ask). `ahptui`
# with no argument opens the picker on every host: grouped in file order,
# each with its state (gone: down, with the countdown), the waiting session
# marked. A session of alpha that starts asking a question meanwhile moves
# up in alpha's group and rings the bell. Filtering for beta's session and
# pressing enter attaches to beta (status line) and shows the approval;
# back to the sessions, beta is the attached host. At 120×40 the same
# screen fits. Every wait polls with a timeout (no fixed sleeps).
# Needs: tmux, setsid, go (unless AHPTUI_BIN is set). Exit status 0 = pass.
set -euo pipefail
export LC_ALL=C.UTF-8

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib/tmux-screen.sh" # e2e_workdir, snap, screen, wait_for, wait_gone, keys, type_text, step, fail
e2e_workdir inbox
export TMUX_TMPDIR="$WORK/tmux"
# tmux prefers the server named by $TMUX (the one this may run inside) to
# TMUX_TMPDIR: unset, every tmux command below (kill-server included)
# reaches only this run's private server.
unset TMUX TMUX_PANE
mkdir -p "$TMUX_TMPDIR" "$WORK/state" "$WORK/config/ahptui" "$WORK/proj"
S=inbox
TIMEOUT=${E2E_TIMEOUT:-20}
PIDS=()

cleanup() {
	if [ -n "${E2E_KEEP:-}" ]; then
		return
	fi
	tmux kill-server 2>/dev/null || true
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	[ -n "$KEEP_WORK" ] || rm -rf "$WORK"
}
trap cleanup EXIT

BIN=$(ahptui_bin)

# fits W H: no captured line is wider than W, and there are H lines.
fits() {
	snap
	local n
	n=$(wc -l <"$WORK/last-screen.txt")
	[ "$n" -le "$2" ] || fail "$n lines at $1×$2"
	local line
	while IFS= read -r line; do # characters, not bytes (… and — are one column)
		((${#line} <= $1)) || fail "a line is wider than $1: $line"
	done <"$WORK/last-screen.txt"
}

# serve NAME: start `ahptui serve` with a random port and token; its first
# line is its URL (with the token), which sets NAME_URL and NAME_TOKEN.
serve() {
	local name=$1 out="$WORK/$1.out"
	: >"$out"
	"$BIN" serve --dir "$WORK/proj" --state-dir "$WORK/$1-state" --pace 2ms >"$out" 2>"$WORK/$1.err" & # one state directory per host
	PIDS+=($!)
	local deadline=$((SECONDS + TIMEOUT))
	until [ -s "$out" ]; do
		((SECONDS < deadline)) || fail "$name did not start: $(cat "$WORK/$1.err")"
		sleep 0.1
	done
	local url
	url=$(head -n1 "$out")
	printf -v "${name}_URL" '%s' "${url%%\?*}"
	printf -v "${name}_TOKEN" '%s' "${url##*tkn=}"
}

step "two hosts, and one that is down"
serve alpha
serve beta
serve gone
kill "${PIDS[-1]}" # gone's address now refuses connections
wait "${PIDS[-1]}" 2>/dev/null || true
cat >"$WORK/config/ahptui/config.toml" <<EOF
[hosts.alpha]
url = "$alpha_URL"
token_env = "ALPHA_TOKEN"

[hosts.beta]
url = "$beta_URL"
token_env = "BETA_TOKEN"

[hosts.gone]
url = "$gone_URL"

[notify]
bell = true
EOF
export XDG_CONFIG_HOME="$WORK/config" XDG_STATE_HOME="$WORK/state" ALPHA_TOKEN=$alpha_TOKEN BETA_TOKEN=$beta_TOKEN

step "sessions: one on alpha, one on beta waiting for an approval"
(cd "$WORK/proj" && "$BIN" exec @alpha "hello alpha" >/dev/null)
set +e
(cd "$WORK/proj" && setsid "$BIN" exec @beta "/demo tools" </dev/null >/dev/null 2>"$WORK/tools.err")
code=$?
set -e
[ "$code" = 5 ] || fail "exec /demo tools exited $code, want 5 (needs input): $(cat "$WORK/tools.err")"

tmux new-session -d -s "$S" -x 80 -y 24 -e TERM=xterm-256color -e HOME="$WORK" \
	-e XDG_CONFIG_HOME="$WORK/config" -e XDG_STATE_HOME="$WORK/state" \
	-e ALPHA_TOKEN="$alpha_TOKEN" -e BETA_TOKEN="$beta_TOKEN"
tmux set-option -t "$S" remain-on-exit on
tmux respawn-pane -k -t "$S" "'$BIN'; echo EXIT=\$?"

if [ -n "${E2E_KEEP:-}" ]; then
	echo "kept running; attach with: TMUX_TMPDIR=$WORK/tmux tmux attach -t $S"
	echo "(config: $WORK/config/ahptui/config.toml; stop the hosts: kill ${PIDS[*]})"
	exit 0
fi

step "ahptui with no argument: every host, grouped, each with its state"
wait_for '@alpha  connected'
wait_for '@beta  connected'
wait_for '@gone  down, retrying in [0-9]+s: '
snap
tr '\n' '\r' <"$WORK/last-screen.txt" | grep -qE '@alpha.*hello alpha.*@beta.*\? /demo tools.*@gone' ||
	fail "not grouped in file order with beta's waiting session"
grep -qE "$alpha_TOKEN|$beta_TOKEN" "$WORK/last-screen.txt" && fail "a token is on the screen"
fits 80 24

step "a session of alpha starts asking: it moves up, and the bell rings"
[ "$(tmux display-message -p -t "$S" '#{window_bell_flag}')" = 0 ] || fail "the bell rang before anything happened"
set +e
(cd "$WORK/proj" && setsid "$BIN" exec @alpha "/demo input" </dev/null >/dev/null 2>&1)
set -e
wait_for '\? /demo input'
snap
grep -A2 '^@alpha' "$WORK/last-screen.txt" | sed -n 2p | grep -q '? /demo input' &&
	grep -A2 '^@alpha' "$WORK/last-screen.txt" | sed -n 3p | grep -q 'hello alpha' ||
	fail "the question is not first in alpha's group"
deadline=$((SECONDS + TIMEOUT))
until [ "$(tmux display-message -p -t "$S" '#{window_bell_flag}')" = 1 ]; do
	((SECONDS < deadline)) || fail "no bell"
	sleep 0.1
done

step "filter for beta's session and open it: attached to beta"
type_text 'tools'
wait_gone 'hello alpha'
keys Enter
wait_for 'Approval needed'
fits 80 24
keys Escape
wait_gone 'Approval needed'
keys C-s
wait_for '@beta  connected · attached'
wait_for '@alpha  connected'
wait_for 'beta \(127\.0\.0\.1' # the status line names the attached host

step "120×40"
tmux resize-window -t "$S" -x 120 -y 40
wait_for '@gone  down'
fits 120 40
screen

step "quit"
keys C-c
SCROLLBACK=1 wait_for 'EXIT=0'
echo "PASS"
