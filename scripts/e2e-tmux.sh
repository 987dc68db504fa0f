#!/usr/bin/env bash
# End-to-end test of `ahptui demo` in a real terminal, driven through tmux.
#
#   scripts/e2e-tmux.sh            build ./ahptui and run the scenario
#   AHPTUI_BIN=/path/to/ahptui scripts/e2e-tmux.sh   use a prebuilt binary
#   E2E_WORKDIR=/some/empty/dir  work there and keep it afterwards (the caller
#                cleans up): the app's log is state/ahptui/ahptui.log and the
#                last screen captured by a wait is last-screen.txt
#
# Scenario: open into a new chat, create a session through the form, send a prompt and see the streamed answer,
# expand the thinking block, approve the tool calls of `/demo tools`, cancel
# `/demo slow`, drop the connection with the demo fault key (F12, enabled by
# AHPTUI_DEMO_FAULTS=1) and see Reconnecting → Connected with the transcript
# intact, watch `/demo shell` stream a terminal into the transcript, open
# the host's terminals (F7), open the changes view of `/demo edit` (F6),
# show a diff and mark a file reviewed, then quit. Every wait polls the screen with a timeout (no fixed
# sleeps); the private tmux server is killed by the EXIT trap.
# Needs: tmux, go (unless AHPTUI_BIN is set). Exit status 0 = pass.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib/tmux-screen.sh" # e2e_workdir, snap, screen, wait_for, wait_gone, keys, type_text, step, fail
e2e_workdir e2e
export TMUX_TMPDIR="$WORK/tmux"
# tmux prefers the server named by $TMUX (the one this may run inside) to
# TMUX_TMPDIR: unset, every tmux command below (kill-server included)
# reaches only this run's private server.
unset TMUX TMUX_PANE
mkdir -p "$TMUX_TMPDIR" "$WORK/proj" "$WORK/state"
S=e2e
TIMEOUT=${E2E_TIMEOUT:-20}

cleanup() {
	tmux kill-server 2>/dev/null || true
	[ -n "$KEEP_WORK" ] || rm -rf "$WORK"
}
trap cleanup EXIT

BIN=$(ahptui_bin)

# A small, deterministic project for the demo agent to look at.
printf '# e2e project\n\nA fixture for the ahptui end-to-end test.\n' >"$WORK/proj/README.md"
printf 'module example.com/e2e\n\ngo 1.26\n' >"$WORK/proj/go.mod"


tmux new-session -d -s "$S" -x 120 -y 40 \
	-e TERM=xterm-256color -e HOME="$WORK" -e XDG_STATE_HOME="$WORK/state" \
	-e AHPTUI_DEMO_FAULTS=1 -e AHPTUI_DEMO_PACE=5ms
tmux set-option -t "$S" remain-on-exit on
tmux respawn-pane -k -t "$S" "cd '$WORK/proj' && '$BIN' demo; echo EXIT=\$?"

step "the demo opens straight into a new chat"
wait_for 'No messages yet'
wait_for '/demo help lists what the demo can show'
wait_for '● Connected'

step "create a session through the session form (ctrl+n from the chat)"
keys C-n
wait_for '│ +New session'
wait_for '‹ Demo 1 \(scripted\) ›'
# Choose the second mode, then back to Agent (↑/↓ change a value).
keys Tab Tab Down
wait_for '‹ Plan ›'
keys Up
wait_for '‹ Agent ›'
keys Enter
wait_for 'Message…'
# The session's model and mode are in the status line before any turn.
wait_for '● Connected │ .* │ Demo 1 \(scripted\) │ Agent mode'

step "send a prompt, see the streamed answer"
type_text 'hello from the e2e test'
keys Enter
wait_for 'hello from the e2e test'
wait_for 'scripted ahptui demo agent'
# The answer's last line can show before the turn ends: wait for the idle
# hint (it shows only when no turn runs and the composer has focus).
wait_for 'tab transcript'

step "expand the thinking block"
keys Tab
keys g
wait_for 'Thought (for|briefly)' # collapsed header of the finished thinking block
keys ']' ']'
keys Enter
wait_for 'Before answering I should look at the working directory'
keys Tab

step "approve the tools of /demo tools"
type_text '/demo tools'
keys Enter
# Each wait matches a line inside the prompt's box ("│ "): the transcript
# behind it shows the same texts, and a key sent before the box is up would
# land in the composer. A prompt that opens while the user is typing ignores
# keys for a moment (so typed letters are not taken as decisions): wait until
# it says so no more.
wait_for '│ +Apply this edit'
wait_gone 'you were typing'
keys a
wait_for '│ \? Run command .*waiting for approval'
wait_gone 'you were typing'
keys a
wait_for '│ +Review the result'
wait_gone 'you were typing'
keys a
wait_for 'output accepted'
wait_gone '⚠ [0-9]+ waiting for you'

step "answer /demo input: typing replaces a default, an empty field submits it"
type_text '/demo input'
keys Enter
# The defaults show as placeholders inside the form's box.
wait_for '│ +› my-project'
type_text 'ahp-tool'
wait_for '│ +› ahp-tool'
on_screen 'ahp-toolmy-project|my-projectahp-tool' && fail "typing did not replace the default"
# Time budget (left empty: default 8), tests, language (Go), features: submit.
keys Enter Enter Enter Enter Enter
wait_for "scaffold .?ahp-tool.? with those settings"
wait_for 'Time budget +│ +8( |$)'
wait_for 'tab transcript'

