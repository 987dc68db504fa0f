#!/usr/bin/env bash
# Checks the release configuration with the pinned goreleaser and builds a
# snapshot of one target (this machine's), then runs its --version.
#
#   scripts/release-check.sh
#
# goreleaser is installed once into $AHPTUI_CI_CACHE (default
# ~/.cache/ahptui-ci) and reused: the first run takes a few minutes (it
# compiles goreleaser), later runs seconds. v2.16.0 is pinned: newer
# releases need a newer Go or modules the proxy refuses (docs: TECH.md).
set -euo pipefail
cd "$(dirname "$0")/.."

GORELEASER_VERSION=v2.16.0
CACHE=${AHPTUI_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ahptui-ci}
BIN="$CACHE/goreleaser-$GORELEASER_VERSION"
if [ ! -x "$BIN/goreleaser" ]; then
	mkdir -p "$BIN"
	echo "release-check: installing goreleaser $GORELEASER_VERSION into $BIN (once)"
	GOBIN="$BIN" GOFLAGS= go install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION"
fi
GR="$BIN/goreleaser"

"$GR" check
DIST=$(mktemp -d "${TMPDIR:-/tmp}/ahptui-dist.XXXXXX")
trap 'rm -rf "$DIST"' EXIT
# goreleaser wants dist inside the project: build there, then move it away.
rm -rf dist
"$GR" build --snapshot --clean --single-target --output "$DIST/ahptui"
rm -rf dist
"$DIST/ahptui" --version | tee "$DIST/version.txt"
grep -q 'snapshot' "$DIST/version.txt"
grep -q 'built ' "$DIST/version.txt"
# goreleaser reads the commit from git; it cannot in a linked worktree (.git is a file).
if [ -d .git ]; then grep -q 'commit ' "$DIST/version.txt"; fi
echo "release-check: ok"
