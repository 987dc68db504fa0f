# Helpers shared by the tmux scripts (end-to-end tests and measurements;
# sourced, not run). The caller sets ROOT (the repository), S (the tmux
# session), WORK (a directory kept for post-mortems; e2e_workdir below
# sets it) and TIMEOUT (seconds a wait may take by default); POLL is how
# often a wait looks (seconds).
POLL=${POLL:-0.1}

# The tmux commands of a script reach only its private server (under its
# TMUX_TMPDIR), never the one it may run inside: tmux prefers $TMUX.
unset TMUX TMUX_PANE

# e2e_workdir NAME sets WORK and KEEP_WORK: $E2E_WORKDIR, kept after the
# run (KEEP_WORK=1), or a new ahptui-NAME.XXXXXX under $TMPDIR that the
# caller's cleanup removes (KEEP_WORK empty).
e2e_workdir() {
	if [ -n "${E2E_WORKDIR:-}" ]; then
		WORK=$E2E_WORKDIR
		KEEP_WORK=1
	else
		WORK=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-$1.XXXXXX")
		KEEP_WORK=
	fi
}

# ahptui_bin prints the binary to run: $AHPTUI_BIN, or ./ahptui built
# into $WORK.
ahptui_bin() {
	if [ -n "${AHPTUI_BIN:-}" ]; then
		echo "$AHPTUI_BIN"
		return
	fi
	(cd "$ROOT" && go build -o "$WORK/ahptui" .) >&2
	echo "$WORK/ahptui"
}

# echoprobe_bin prints the keystroke-echo probe to run: $ECHOPROBE_BIN, or
# internal/tmuxctl/cmd/echoprobe built into $WORK. It types and polls
# through one tmux control client, so the probe adds ~1 ms, not a fork and
# exec per poll.
echoprobe_bin() {
	if [ -n "${ECHOPROBE_BIN:-}" ]; then
		echo "$ECHOPROBE_BIN"
		return
	fi
	(cd "$ROOT" && go build -o "$WORK/echoprobe" ./internal/tmuxctl/cmd/echoprobe) >&2
	echo "$WORK/echoprobe"
}
#
# snap captures the pane into $WORK/last-screen.txt; screen prints it.
# Matching greps the file, not a pipe: under pipefail a grep -q that stops
# reading early could fail the writer with SIGPIPE. SCROLLBACK=1 captures
# the last 200 lines of scrollback too.
snap() { tmux capture-pane -p -t "$S" ${SCROLLBACK:+-S -200} >"$WORK/last-screen.txt"; }
screen() { snap && cat "$WORK/last-screen.txt"; }
on_screen() { snap && grep -qE -- "$1" "$WORK/last-screen.txt"; }

# fail MESSAGE: report, show the screen with scrollback, exit 1.
fail() {
	echo "FAIL: $*" >&2
	echo "----- screen (with scrollback) -----" >&2
	SCROLLBACK=1 screen >&2 || true
	echo "------------------------------------" >&2
	exit 1
}

# wait_for REGEX [SECONDS]: poll the screen until REGEX matches.
wait_for() {
	local pat=$1 limit=${2:-$TIMEOUT}
	local deadline=$((SECONDS + limit))
	while ((SECONDS < deadline)); do
		if on_screen "$pat"; then
			return 0
		fi
		sleep "$POLL"
	done
	fail "timed out after ${limit}s waiting for: $pat"
}

# wait_gone REGEX [SECONDS]: poll until REGEX no longer matches.
wait_gone() {
	local pat=$1 limit=${2:-$TIMEOUT}
	local deadline=$((SECONDS + limit))
	while ((SECONDS < deadline)); do
		if snap && ! grep -qE -- "$pat" "$WORK/last-screen.txt"; then
			return 0
		fi
		sleep "$POLL"
	done
	fail "timed out after ${limit}s waiting for this to disappear: $pat"
}

keys() { tmux send-keys -t "$S" "$@"; }
type_text() { tmux send-keys -t "$S" -l "$1"; }
step() { echo "--- $*"; }