step "cancel /demo slow"
# Not "/demo slow": the popup offers "/demo slow 40", and when it opened
# before the Enter (a loaded machine) Enter took the completion instead of
# sending. "200" matches no item: no popup.
type_text '/demo slow 200'
keys Enter
wait_for 'line [0-9]+ of 200'
keys Escape
wait_for 'Cancelled'
wait_for 'tab transcript'

step "completions: @ files of the working directory, / demo commands"
type_text 'summarise @READ'
wait_for '▸ @README.md'
keys Tab
wait_for '┃ summarise @README.md'
wait_gone '▸ @README.md'
keys C-u
type_text '/demo sl'
wait_for '▸ /demo slow 40'
keys Escape
wait_gone '▸ /demo slow 40'
keys C-u

step "steer /demo slow mid-turn, then ask it to stop"
type_text '/demo slow 400'
keys Enter
wait_for 'line [0-9]+ of 400'
wait_for 'alt\+enter steers'
type_text 'focus on the tests'
keys M-Enter
wait_for 'Steering received:.*focus on the tests'
type_text 'please stop now'
keys M-Enter
wait_for 'stopping here'
wait_for 'tab transcript'

step "search the transcript"
keys C-f
wait_for 'search ›'
type_text 'Steering received'
wait_for '[0-9]+/[0-9]+ · enter next'
keys Escape
wait_gone 'search ›'

step "subagent and background work"
type_text '/demo subagent'
keys Enter
wait_for '⚙ [0-9] running'
keys F3
wait_for 'Subagent: file survey \(subagent\)'
keys Down Enter
wait_for "a subagent's chat"
wait_for 'Survey the files'
keys M-p
wait_for 'all tests passed' 30
wait_for 'tab transcript'

step "sign in when a tool needs it (/demo auth)"
type_text '/demo auth'
keys Enter
wait_for '│ +Sign-in needed'
wait_gone 'you were typing'
keys s
wait_for '│ +Sign in to Demo API'
type_text 'e2e-secret-token'
on_screen 'e2e-secret-token' && fail "the token is shown on screen"
keys Enter
wait_for 'Signed in\. The Demo API says'
wait_for 'tab transcript'
grep -q 'e2e-secret-token' "$WORK/state/ahptui/ahptui.log" && fail "the token reached the log"

step "drop the connection (F12), see Reconnecting → Connected"
keys F12
# The demo host refuses connections for 2s: long enough to see the state,
# the countdown to the next attempt and the reconnect key in the hint (all
# on the same captured screen).
wait_for 'f5 reconnect now'
grep -qE 'Reconnecting [0-9]+ · (next try in [0-9]+|trying now)' "$WORK/last-screen.txt" ||
	fail "no reconnect countdown next to the reconnect key"
wait_for '● Connected' 30

step "the transcript is intact and the chat still works"
on_screen 'Demo API says' || fail "transcript lost its last turn after reconnecting"
# The answer ends with the "scripted … demo agent" line, which is out of
# view now; once it shows and the hint is idle again, the turn is over (a
# screen captured before the Enter was handled shows the idle hint too).
on_screen 'scripted ahptui demo agent' && fail "the last answer's end is still on screen"
type_text 'after the reconnect'
keys Enter
wait_for 'scripted ahptui demo agent' 30
wait_for 'tab transcript' 30
keys Tab
keys g
wait_for 'hello from the e2e test'
keys Tab

step "/demo shell: a running terminal streams into the transcript"
type_text '/demo shell'
keys Enter
# While the scripted terminal runs, its header says so and its last lines
# show under the tool call (collapsed view), on the same screen.
wait_for '\$ bash +● running'
grep -qE 'building|demo@ahptui|^ +[0-9]+ *$' "$WORK/last-screen.txt" ||
	fail "no terminal output under the running terminal"
wait_for '✗ go test \./\.\.\. +exit 1'
wait_for '\$ bash +exit 1'
on_screen '✓ \./build\.sh +exit 0' || fail "the build command's own status is missing"
wait_for 'tab transcript'

step "the host's terminals open in a viewer (f7)"
keys F7
wait_for 'tab next · ↑/↓ pgup/pgdn'
wait_for '--- FAIL'
keys Escape
wait_gone 'tab next · ↑/↓ pgup/pgdn'

step "/demo edit: the changes view opens, a diff is shown, a file is marked reviewed"
type_text '/demo edit'
keys Enter
wait_for 'Edited 5 files'
wait_for 'tab transcript'
keys F6
wait_for 'Changes +5 files'
wait_for '\[ \] M cmd/app/main\.go +\+4 −2'
wait_for '\[ \] M testdata/large\.tsv +\+20 −20'
keys Enter
wait_for '@@ -'
wait_for 'not reviewed · space toggles'
keys Space
wait_for 'main\.go +reviewed · space toggles'
keys Escape
wait_for '\[✓\] M cmd/app/main\.go'
wait_for '1 reviewed'
keys Escape
wait_gone 'Changes +5 files'

step "rename and archive the session in the picker"
keys C-s
wait_for 'Sessions'
keys F2
wait_for '│ +Rename session'
keys C-u
type_text 'e2e renamed'
keys Enter
wait_for '› .*e2e renamed'
keys M-a
wait_for 'Sessions  1 · 1 archived'
keys M-h
wait_for 'e2e renamed \[archived\]'

step "quit"
keys C-c
SCROLLBACK=1 wait_for 'EXIT=0'
echo "PASS"
