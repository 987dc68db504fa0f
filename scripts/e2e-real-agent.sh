#!/usr/bin/env bash
# End-to-end test with a real ACP agent: Claude Code's ACP adapter
# (@agentclientprotocol/claude-agent-acp, pinned; it needs Node ≥ 22, which
# is npm-installed too when the machine's is older) behind `ahptui serve --agent`,
# talking to the project's mock of the Anthropic Messages API
# (internal/mockanthropic) on loopback, so no network but npm's registry is
# used and no account is needed.
#
#   scripts/e2e-real-agent.sh               build ./ahptui and run everything
#   AHPTUI_BIN=/path/to/ahptui scripts/e2e-real-agent.sh
#   E2E_ADAPTER_ONLY=1 scripts/e2e-real-agent.sh
#                     only check the adapter against the mock (no ahptui)
#   E2E_WORKDIR=DIR   work there and keep it (logs: mock.log, serve.err,
#                     state/ahptui/ahptui.log, last-screen.txt)
#
# The adapter is npm-installed once into $AHPTUI_CI_CACHE (default
# ~/.cache/ahptui-ci) and reused. Checks, through `ahptui exec`: an answer,
# an approved Bash command that creates a file in the session's working
# directory, a denied one that does not (exit 4), an approved file edit
# (Claude Code's Read then Edit) that changes the file, a denied one that
# does not, thinking shown, the agent's question (exit 5), an answer after
# two 529s (the agent's retries), cancel (SIGINT: exit 130); then the same
# through the TUI in tmux, where the edit's approval prompt and the
# transcript show its diff and the changes view lists the file; then a
# host restart (issue 28): the chat reopens as it was (the denied edit
# denied, the changes view with its reviewed mark), and an edit of another
# file after it joins the changes beside the first. Skips (exit 0) only
# when npm is not installed. Needs: npm, node, go (unless
# AHPTUI_BIN), tmux; python3 for the adapter-only check (skipped without).
# Known traps handled here: as root the adapter needs IS_SANDBOX=1; it
# sends HEAD / first; it does not exit on stdin EOF (the host must kill its
# process group: checked at the end).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ADAPTER_PKG=@agentclientprotocol/claude-agent-acp
ADAPTER_VERSION=0.101.0
NODE_VERSION=22.23.3 # the npm package "node" at an exact version, when the machine's Node is older than 22

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "e2e-real-agent: SKIP: npm/node not installed (the real-agent test needs $ADAPTER_PKG@$ADAPTER_VERSION from npm)"
	exit 0
fi

