#!/usr/bin/env bash
# End-to-end test of the TUI with a real ACP agent, at 80x24 and 120x40:
#
#   scripts/e2e-tui-agent.sh claude|gemini|opencode|codex [SIZE...]
#
# runs `ahptui --agent AGENT=COMMAND` (the host in-process, a new chat in
# the working directory) in tmux on a private socket, the agent pinned and
# npm-installed once into $AHPTUI_CI_CACHE (scripts/lib/agent-setup.sh),
# against the project's loopback mock of its model API. SIZE is WxH
# (default: 80x24 120x40). At each size: an answer; an @ mention completed
# from the directory's files that reaches the model; a shell command
# approved with `a` that runs; one denied with `d` that does not; one
# denied with a reason (`r`) that reaches the model; an edit whose
# approval prompt and transcript show its diff, approved; a cancel (Esc)
# and then an answer in the same chat; `!cmd` run on the host whose
# output goes with the next prompt; after ctrl+c no agent process is
# left. AHPTUI_BIN=/path/to/ahptui uses a
# built binary; E2E_WORKDIR=DIR works there and keeps it. Skips (exit 0)
# only when npm is not installed. Needs tmux.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
AGENT=${1:?usage: e2e-tui-agent.sh claude|gemini|opencode|codex [WxH...]}
shift
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(80x24 120x40)
. "$(dirname "$0")/lib/agent-setup.sh" # agent_pick, agent_install, keep_go_caches, mock_start, agent_env
agent_pick "$AGENT"
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "e2e-tui-agent: SKIP: npm/node not installed (the test needs $PKG@$VERSION from npm)"
	exit 0
fi
agent_install "$AGENT"

. "$(dirname "$0")/lib/tmux-screen.sh" # e2e_workdir, snap, wait_for, wait_gone, keys, type_text, step, fail
e2e_workdir "tui-$AGENT"
export TMUX_TMPDIR="$WORK/tmux"
unset TMUX TMUX_PANE
mkdir -p "$TMUX_TMPDIR" "$WORK/state"
S=tui
TIMEOUT=${E2E_TIMEOUT:-90}
MOCK_PID=
cleanup() {
	tmux kill-server 2>/dev/null || true
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
export XDG_STATE_HOME="$WORK/state" TERM=xterm-256color
agent_env "$AGENT"
# ahptui and the agents it starts carry this mark in their environment
# (tui.sh below sets it): they are found by it.
E2E_AGENT_MARK="tui-$AGENT-$$-$RANDOM"
BIN=$(ahptui_bin)

# marked lists the processes that carry this run's mark.
marked() {
	local p
	for p in /proc/[0-9]*; do
		{ tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "E2E_AGENT_MARK=$E2E_AGENT_MARK" && echo "${p#/proc/}"
	done
	return 0
}

# requested TEXT: some request the model received holds TEXT.
requested() { grep -rlqF -- "$1" "$WORK/requests"; }

# approve_prompt: the approval for the tool call the screen shows is up
# and takes keys (the typing guard is over).
approve_prompt() {
	wait_for 'd/n deny'
	wait_gone 'you were typing'
}

# idle: the turn ended and the composer is back.
idle() { wait_for 'tab transcript'; }

for size in "${SIZES[@]}"; do
	W=${size%x*} H=${size#*x}
	P="$WORK/proj-$size"
	mkdir -p "$P"
	step "[$size] ahptui --agent $AGENT in tmux"
	printf '#!/usr/bin/env bash\nexport E2E_AGENT_MARK=%q\ncd %q && %q --agent %q\necho EXIT=$?\n' \
		"$E2E_AGENT_MARK" "$P" "$BIN" "$AGENT=$AGENT_CMD" >"$WORK/tui.sh"
	tmux new-session -d -s "$S" -x "$W" -y "$H"
	tmux set-option -t "$S" remain-on-exit on
	tmux respawn-pane -k -t "$S" "bash '$WORK/tui.sh'"
	wait_for 'Message…'

	step "[$size] an answer"
	type_text "hello at $size"
	keys Enter
	wait_for "You said: hello at $size"
	idle

	step "[$size] @ completes a file of the directory; it reaches the model"
	printf 'mentioned\n' >"$P/mention-$W.md"
	type_text "look at @mention-$W"
	wait_for "@mention-$W\.md"
	keys Tab
	keys Enter
	idle
	requested "$P/mention-$W.md" || fail "the mention (its path) did not reach the model"

	step "[$size] allow a shell command (a)"
	type_text "bash: touch approved-$W.txt"
	keys Enter
	approve_prompt
	keys a
	wait_for 'The command ran\.'
	idle
	[ -e "$P/approved-$W.txt" ] || fail "approved-$W.txt was not created"

	step "[$size] deny one (d): nothing done"
	type_text "bash: touch denied-$W.txt"
	keys Enter
	approve_prompt
	keys d
	wait_for "touch denied-$W\.txt.* denied"
	idle
	[ ! -e "$P/denied-$W.txt" ] || fail "denied-$W.txt was created"

	step "[$size] deny with a reason (r): the reason reaches the model"
	type_text "bash: touch reason-$W.txt"
	keys Enter
	approve_prompt
	keys r
	wait_for 'why\?'
	type_text "use printf at $W"
	keys Enter
	wait_for 'Sent to the agent'
	idle
	[ ! -e "$P/reason-$W.txt" ] || fail "reason-$W.txt was created"
	requested "use printf at $W" || fail "the reason did not reach the model"

	step "[$size] an edit: its approval shows the diff, approved, the transcript shows it"
	printf 'a\nb\nc\nd\n[server]\nport = 8080\ndebug = false\n' >"$P/conf-$W.txt"
	type_text "edit: conf-$W.txt port = 8080 => port = 9090"
	keys Enter
	wait_for '-port = 8080'
	wait_for '\+port = 9090'
	approve_prompt
	keys a
	wait_for 'The edit was made\.'
	idle
	wait_for '-port = 8080'
	grep -q 'port = 9090' "$P/conf-$W.txt" || fail "conf-$W.txt was not edited: $(cat "$P/conf-$W.txt")"

	step "[$size] cancel (Esc), then an answer in the same chat"
	type_text "slow at $size"
	keys Enter
	wait_for 'word3 '
	keys Escape
	wait_for 'Cancelled'
	idle
	type_text "after the cancel at $size"
	keys Enter
	wait_for "You said: after the cancel at $size"
	idle

	step "[$size] !cmd runs on the host; its output goes with the next prompt"
	type_text "!echo shell-ran-$W > shell-$W.txt; echo printed-\$((6*7))-$W"
	keys Enter
	wait_for "^ +printed-42-$W" # its output (not in the command's text), under the command
	idle
	[ -e "$P/shell-$W.txt" ] || fail "!cmd did not run in the directory"
	type_text "hello after the shell at $size"
	keys Enter
	wait_for "You said: (I ran|hello after the shell)"
	idle
	requested "printed-42-$W" || fail "the shell's output did not reach the model"

	step "[$size] quit: no agent process is left"
	keys C-c
	SCROLLBACK=1 wait_for 'EXIT=0'
	tmux kill-server 2>/dev/null || true
	left=
	for _ in $(seq 50); do
		left=$(marked)
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -z "$left" ] || fail "processes left after quitting: $(ps -o pid,args -p "${left//$'\n'/,}" 2>/dev/null)"
done
echo "PASS"
