#!/usr/bin/env bash
# End-to-end test with more real ACP agents, through `ahptui exec`:
#
#   scripts/e2e-exec-agent.sh gemini     Gemini CLI (`gemini --acp`, @google/gemini-cli
#                                        pinned) against internal/mockgemini
#   scripts/e2e-exec-agent.sh opencode   opencode (`opencode acp`, opencode-ai pinned)
#                                        against internal/mockopenai (chat completions),
#                                        permissions set to ask
#   scripts/e2e-exec-agent.sh codex      Codex through its ACP adapter
#                                        (@agentclientprotocol/codex-acp pinned, with the
#                                        native codex it ships) against internal/mockopenai
#                                        (Responses API), a private CODEX_HOME, the
#                                        read-only mode (asks before commands and edits)
#
# each behind `ahptui serve --agent`, on loopback: no network but npm's
# registry (opencode also fetches its openai-compatible provider package
# from it once), no account. Runs beside e2e-real-agent.sh (Claude Code) in
# CI. AHPTUI_BIN=/path/to/ahptui uses a built binary; E2E_WORKDIR=DIR works
# there and keeps it (mock.log, serve.err, requests/).
#
# The agent is npm-installed once into $AHPTUI_CI_CACHE (default
# ~/.cache/ahptui-ci). Checks: an answer, approved shell commands that
# create files (opencode and Codex report a call in_progress before they
# ask: every approval must reach the user), a denied one that does nothing
# (exit 4), an approved edit that changes the file and whose diff the
# session keeps (`ahptui export --format json`), a cancel (exit 130) and then two
# prompts in the same session answered in order, `!cmd` run on the host
# and its output in the next prompt. Skips (exit 0) only when npm is not
# installed.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
AGENT=${1:?usage: e2e-exec-agent.sh gemini|opencode|codex}
. "$(dirname "$0")/lib/agent-setup.sh" # agent_pick, agent_install, keep_go_caches, mock_start, agent_env
agent_pick "$AGENT"
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "e2e-exec-agent: SKIP: npm/node not installed (the test needs $PKG@$VERSION from npm)"
	exit 0
fi
agent_install "$AGENT"