CACHE=${AHPTUI_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ahptui-ci}
ADIR="$CACHE/claude-agent-acp-$ADAPTER_VERSION"
ADAPTER="$ADIR/node_modules/$ADAPTER_PKG/dist/index.js"
# NODE: the machine's node when it is 22 or newer, else node@$NODE_VERSION
# from npm (its package holds the official binary), installed once.
NODE=node
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
	NDIR="$CACHE/node-$NODE_VERSION"
	NODE="$NDIR/node_modules/node/bin/node"
	if [ "$("$NODE" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
		echo "e2e-real-agent: installing node@$NODE_VERSION into $NDIR (once; this machine has Node $(node --version))"
		mkdir -p "$NDIR"
		npm install --prefix "$NDIR" --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >&2
		[ "$("$NODE" --version 2>/dev/null)" = "v$NODE_VERSION" ] || { echo "e2e-real-agent: npm did not install node $NODE_VERSION" >&2; exit 1; }
	fi
fi
installed_version() { node -p "require('$ADIR/node_modules/$ADAPTER_PKG/package.json').version" 2>/dev/null || true; }
if [ "$(installed_version)" != "$ADAPTER_VERSION" ]; then
	echo "e2e-real-agent: installing $ADAPTER_PKG@$ADAPTER_VERSION into $ADIR (once)"
	mkdir -p "$ADIR"
	npm install --prefix "$ADIR" --no-audit --no-fund --loglevel=error "$ADAPTER_PKG@$ADAPTER_VERSION" >&2
	[ "$(installed_version)" = "$ADAPTER_VERSION" ] || { echo "e2e-real-agent: npm did not install $ADAPTER_VERSION" >&2; exit 1; }
fi

. "$(dirname "$0")/lib/tmux-screen.sh" # e2e_workdir, snap, screen, wait_for, wait_gone, keys, type_text, step, fail
e2e_workdir real
export TMUX_TMPDIR="$WORK/tmux"
# tmux prefers the server named by $TMUX (the one this may run inside) to
# TMUX_TMPDIR: unset, every tmux command below (kill-server included)
# reaches only this run's private server.
unset TMUX TMUX_PANE
mkdir -p "$TMUX_TMPDIR" "$WORK/proj" "$WORK/state" "$WORK/home"
S=real
TIMEOUT=${E2E_TIMEOUT:-90}
MOCK_PID= SERVE_PID=

# agent_pids lists the processes of this run's agents: those whose
# environment points at this run's mock (nothing else has it).
agent_pids() {
	local p
	for p in /proc/[0-9]*; do
		{ tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "ANTHROPIC_BASE_URL=$MOCK_URL" && echo "${p#/proc/}"
	done
	return 0
}

cleanup() {
	tmux kill-server 2>/dev/null || true
	[ -n "$SERVE_PID" ] && kill -- "-$SERVE_PID" 2>/dev/null || true
	if [ -n "${MOCK_URL:-}" ]; then
		for p in $(agent_pids); do kill -9 "$p" 2>/dev/null || true; done
	fi
	[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null || true
	[ -n "$KEEP_WORK" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# The agent gets a HOME of its own (below): keep Go's caches where they are, or
# every build after that would download and compile everything again.
if command -v go >/dev/null 2>&1; then
	GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
	export GOCACHE GOMODCACHE GOPATH
fi

step "start the mock Anthropic API on loopback"
(cd "$ROOT" && go build -o "$WORK/mockllm" ./internal/mockllm/cmd/mockllm)
mkdir -p "$WORK/requests"
"$WORK/mockllm" -api anthropic -url-file "$WORK/mock.url" -dump "$WORK/requests" >"$WORK/mock.log" 2>&1 &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$WORK/mock.url" ] && break; sleep 0.1; done
MOCK_URL=$(cat "$WORK/mock.url")
[ -n "$MOCK_URL" ] || fail "the mock did not start"

# The current adapter starts sessions in Claude Code's "auto" mode, where a
# classifier approves commands by itself: this user's settings ask first.
mkdir -p "$WORK/home/.claude"
echo '{"permissions":{"defaultMode":"default"}}' >"$WORK/home/.claude/settings.json"

# The agent inherits this environment from the host.
export ANTHROPIC_BASE_URL="$MOCK_URL" ANTHROPIC_API_KEY=dummy HOME="$WORK/home" \
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1
[ "$(id -u)" = 0 ] && export IS_SANDBOX=1

if command -v python3 >/dev/null 2>&1; then
	step "the adapter alone against the mock (ACP over stdio, no ahptui)"
	mkdir -p "$WORK/alone"
	python3 "$ROOT/scripts/lib/acp-drive.py" "$WORK/alone" "bash: touch alone.txt" allow -- "$NODE" "$ADAPTER" >"$WORK/alone.out" 2>"$WORK/alone.err" ||
		{ cat "$WORK/alone.out" "$WORK/alone.err" >&2; fail "the adapter did not finish a prompt against the mock"; }
	grep -q '"The command ran."' "$WORK/alone.out" || { cat "$WORK/alone.out" >&2; fail "no final answer from the adapter"; }
	[ -e "$WORK/alone/alone.txt" ] || fail "the adapter's approved command did not create the file"
else
	echo "e2e-real-agent: python3 missing: adapter-only check skipped"
fi
if [ -n "${E2E_ADAPTER_ONLY:-}" ]; then
	echo "PASS (adapter only)"
	exit 0
fi

BIN=$(ahptui_bin)
"$BIN" serve --help >"$WORK/serve-help.txt" 2>&1 || true
grep -qE -- '-agent( |=)' "$WORK/serve-help.txt" || fail "this ahptui's serve has no --agent flag"

# start_serve: `serve --agent claude=…` on loopback; sets SERVE_PID, URL.
TOKEN=e2e-real-$$
start_serve() {
	: >"$WORK/serve.out"
	setsid "$BIN" serve --addr 127.0.0.1:0 --token "$TOKEN" --dir "$WORK/proj" --pace 0 \
		--agent "claude='$NODE' '$ADAPTER'" >"$WORK/serve.out" 2>>"$WORK/serve.err" &
	SERVE_PID=$!
	for _ in $(seq 200); do [ -s "$WORK/serve.out" ] && break; sleep 0.1; done
	URL=$(head -n1 "$WORK/serve.out")
	[ -n "$URL" ] || { cat "$WORK/serve.err" >&2; fail "serve printed no URL"; }
}

# stop_serve: SIGTERM the host; no agent process may be left.
stop_serve() {
	kill -TERM "$SERVE_PID"
	for _ in $(seq 100); do kill -0 "$SERVE_PID" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$SERVE_PID" 2>/dev/null && fail "serve did not exit on SIGTERM"
	SERVE_PID=
	local left=
	for _ in $(seq 50); do
		left=$(agent_pids)
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -z "$left" ] || fail "the host left agent processes running: $left"
}

step "serve --agent claude=… on loopback"
export XDG_STATE_HOME="$WORK/state" # the host's too: its session index survives a restart there
start_serve

# run_exec NAME ARGS...: ahptui exec against the host; exit code in $RC.
run_exec() {
	local name=$1
	shift
	set +e
	"$BIN" exec "$URL" --agent claude --cwd "$WORK/proj" --timeout "${EXEC_TIMEOUT:-120s}" "$@" \
		>"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
	RC=$?
	set -e
}
show() { echo "--- $1: exit $RC; stdout:" >&2; cat "$WORK/$1.out" >&2; echo "--- stderr:" >&2; cat "$WORK/$1.err" >&2; }

step "exec: an answer"
run_exec answer "hello real agent"
[ "$RC" = 0 ] && grep -q 'Hello from the mock. You said: hello real agent' "$WORK/answer.out" || { show answer; fail "no answer"; }

step "exec: an approved Bash command creates a file in the working directory"
run_exec approved --approve always "bash: touch approved.txt"
[ "$RC" = 0 ] && grep -q 'The command ran.' "$WORK/approved.out" || { show approved; fail "approved command"; }
[ -e "$WORK/proj/approved.txt" ] || { show approved; fail "approved.txt was not created in the session's directory"; }

step "exec: a denied one does not (exit 4)"
run_exec denied --approve never "bash: touch denied.txt"
[ "$RC" = 4 ] || { show denied; fail "denied command: exit $RC, want 4"; }
[ ! -e "$WORK/proj/denied.txt" ] || fail "denied.txt was created"

step "exec: an approved edit changes the file (the agent reads it, then edits it)"
printf 'name = demo\ncolour = red\n' >"$WORK/proj/edit-me.txt"
run_exec edited --approve always "edit: edit-me.txt colour = red => colour = green"
[ "$RC" = 0 ] && grep -q 'The edit was made\.' "$WORK/edited.out" || { show edited; fail "approved edit"; }
[ "$(cat "$WORK/proj/edit-me.txt")" = "$(printf 'name = demo\ncolour = green')" ] || { show edited; fail "edit-me.txt was not edited: $(cat "$WORK/proj/edit-me.txt")"; }

step "exec: a denied edit does not (exit 4; in the same session: no new agent session)"
SID=$(sed -n 's/^ahptui: session //p' "$WORK/edited.err" | head -n1)
[ -n "$SID" ] || { show edited; fail "exec printed no session id"; }
run_exec unedited --approve never --session "$SID" "edit: edit-me.txt colour = green => colour = blue"
[ "$RC" = 4 ] || { show unedited; fail "denied edit: exit $RC, want 4"; }
grep -q 'colour = green' "$WORK/proj/edit-me.txt" || fail "a denied edit changed edit-me.txt: $(cat "$WORK/proj/edit-me.txt")"

step "exec: thinking is shown"
run_exec thinking --json "think about it"
[ "$RC" = 0 ] && grep -q '"reasoning"' "$WORK/thinking.out" && grep -q 'Let me think about this carefully' "$WORK/thinking.out" ||
	{ show thinking; fail "no reasoning event"; }
grep -q 'the answer is 42' "$WORK/thinking.out" || { show thinking; fail "no answer after the thinking"; }

step "exec: cancel (SIGINT cancels the turn: exit 130), and the agent still answers after"
"$BIN" exec "$URL" --agent claude --cwd "$WORK/proj" --timeout 120s "slow please" \
	>"$WORK/cancel.out" 2>"$WORK/cancel.err" </dev/null &
EXEC_PID=$!
for _ in $(seq $((TIMEOUT * 10))); do grep -q 'word3 ' "$WORK/cancel.out" 2>/dev/null && break; sleep 0.1; done
grep -q 'word3 ' "$WORK/cancel.out" || { RC=running; show cancel; fail "the slow answer did not stream"; }
kill -INT "$EXEC_PID"
set +e
wait "$EXEC_PID"
RC=$?
set -e
[ "$RC" = 130 ] || { show cancel; fail "cancel: exit $RC, want 130"; }
grep -q 'word590 ' "$WORK/cancel.out" && fail "the answer ran to its end: not cancelled"
# In the same session: the old adapter (0.23.1) ended this prompt at once,
# empty, and every later answer landed under the following prompt.
CSID=$(sed -n 's/^ahptui: session //p' "$WORK/cancel.err" | head -n1)
[ -n "$CSID" ] || { RC=?; show cancel; fail "exec printed no session id"; }
run_exec after --session "$CSID" "hello again"
[ "$RC" = 0 ] && grep -q 'You said: hello again' "$WORK/after.out" || { show after; fail "no answer after the cancel, in the same session"; }
run_exec after2 --session "$CSID" "and once more"
[ "$RC" = 0 ] && grep -q 'You said: and once more' "$WORK/after2.out" || { show after2; fail "the answer after that is not its own"; }

step "exec: !cmd runs in a shell on the host (nothing to the agent), and goes with the next prompt"
run_exec shell "!echo shell-ran > shell.txt; echo printed-by-the-shell"
[ "$RC" = 0 ] && [ -e "$WORK/proj/shell.txt" ] || { show shell; fail "!cmd did not run in the session's directory"; }
SSID=$(sed -n 's/^ahptui: session //p' "$WORK/shell.err" | head -n1)
run_exec aftershell --session "$SSID" "hello after the shell"
[ "$RC" = 0 ] || { show aftershell; fail "no answer after !cmd"; }
grep -rlq 'printed-by-the-shell' "$WORK/requests" || fail "the shell's output did not reach the model with the next prompt"

step "exec: the agent's question (AskUserQuestion, through ACP elicitation) stops exec with exit 5"
run_exec ask --json "ask: Which colour? Red | Blue"
[ "$RC" = 5 ] && grep -q '"input_requested"' "$WORK/ask.out" && grep -q 'Which colour?' "$WORK/ask.out" ||
	{ show ask; fail "the agent's question: exit $RC, want 5 with an input_requested event"; }

step "exec: a model API that fails twice (529) and then answers: the retries are shown, the answer comes"
run_exec retried "overloaded 2 then answer"
[ "$RC" = 0 ] && grep -q 'You said: overloaded 2 then answer' "$WORK/retried.out" || { show retried; fail "no answer after the retries"; }
# The adapter reports its retries to a client with AIR's sessionFailure
# (the host advertises it): exec notes them, as the TUI's status line shows them.
grep -q 'ahptui: agent: Retrying Claude, attempt [0-9]' "$WORK/retried.err" || { show retried; fail "the agent's retries were not shown"; }

# attach_tui: ahptui attached to the host in a new tmux session (120x40).
attach_tui() {
	tmux new-session -d -s "$S" -x 120 -y 40 -e TERM=xterm-256color -e HOME="$WORK/home" -e XDG_STATE_HOME="$WORK/state"
	tmux set-option -t "$S" remain-on-exit on
	tmux respawn-pane -k -t "$S" "cd '$WORK/proj' && '$BIN' '$URL'; echo EXIT=\$?"
}

# quit_tui: ctrl+c quits (exit 0); the tmux server goes too (it inherited
# this run's environment: only the host's own children may be left after).
quit_tui() {
	keys C-c
	SCROLLBACK=1 wait_for 'EXIT=0'
	tmux kill-server 2>/dev/null || true
}

step "TUI: attach in tmux and create a session with the agent"
attach_tui
wait_for 'Sessions'
wait_for '● Connected'
keys C-n
wait_for '│ +New session'
# The agent's own modes and models are the session's options.
wait_for '│ +‹ Default \(recommended\) ›'
keys Enter
wait_for 'Message…'

step "TUI: an answer"
type_text 'hello from tmux'
keys Enter
wait_for 'Hello from the mock. You said: hello from tmux'
wait_for 'tab transcript'

step "TUI: @ completes a file of the session's directory; it reaches the model as a resource link"
printf 'mentioned\n' >"$WORK/proj/mention-me.md"
type_text 'look at @mention'
wait_for '@mention-me\.md +document'
keys Tab
keys Enter
wait_for 'mention-me\.md \(file://'
wait_for 'tab transcript'
grep -rlqF '[@mention-me.md](file://' "$WORK/requests" || fail "the mention did not reach the model as a link"

step "TUI: approve a Bash command with the agent's own option (a)"
type_text 'bash: touch tui-approved.txt'
keys Enter
wait_for '│ .*touch tui-approved\.txt'
wait_for '│ .*Allow'
wait_gone 'you were typing'
wait_for 'd/n deny'
keys a
wait_for 'The command ran\.'
wait_for 'tab transcript'
[ -e "$WORK/proj/tui-approved.txt" ] || fail "tui-approved.txt was not created"

step "TUI: reject one (d)"
type_text 'bash: touch tui-denied.txt'
keys Enter
wait_for '│ .*touch tui-denied\.txt'
wait_for '│ +\[[0-9]\] No'
wait_gone 'you were typing'
wait_for 'd/n deny'
keys d
wait_for 'The command did not run'
wait_for 'tab transcript'
[ ! -e "$WORK/proj/tui-denied.txt" ] || fail "tui-denied.txt was created"

step "TUI: deny with a reason (r): the reason reaches the model"
type_text 'bash: touch tui-reason.txt'
keys Enter
wait_for '│ .*touch tui-reason\.txt'
wait_for '│ +\[[0-9]\] No'
wait_gone 'you were typing'
wait_for 'd/n deny'
keys r
wait_for 'why\?'
type_text 'use printf instead'
keys Enter
wait_for 'Sent to the agent'
wait_for 'tab transcript'
[ ! -e "$WORK/proj/tui-reason.txt" ] || fail "tui-reason.txt was created"
grep -rlq "The user's reason: use printf instead" "$WORK/requests" || fail "the reason did not reach the model"

step "TUI: approve an edit: the prompt shows its diff, then the transcript does"
printf 'a\nb\nc\nd\n[server]\nport = 8080\ndebug = false\n' >"$WORK/proj/tui-edit.txt"
type_text 'edit: tui-edit.txt port = 8080 => port = 9090'
keys Enter
wait_for '│ .*Edit tui-edit\.txt'
wait_for '│ +-port = 8080'
wait_for '│ +\+port = 9090'
wait_gone 'you were typing'
wait_for 'd/n deny'
keys a
wait_for 'The edit was made\.'
wait_for '^ +-port = 8080'
wait_for '^ +\+port = 9090'
wait_for '^ +@@ -3,5 \+3,5 @@' # the file's line numbers, as the prompt had them
wait_for 'tab transcript'
grep -q 'port = 9090' "$WORK/proj/tui-edit.txt" || fail "tui-edit.txt was not edited: $(cat "$WORK/proj/tui-edit.txt")"

step "TUI: the changes view lists the edited file (alt+e); mark it reviewed (space)"
keys M-e
wait_for 'Changes +1 file'
wait_for 'M .*tui-edit\.txt +\+1 −1'
wait_for ' 0 reviewed'
keys Space
wait_for ' 1 reviewed'
keys Escape
wait_gone 'Changes +1 file'

step "TUI: deny an edit (d): the file stays as it was"
type_text 'edit: tui-edit.txt debug = false => debug = true'
keys Enter
wait_for '│ +\+debug = true'
wait_gone 'you were typing'
wait_for 'd/n deny'
keys d
wait_for 'The edit was not made'
wait_for 'Edit tui-edit\.txt — denied'
wait_for 'tab transcript'
grep -q 'debug = false' "$WORK/proj/tui-edit.txt" || fail "a denied edit changed tui-edit.txt: $(cat "$WORK/proj/tui-edit.txt")"

step "TUI: thinking shown"
type_text 'think in tmux'
keys Enter
wait_for 'the answer is 42'
wait_for 'Thought'
wait_for 'tab transcript'

step "TUI: the agent's question is a form; the answer picked reaches the model"
type_text 'ask: Which colour? Red | Blue'
keys Enter
wait_for 'The agent asks' # the form (the transcript shows the question too)
wait_for 'Blue'
wait_for 'next/submit'
keys Down
for _ in 1 2 3; do
	keys Enter
	sleep 1
	on_screen "Answer received" && break
done
wait_for 'Answer received: .*Blue'
wait_for 'tab transcript'

step "TUI: cancel"
type_text 'slow in tmux'
keys Enter
wait_for 'word3 '
keys Escape
wait_for 'Cancelled'
wait_for 'tab transcript'

step "quit; stop the host: no agent process is left"
quit_tui
stop_serve

step "restart the host: a session reopens with its whole history (the host's database, issue 28)"
start_serve
attach_tui
wait_for '● Connected'
# The picker: the host kept its sessions. exec's question was still waiting
# when the host stopped: that turn was interrupted, so its session comes
# first (✗); the TUI's, used last before it, is the next.
wait_for '^› +✗ ask: Which colour'
keys Down
wait_for '^› +○ .*claude · '
keys Enter
# Its last turns as they were shown, not as the agent would replay them
# (the chat opens at its end): the cancelled turn is still cancelled.
wait_for 'the answer is 42'
wait_for 'ask: Which colour\? Red \| Blue'
wait_for '→ Blue' # the question answered, as it was
wait_for 'slow in tmux'
wait_for 'Cancelled'

step "after the restart the denied edit is still denied (the host's record: the agent's replay said failed)"
keys C-f
type_text 'debug = true'
keys Enter
wait_for 'Edit tui-edit\.txt — denied'
wait_for 'The edit was not made: User refused permission'
keys Escape
wait_gone 'search ›'

step "after the restart the changes view still lists the edit, reviewed (its changeset was kept)"
keys M-e
wait_for 'M .*tui-edit\.txt +\+1 −1'
wait_for ' 1 reviewed'
keys Escape
wait_gone 'Changes +1 file'

step "after the restart an edit of another file joins the changes: the first stays listed, reviewed"
printf 'x\nname = old\ny\n' >"$WORK/proj/tui-other.txt"
type_text 'edit: tui-other.txt name = old => name = new'
keys Enter
wait_for '│ .*Edit tui-other\.txt'
wait_for '│ +\+name = new'
wait_gone 'you were typing'
wait_for 'd/n deny'
keys a
wait_for '^ +\+name = new'
wait_for 'tab transcript'
grep -q 'name = new' "$WORK/proj/tui-other.txt" || fail "tui-other.txt was not edited: $(cat "$WORK/proj/tui-other.txt")"
keys M-e
wait_for 'Changes +2 files'
wait_for 'M .*tui-edit\.txt +\+1 −1'
wait_for 'M .*tui-other\.txt +\+1 −1'
wait_for ' 1 reviewed'
keys Escape
wait_gone 'Changes +2 files'
quit_tui
stop_serve
echo "PASS"
