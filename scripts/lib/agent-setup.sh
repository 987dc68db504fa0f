# The real agents the end-to-end scripts drive (e2e-exec-agent.sh,
# e2e-tui-agent.sh; sourced, not run), each pinned, npm-installed once into
# $AHPTUI_CI_CACHE, and pointed at the project's loopback mock of its
# model API (internal/mockllm/cmd/mockllm). (e2e-real-agent.sh installs
# Claude Code's adapter into the same directory.)

# agent_pick AGENT sets PKG, VERSION, API (the mock's -api) and DIR (its
# directory in the cache) for claude, gemini, opencode or codex; anything
# else: exit 2.
agent_pick() {
	case "$1" in
	claude) PKG=@agentclientprotocol/claude-agent-acp VERSION=0.101.0 API=anthropic DIR=claude-agent-acp ;;
	gemini) PKG=@google/gemini-cli VERSION=0.61.0 API=gemini DIR=gemini ;;
	opencode) PKG=opencode-ai VERSION=1.18.33 API=openai DIR=opencode ;;
	codex) PKG=@agentclientprotocol/codex-acp VERSION=2.6.0 API=openai DIR=codex ;;
	*)
		echo "unknown agent $1 (claude, gemini, opencode, codex)" >&2
		exit 2
		;;
	esac
}

# node22 sets NODE: the machine's node when it is 22 or newer, else
# node@22.23.3 from npm, installed once into the cache (Claude Code's
# adapter needs Node ≥ 22).
node22() {
	NODE=node
	[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 22 ] && return
	local v=22.23.3
	NODE="$CACHE/node-$v/node_modules/node/bin/node"
	[ "$("$NODE" --version 2>/dev/null)" = "v$v" ] && return
	echo "installing node@$v into $CACHE/node-$v (once)"
	mkdir -p "$CACHE/node-$v"
	npm install --prefix "$CACHE/node-$v" --no-audit --no-fund --loglevel=error "node@$v" >&2
	[ "$("$NODE" --version 2>/dev/null)" = "v$v" ] || { echo "npm did not install node $v" >&2; exit 1; }
}

# agent_install AGENT (after agent_pick) installs $PKG@$VERSION into
# $GDIR ($AHPTUI_CI_CACHE/DIR-VERSION) unless it is there; sets CACHE,
# GDIR (and NODE for claude).
agent_install() {
	CACHE=${AHPTUI_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ahptui-ci}
	GDIR="$CACHE/$DIR-$VERSION"
	[ "$1" = claude ] && node22
	local have
	have=$(node -p "require('$GDIR/node_modules/$PKG/package.json').version" 2>/dev/null || true)
	[ "$have" = "$VERSION" ] && return
	echo "installing $PKG@$VERSION into $GDIR (once)"
	mkdir -p "$GDIR"
	npm install --prefix "$GDIR" --no-audit --no-fund --loglevel=error "$PKG@$VERSION" >&2
	have=$(node -p "require('$GDIR/node_modules/$PKG/package.json').version" 2>/dev/null || true)
	[ "$have" = "$VERSION" ] || { echo "npm did not install $PKG@$VERSION" >&2; exit 1; }
}

# keep_go_caches exports Go's caches as they are now: the agent gets a
# HOME of its own (agent_env), and every build after that would download
# and compile everything again.
keep_go_caches() {
	command -v go >/dev/null 2>&1 || return 0
	GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
	export GOCACHE GOMODCACHE GOPATH
}

# mock_start builds and starts the mock of $API on loopback, its request
# bodies in $WORK/requests; sets MOCK_PID and MOCK_URL.
mock_start() {
	mkdir -p "$WORK/requests"
	(cd "$ROOT" && go build -o "$WORK/mockllm" ./internal/mockllm/cmd/mockllm)
	"$WORK/mockllm" -api "$API" -url-file "$WORK/mock.url" -dump "$WORK/requests" >"$WORK/mock.log" 2>&1 &
	MOCK_PID=$!
	for _ in $(seq 100); do [ -s "$WORK/mock.url" ] && break; sleep 0.1; done
	MOCK_URL=$(cat "$WORK/mock.url")
	[ -n "$MOCK_URL" ] || fail "the mock did not start"
}

# agent_env AGENT points the agent at $MOCK_URL: a HOME of its own
# ($WORK/home, with the agent's settings; the agent inherits this
# environment from the host) and sets AGENT_CMD, its command line.
agent_env() {
	mkdir -p "$WORK/home"
	export HOME="$WORK/home"
	case "$1" in
	claude)
		# The adapter starts sessions in Claude Code's "auto" mode (a
		# classifier approves commands): this user's settings ask first.
		mkdir -p "$WORK/home/.claude"
		echo '{"permissions":{"defaultMode":"default"}}' >"$WORK/home/.claude/settings.json"
		export ANTHROPIC_BASE_URL="$MOCK_URL" ANTHROPIC_API_KEY=dummy \
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1
		[ "$(id -u)" = 0 ] && export IS_SANDBOX=1
		AGENT_CMD="'$NODE' '$GDIR/node_modules/$PKG/dist/index.js'"
		;;
	gemini)
		mkdir -p "$WORK/home/.gemini"
		echo '{"security":{"auth":{"selectedType":"gemini-api-key"}}}' >"$WORK/home/.gemini/settings.json"
		export GOOGLE_GEMINI_BASE_URL="$MOCK_URL" GEMINI_API_KEY=dummy GEMINI_CLI_NO_RELAUNCH=true
		AGENT_CMD="node '$GDIR/node_modules/$PKG/bundle/gemini.js' --acp"
		;;
	opencode)
		mkdir -p "$WORK/home/.config/opencode" "$CACHE/opencode-cache"
		cat >"$WORK/home/.config/opencode/opencode.json" <<JSON
{"provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
  "options": {"baseURL": "$MOCK_URL/v1", "apiKey": "dummy"},
  "models": {"mock-model": {"name": "Mock model", "tool_call": true}}}},
 "model": "mock/mock-model", "small_model": "mock/mock-model",
 "permission": {"bash": "ask", "edit": "ask"}}
JSON
		# Its provider package, fetched from npm once, is kept in the CI cache.
		export XDG_CACHE_HOME="$CACHE/opencode-cache" OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
			OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1
		AGENT_CMD="'$GDIR/node_modules/opencode-linux-x64/bin/opencode' acp"
		;;
	codex)
		# A CODEX_HOME of its own: the mock as the model provider (Responses
		# API), a model codex knows (its tools: exec_command, apply_patch).
		# codex 0.166 refuses approval_policy = "untrusted"; the adapter's
		# read-only mode asks before every command and edit instead.
		mkdir -p "$WORK/codex-home"
		cat >"$WORK/codex-home/config.toml" <<TOML
model = "gpt-5.5"
model_provider = "mock"

[model_providers.mock]
name = "Mock"
base_url = "$MOCK_URL/v1"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
TOML
		export CODEX_HOME="$WORK/codex-home" OPENAI_API_KEY=dummy INITIAL_AGENT_MODE=read-only
		AGENT_CMD="node '$GDIR/node_modules/$PKG/dist/index.js'"
		;;
	esac
}
