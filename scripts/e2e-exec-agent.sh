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
# and its output in the next prompt. Then the host restarts (issue 28):
# SIGTERM and a start on the same address, token and state directory,
# after which every session exports (markdown and JSON) as before (the
# edit's diff, the denial); a prompt into a restored session re-binds the
# agent's session (session/resume, else session/load: the host's log says
# which), gets exactly its own answer, the model gets the earlier
# conversation once, the export gains only the new turn; kill -9 of the
# host while a reply streams keeps what the client had of it, marked
# interrupted, and the session answers the next prompt; no agent outlives
# its host. Skips (exit 0) only when npm is not installed.
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
	if [ -n "${E2E_AGENT_MARK:-}" ]; then
		for p in $(marked); do kill -9 "$p" 2>/dev/null || true; done
	fi
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
# The host and the agents it starts carry this mark in their environment:
# they are found by it (no agent may outlive its host).
E2E_AGENT_MARK="exec-$AGENT-$$-$RANDOM"
marked() {
	grep -lzxF "E2E_AGENT_MARK=$E2E_AGENT_MARK" /proc/[0-9]*/environ 2>/dev/null | sed 's,^/proc/,,; s,/environ$,,' || true
}
# start_serve: `serve --agent` on loopback, its state in $XDG_STATE_HOME;
# the first on a free port, a restart on the same address and token.
# Sets SERVE_PID, URL.
TOKEN=e2e-$AGENT-$$
ADDR=127.0.0.1:0
start_serve() {
	: >"$WORK/serve.out"
	setsid env E2E_AGENT_MARK="$E2E_AGENT_MARK" "$BIN" serve --addr "$ADDR" --token "$TOKEN" --dir "$WORK/proj" --pace 0 \
		--agent "$AGENT=$AGENT_CMD" >"$WORK/serve.out" 2>>"$WORK/serve.err" &
	SERVE_PID=$!
	for _ in $(seq 200); do [ -s "$WORK/serve.out" ] && break; sleep 0.1; done
	URL=$(head -n1 "$WORK/serve.out")
	[ -n "$URL" ] || { cat "$WORK/serve.err" >&2; fail "serve printed no URL"; }
	ADDR=${URL#ws://}
	ADDR=${ADDR%%\?*}
}
# stop_serve [SIGNAL]: stop the host (TERM, or KILL); no agent process
# may be left.
stop_serve() {
	kill "-${1:-TERM}" "$SERVE_PID"
	{ # (bash would report a KILL)
		for _ in $(seq 100); do kill -0 "$SERVE_PID" || break; sleep 0.1; done
		kill -0 "$SERVE_PID" || wait "$SERVE_PID"
	} 2>/dev/null || true
	kill -0 "$SERVE_PID" 2>/dev/null && fail "serve did not exit on SIG${1:-TERM}"
	SERVE_PID=
	local left=
	for _ in $(seq 50); do
		left=$(marked)
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -z "$left" ] || fail "the host left agent processes running: $(ps -o pid,args -p "$(echo $left | tr ' ' ,)" 2>/dev/null)"
}
step "serve --agent $AGENT on loopback"
start_serve

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

