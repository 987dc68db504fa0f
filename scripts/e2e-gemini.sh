#!/usr/bin/env bash
# End-to-end test with a second real ACP agent: Gemini CLI (`gemini --acp`,
# @google/gemini-cli pinned) behind `ahptui serve --agent`, talking to the
# project's mock of the Gemini API (internal/mockgemini) on loopback: no
# network but npm's registry, no account. Runs beside e2e-real-agent.sh
# (Claude Code) in CI.
#
#   scripts/e2e-gemini.sh            build ./ahptui and run everything
#   AHPTUI_BIN=/path/to/ahptui scripts/e2e-gemini.sh
#   E2E_WORKDIR=DIR                  work there and keep it (mock.log,
#                                    serve.err, requests/)
#
# Gemini CLI is npm-installed once into $AHPTUI_CI_CACHE (default
# ~/.cache/ahptui-ci). Checks, through `ahptui exec`: an answer, an
# approved shell command that creates a file, a denied one that does not
# (exit 4), an approved edit (Gemini's replace) that changes the file, a
# cancel (exit 130) and then two prompts in the same session answered in
# order, `!cmd` run on the host and its output in the next prompt. Skips
# (exit 0) only when npm is not installed. Needs Node ≥ 20.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PKG=@google/gemini-cli
VERSION=0.61.0

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "e2e-gemini: SKIP: npm/node not installed (the test needs $PKG@$VERSION from npm)"
	exit 0
fi
CACHE=${AHPTUI_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ahptui-ci}
GDIR="$CACHE/gemini-cli-$VERSION"
GEMINI="$GDIR/node_modules/$PKG/bundle/gemini.js"
installed_version() { node -p "require('$GDIR/node_modules/$PKG/package.json').version" 2>/dev/null || true; }
if [ "$(installed_version)" != "$VERSION" ]; then
	echo "e2e-gemini: installing $PKG@$VERSION into $GDIR (once)"
	mkdir -p "$GDIR"
	npm install --prefix "$GDIR" --no-audit --no-fund --loglevel=error "$PKG@$VERSION" >&2
	[ "$(installed_version)" = "$VERSION" ] || { echo "e2e-gemini: npm did not install $VERSION" >&2; exit 1; }
fi

. "$(dirname "$0")/lib/tmux-screen.sh" # e2e_workdir, step, fail, ahptui_bin
e2e_workdir gemini
mkdir -p "$WORK/proj" "$WORK/state" "$WORK/home/.gemini" "$WORK/requests"
MOCK_PID= SERVE_PID=
cleanup() {
	[ -n "$SERVE_PID" ] && kill -- "-$SERVE_PID" 2>/dev/null || true
	[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null || true
	[ -n "$KEEP_WORK" ] || rm -rf "$WORK"
}
trap cleanup EXIT
if command -v go >/dev/null 2>&1; then
	GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
	export GOCACHE GOMODCACHE GOPATH
fi

step "start the mock Gemini API on loopback"
(cd "$ROOT" && go build -o "$WORK/mockgemini" ./internal/mockgemini/cmd/mockgemini)
"$WORK/mockgemini" -url-file "$WORK/mock.url" -dump "$WORK/requests" >"$WORK/mock.log" 2>&1 &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$WORK/mock.url" ] && break; sleep 0.1; done
MOCK_URL=$(cat "$WORK/mock.url")
[ -n "$MOCK_URL" ] || fail "the mock did not start"

# The agent inherits this environment from the host: an API key sign-in
# against the mock, no relaunch, a HOME of its own.
echo '{"security":{"auth":{"selectedType":"gemini-api-key"}}}' >"$WORK/home/.gemini/settings.json"
export GOOGLE_GEMINI_BASE_URL="$MOCK_URL" GEMINI_API_KEY=dummy GEMINI_CLI_NO_RELAUNCH=true HOME="$WORK/home" XDG_STATE_HOME="$WORK/state"

BIN=$(ahptui_bin)
step "serve --agent gemini='node gemini.js --acp' on loopback"
TOKEN=e2e-gemini-$$
setsid "$BIN" serve --addr 127.0.0.1:0 --token "$TOKEN" --dir "$WORK/proj" --pace 0 \
	--agent "gemini=node '$GEMINI' --acp" >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE_PID=$!
for _ in $(seq 200); do [ -s "$WORK/serve.out" ] && break; sleep 0.1; done
URL=$(head -n1 "$WORK/serve.out")
[ -n "$URL" ] || { cat "$WORK/serve.err" >&2; fail "serve printed no URL"; }

run_exec() {
	local name=$1
	shift
	set +e
	"$BIN" exec "$URL" --agent gemini --cwd "$WORK/proj" --timeout "${EXEC_TIMEOUT:-120s}" "$@" \
		>"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
	RC=$?
	set -e
}
show() { echo "--- $1: exit $RC; stdout:" >&2; cat "$WORK/$1.out" >&2; echo "--- stderr:" >&2; cat "$WORK/$1.err" >&2; }
sid() { sed -n 's/^ahptui: session //p' "$WORK/$1.err" | head -n1; }

step "exec: an answer"
run_exec answer "hello gemini"
[ "$RC" = 0 ] && grep -q 'Hello from the mock. You said: hello gemini' "$WORK/answer.out" || { show answer; fail "no answer"; }

step "exec: an approved shell command creates a file in the working directory"
run_exec approved --approve always "bash: touch approved.txt"
[ "$RC" = 0 ] && grep -q 'The command ran.' "$WORK/approved.out" && [ -e "$WORK/proj/approved.txt" ] || { show approved; fail "approved command"; }

step "exec: a denied one does not (exit 4)"
run_exec denied --approve never "bash: touch denied.txt"
[ "$RC" = 4 ] && [ ! -e "$WORK/proj/denied.txt" ] || { show denied; fail "denied command: exit $RC, want 4, nothing done"; }

step "exec: an approved edit (replace) changes the file"
printf 'a\nb\nc\nport = 1\nd\n' >"$WORK/proj/conf.txt"
run_exec edited --approve always "edit: conf.txt port = 1 => port = 2"
[ "$RC" = 0 ] && grep -q 'The edit was made' "$WORK/edited.out" && grep -q 'port = 2' "$WORK/proj/conf.txt" ||
	{ show edited; fail "approved edit: $(cat "$WORK/proj/conf.txt")"; }

step "exec: cancel (exit 130), then two prompts in the same session, each answered"
"$BIN" exec "$URL" --agent gemini --cwd "$WORK/proj" --timeout 120s "slow please" >"$WORK/cancel.out" 2>"$WORK/cancel.err" </dev/null &
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