. "$(dirname "$0")/lib/tmux-screen.sh" # e2e_workdir, step, ahptui_bin
fail() { # (no screen to show: no tmux here)
	echo "FAIL: $*" >&2
	exit 1
}
e2e_workdir "$AGENT"
mkdir -p "$WORK/proj" "$WORK/state"
MOCK_PID= SERVE_PID=
cleanup() {
	[ -n "$SERVE_PID" ] && kill -- "-$SERVE_PID" 2>/dev/null || true
	[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null || true
	[ -n "$KEEP_WORK" ] || rm -rf "$WORK"
}
trap cleanup EXIT
keep_go_caches

step "start the mock $API API on loopback"
mock_start
export XDG_STATE_HOME="$WORK/state"
agent_env "$AGENT"

BIN=$(ahptui_bin)
step "serve --agent $AGENT on loopback"
TOKEN=e2e-$AGENT-$$
setsid "$BIN" serve --addr 127.0.0.1:0 --token "$TOKEN" --dir "$WORK/proj" --pace 0 \
	--agent "$AGENT=$AGENT_CMD" >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE_PID=$!
for _ in $(seq 200); do [ -s "$WORK/serve.out" ] && break; sleep 0.1; done
URL=$(head -n1 "$WORK/serve.out")
[ -n "$URL" ] || { cat "$WORK/serve.err" >&2; fail "serve printed no URL"; }

run_exec() {
	local name=$1
	shift
	set +e
	"$BIN" exec "$URL" --agent "$AGENT" --cwd "$WORK/proj" --timeout "${EXEC_TIMEOUT:-120s}" "$@" \
		>"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
	RC=$?
	set -e
}
show() { echo "--- $1: exit $RC; stdout:" >&2; cat "$WORK/$1.out" >&2; echo "--- stderr:" >&2; cat "$WORK/$1.err" >&2; }
sid() { sed -n 's/^ahptui: session //p' "$WORK/$1.err" | head -n1; }

step "exec: an answer"
run_exec answer "hello agent"
[ "$RC" = 0 ] && grep -q 'Hello from the mock. You said: hello agent' "$WORK/answer.out" || { show answer; fail "no answer"; }

step "exec: approved shell commands create files in the working directory (each approval reaches the user)"
for i in 1 2; do
	run_exec "approved$i" --approve always "bash: touch approved$i.txt"
	[ "$RC" = 0 ] && grep -q 'The command ran.' "$WORK/approved$i.out" && [ -e "$WORK/proj/approved$i.txt" ] &&
		grep -q 'approval for .*: approved' "$WORK/approved$i.err" || { show "approved$i"; fail "approved command $i"; }
done

step "exec: a denied one does not (exit 4)"
run_exec denied --approve never "bash: touch denied.txt"
[ "$RC" = 4 ] && [ ! -e "$WORK/proj/denied.txt" ] || { show denied; fail "denied command: exit $RC, want 4, nothing done"; }

step "exec: an approved edit changes the file, and the session keeps its diff"
printf 'a\nb\nc\nport = 1\nd\n' >"$WORK/proj/conf.txt"
run_exec edited --approve always "edit: conf.txt port = 1 => port = 2"
[ "$RC" = 0 ] && grep -q 'The edit was made' "$WORK/edited.out" && grep -q 'port = 2' "$WORK/proj/conf.txt" ||
	{ show edited; fail "approved edit: $(cat "$WORK/proj/conf.txt")"; }
"$BIN" export "$URL" "$(sid edited)" --format json | tr -d ' \n' >"$WORK/edited.json"
grep -q '"type":"fileEdit"' "$WORK/edited.json" && grep -q '"diff":{"added":1,"removed":1}' "$WORK/edited.json" ||
	{ show edited; fail "the edit's tool call has no diff (+1 -1): $(head -c 2000 "$WORK/edited.json")"; }

step "exec: cancel (exit 130), then two prompts in the same session, each answered"
"$BIN" exec "$URL" --agent "$AGENT" --cwd "$WORK/proj" --timeout 120s "slow please" >"$WORK/cancel.out" 2>"$WORK/cancel.err" </dev/null &
EXEC_PID=$!
for _ in $(seq 900); do grep -q 'word3 ' "$WORK/cancel.out" 2>/dev/null && break; sleep 0.1; done
grep -q 'word3 ' "$WORK/cancel.out" || { RC=running; show cancel; fail "the slow answer did not stream"; }
kill -INT "$EXEC_PID"
set +e
wait "$EXEC_PID"
RC=$?
set -e
[ "$RC" = 130 ] || { show cancel; fail "cancel: exit $RC, want 130"; }
CSID=$(sid cancel)
run_exec after --session "$CSID" "hello again"
[ "$RC" = 0 ] && grep -q 'You said: hello again' "$WORK/after.out" || { show after; fail "no answer after the cancel"; }
run_exec after2 --session "$CSID" "and once more"
[ "$RC" = 0 ] && grep -q 'You said: and once more' "$WORK/after2.out" || { show after2; fail "the next answer is not its own"; }

step "exec: !cmd runs on the host, and its output goes with the next prompt"
run_exec shell --session "$CSID" "!echo printed-by-the-shell > shell.txt; echo printed-by-the-shell"
[ "$RC" = 0 ] && [ -e "$WORK/proj/shell.txt" ] || { show shell; fail "!cmd"; }
run_exec aftershell --session "$CSID" "hello after the shell"
[ "$RC" = 0 ] && grep -rlq 'printed-by-the-shell' "$WORK/requests" || { show aftershell; fail "the shell's output did not reach the model"; }

kill -TERM "$SERVE_PID"
for _ in $(seq 100); do kill -0 "$SERVE_PID" 2>/dev/null || break; sleep 0.1; done
SERVE_PID=
echo "PASS"