# age_sessions: Gemini CLI 0.61 cannot load a session in the minute it
# created it (the new record it starts for the session takes the same file
# name, session-MINUTE-ID.jsonl, and hides the conversation); the host then
# goes on in a fresh agent session, saying so (Go test
# TestDurableHostAgentLostSession). While no agent runs, its files are
# renamed as if made long before, as a restart a minute later finds them.
age_sessions() {
	[ "$AGENT" = gemini ] || return 0
	local f b
	for f in "$WORK"/home/.gemini/tmp/proj/chats/session-*; do
		b=${f##*/}
		[ "${b:8:16}" = 2000-01-01T00-00 ] && continue
		mv "$f" "${f%/*}/session-2000-01-01T00-00-${b:25}"
	done
}

# export_all NAME: each session's export, markdown and JSON, as
# $WORK/NAME-{denied,edited,cancel}.{md,json}.
export_all() {
	local label id
	for label in denied edited cancel; do
		id=$(sid "$label")
		"$BIN" export "$URL" "$id" >"$WORK/$1-$label.md" 2>"$WORK/$1-$label.err" &&
			"$BIN" export "$URL" "$id" --format json >"$WORK/$1-$label.json" 2>>"$WORK/$1-$label.err" ||
			fail "export of the $label session ($id): $(cat "$WORK/$1-$label.err")"
	done
}

step "restart (SIGTERM, then the same address, token and state): every session exports as before"
export_all before
grep -q 'denied' "$WORK/before-denied.md" || fail "the denial is not in the export: $(cat "$WORK/before-denied.md")"
stop_serve TERM
age_sessions
start_serve
export_all restarted
for f in denied.md denied.json edited.md edited.json cancel.md cancel.json; do
	cmp -s "$WORK/before-$f" "$WORK/restarted-$f" ||
		fail "the export of $f changed across the restart: $(diff "$WORK/before-$f" "$WORK/restarted-$f" | head -c 3000)"
done
# (So the edit keeps its diff, the denial is still a denial.)
tr -d ' \n' <"$WORK/restarted-edited.json" | grep -q '"diff":{"added":1,"removed":1}' || fail "the edit's diff is gone after the restart"
grep -q '^> tool .*: denied$' "$WORK/restarted-denied.md" && tr -d ' \n' <"$WORK/restarted-denied.json" | grep -q '"status":"cancelled"' ||
	fail "the denial is not a denial after the restart: $(cat "$WORK/restarted-denied.md")"

step "restart: a new prompt in a restored session: the agent answers, no turn is duplicated"
NREQ=$(ls "$WORK/requests" | wc -l)
run_exec restored --session "$CSID" "hello after the restart"
# Exactly its answer: no replayed old reply before it.
[ "$RC" = 0 ] && [ "$(cat "$WORK/restored.out")" = "Hello from the mock. You said: hello after the restart" ] ||
	{ show restored; fail "the answer in the restored session is not (only) its own"; }
REBOUND=$(sed -n 's/.*msg="agent session re-bound".* method=\([^ ]*\).*/\1/p' "$WORK/serve.err" | tail -n1)
echo "the agent's session was re-bound with ${REBOUND:-nothing: a fresh session}"
[ -n "$REBOUND" ] || fail "the agent could not resume its session: $(grep -E 'session/(load|resume) failed' "$WORK/serve.err" | head -c 2000)"
# The export: the old turns as they were, then the new one, nothing else.
"$BIN" export "$URL" "$CSID" >"$WORK/after-cancel.md"
SIZE=$(wc -c <"$WORK/before-cancel.md")
head -c "$SIZE" "$WORK/after-cancel.md" | cmp -s - "$WORK/before-cancel.md" && tail -c +"$((SIZE + 1))" "$WORK/after-cancel.md" >"$WORK/after-cancel-new.md" &&
	[ "$(grep -c '^## You$' "$WORK/after-cancel-new.md")" = 1 ] && grep -q '^hello after the restart$' "$WORK/after-cancel-new.md" ||
	fail "the export after a new prompt is not the old turns and the new one: $(diff "$WORK/before-cancel.md" "$WORK/after-cancel.md" | head -c 3000)"
# The model's first request for the new prompt holds the earlier
# conversation (the agent's own memory of it), its answers once each.
REQ=
for f in $(ls "$WORK/requests" | tail -n +"$((NREQ + 1))"); do
	grep -q 'hello after the restart' "$WORK/requests/$f" && REQ="$WORK/requests/$f" && break
done
[ -n "$REQ" ] || fail "no request to the model has the new prompt"
n=$(grep -o 'You said: and once more' "$REQ" | wc -l)
[ "$n" = 1 ] || fail "the model's request after the restart has the earlier answer $n times, want 1: $REQ"

step "kill -9 of the host while a reply streams: the turn keeps what streamed, marked interrupted"
"$BIN" exec "$URL" --agent "$AGENT" --cwd "$WORK/proj" --timeout 120s "slow please" >"$WORK/killed.out" 2>"$WORK/killed.err" </dev/null &
EXEC_PID=$!
for _ in $(seq 900); do grep -q 'word3 ' "$WORK/killed.out" 2>/dev/null && break; sleep 0.1; done
grep -q 'word3 ' "$WORK/killed.out" || { RC=running; show killed; fail "the slow answer did not stream"; }
KSID=$(sid killed)
stop_serve KILL
kill "$EXEC_PID" 2>/dev/null || true
wait "$EXEC_PID" 2>/dev/null || true
age_sessions
start_serve
"$BIN" export "$URL" "$KSID" >"$WORK/killed.md" || fail "export after kill -9"
LAST=$(grep -o 'word[0-9]* ' "$WORK/killed.out" | tail -n1) # the last word the client had
grep -q "$LAST" "$WORK/killed.md" && grep -q 'The host stopped while this reply was being written' "$WORK/killed.md" ||
	fail "the interrupted turn (the client had up to $LAST): $(cat "$WORK/killed.md")"
run_exec afterkill --session "$KSID" "hello after the crash"
[ "$RC" = 0 ] && [ "$(cat "$WORK/afterkill.out")" = "Hello from the mock. You said: hello after the crash" ] ||
	{ show afterkill; fail "the answer in the session the crash interrupted is not (only) its own"; }
"$BIN" export "$URL" "$KSID" >"$WORK/afterkill.md"
SIZE=$(wc -c <"$WORK/killed.md")
head -c "$SIZE" "$WORK/afterkill.md" | cmp -s - "$WORK/killed.md" && [ "$(tail -c +"$((SIZE + 1))" "$WORK/afterkill.md" | grep -c '^## You$')" = 1 ] ||
	fail "the export after a new prompt is not the interrupted turn and the new one: $(diff "$WORK/killed.md" "$WORK/afterkill.md" | head -c 3000)"
REQ=$(cd "$WORK/requests" && grep -l 'hello after the crash' * | head -n1)
[ -n "$REQ" ] && [ "$(grep -o 'slow please' "$WORK/requests/$REQ" | wc -l)" = 1 ] ||
	fail "the model's request after the crash does not have the interrupted prompt once: ${REQ:-none}"

stop_serve TERM
echo "PASS"
