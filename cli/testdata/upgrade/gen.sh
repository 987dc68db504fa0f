#!/usr/bin/env bash
# Makes an upgrade fixture for cli's TestServeOpensAnEarlierBuildsState:
# the state database a given ahptui build leaves when it is killed with -9
# mid-reply, and a manifest of what the test must find in it. Run it with
# the build whose layout is to stay readable (before changing the layout),
# and commit both files:
#
#   go build -o /tmp/ahptui-old . && cli/testdata/upgrade/gen.sh /tmp/ahptui-old COMMIT
#
# writes cli/testdata/upgrade/state-COMMIT.db.gz and state-COMMIT.json.
# Needs tmux (a private server) and python3.
set -euo pipefail
BIN=$1
NAME=$2
OUT=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
SOCK=ahptui-upgrade-gen-$$
ADDR=127.0.0.1:$((40000 + $$ % 20000))
URL=ws://$ADDR
export XDG_STATE_HOME=$WORK/xdg XDG_CONFIG_HOME=$WORK/cfg AHPTUI_CONFIG= AHPTUI_TOKEN= NO_COLOR=1
TM() { env -u TMUX tmux -L "$SOCK" "$@"; }
SERVE=
cleanup() {
	TM kill-server 2>/dev/null || true
	[ -n "$SERVE" ] && kill -9 "$SERVE" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
wait_screen() { # pattern
	for _ in $(seq 300); do
		TM capture-pane -p -t g | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	echo "gen: timed out waiting for $1" >&2
	TM capture-pane -p -t g >&2
	exit 1
}
wait_gone() { # pattern
	for _ in $(seq 300); do
		TM capture-pane -p -t g | grep -qE -- "$1" || return 0
		sleep 0.1
	done
	echo "gen: timed out waiting for $1 to go" >&2
	exit 1
}
session_of() { sed -n 's/^ahptui: session //p' "$1"; }

mkdir -p "$WORK/state" "$WORK/proj"
echo "# upgrade fixture" >"$WORK/proj/README.md"
printf 'package main\n\nfunc main() {}\n' >"$WORK/proj/main.go"
cd "$WORK/proj"
"$BIN" serve --addr "$ADDR" --token tok-up --state-dir "$WORK/state" --dir "$WORK/proj" --pace 4ms >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE=$!
for _ in $(seq 100); do [ -s "$WORK/serve.out" ] && break; sleep 0.1; done

"$BIN" exec "$URL" --token tok-up "Explain the project layout" >/dev/null 2>"$WORK/e1.err"
LAYOUT=$(session_of "$WORK/e1.err")
"$BIN" exec "$URL" --token tok-up --session "$LAYOUT" --approve always "/demo edit" >/dev/null 2>&1
"$BIN" exec "$URL" --token tok-up --session "$LAYOUT" --approve always "/demo tools" >/dev/null 2>&1
"$BIN" exec "$URL" --token tok-up --approve never "/demo tools" >/dev/null 2>"$WORK/e2.err" || true
DENIED=$(session_of "$WORK/e2.err")

# The TUI: review a file and comment on it, rename the denied session.
TM new-session -d -s g -x 120 -y 40 "$BIN $URL --token tok-up; sleep 600"
wait_screen 'Sessions'
TM send-keys -t g -l "Explain the project"
wait_screen '› .* Explain the project layout'
TM send-keys -t g Enter
wait_screen 'Shall I start|Nothing was written'
TM send-keys -t g F6
wait_screen '0 reviewed'
TM send-keys -t g Space
wait_screen '1 reviewed'
TM send-keys -t g m
wait_screen 'Comment on'
sleep 1
TM send-keys -t g -l "Upgrade fixture comment on main.go"
TM send-keys -t g Enter
wait_screen 'user: Upgrade fixture comment'
TM send-keys -t g Escape
wait_gone 'Changes +5 files'
TM send-keys -t g C-s
wait_screen 'filter ›'
TM send-keys -t g -l "/demo tools"
wait_screen '› .* /demo tools'
TM send-keys -t g F2
wait_screen 'Rename session'
sleep 1 # a new prompt ignores keys for a moment (its key guard)
for _ in $(seq 12); do TM send-keys -t g BSpace; done
TM send-keys -t g -l "Denied tools (renamed)"
TM send-keys -t g Enter
wait_screen 'no session matches' # renamed: the filter no longer matches it
TM send-keys -t g C-c
sleep 0.5
"$BIN" sessions "$URL" --token tok-up --json >"$WORK/sessions.json"

# A reply killed mid-stream with the host.
"$BIN" exec "$URL" --token tok-up "/demo slow 200" >"$WORK/slow.out" 2>"$WORK/slow.err" &
EXEC=$!
for _ in $(seq 300); do grep -q "line 40 of 200" "$WORK/slow.out" 2>/dev/null && break; sleep 0.05; done
kill -9 "$SERVE"
SERVE=
kill "$EXEC" 2>/dev/null || true # it would wait for the host to come back
wait "$EXEC" 2>/dev/null || true
SLOW=$(session_of "$WORK/slow.err")
LAST=$(grep -o 'line [0-9]* of 200' "$WORK/slow.out" | tail -1 | awk '{print $2}')

gzip -9 -c "$WORK/state/state.db" >"$OUT/state-$NAME.db.gz"
python3 - "$WORK/sessions.json" "$LAYOUT" "$DENIED" "$SLOW" "$LAST" "$OUT/state-$NAME.json" <<'EOF'
import json, sys
sessions, layout, denied, slow, last, out = sys.argv[1:]
mod, title = {}, {}
for line in open(sessions):
    s = json.loads(line)
    mod[s["resource"].split(":/", 1)[1]] = s["modifiedAt"]
    title[s["resource"].split(":/", 1)[1]] = s["title"]
if title[denied] != "Denied tools (renamed)":
    sys.exit("gen: the rename did not take: " + title[denied])
json.dump({"layout": layout, "layoutModifiedAt": mod[layout], "denied": denied, "deniedModifiedAt": mod[denied],
           "slow": slow, "slowLastLine": int(last)}, open(out, "w"), indent=1)
open(out, "a").write("\n")
EOF
echo "gen: wrote $OUT/state-$NAME.db.gz ($(wc -c <"$OUT/state-$NAME.db.gz") bytes) and state-$NAME.json"
