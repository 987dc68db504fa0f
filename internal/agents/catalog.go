package agents

// Entry is one agent of the built-in catalog.
type Entry struct {
	// Name is what `--agent NAME` calls it.
	Name string
	// Title is the name shown to the user.
	Title string
	// Commands are the usual command lines, preferred first: the first
	// whose program is found on PATH is used, else the last.
	Commands [][]string
	// Install says how to install the agent (one line).
	Install string
	// Note adds what the user should know (credentials, old versions).
	Note string
	// NodeMin is the oldest Node major version the agent runs on (0: not
	// a Node program); `ahptui agents` says when the Node found is older.
	NodeMin int
	// Tested is the package and exact version ahptui's end-to-end tests
	// run ("" when none runs it).
	Tested string
}

// catalog is the built-in list, in the order `ahptui agents` shows it.
var catalog = []Entry{
	{
		Name: "claude", Title: "Claude Code",
		Commands: [][]string{{"claude-agent-acp"}, {"npx", "-y", "@agentclientprotocol/claude-agent-acp"}},
		Install:  "npm install -g @agentclientprotocol/claude-agent-acp",
		Note: "needs ANTHROPIC_API_KEY or a `claude /login`; as root also IS_SANDBOX=1; starts in Claude Code's " +
			"\"auto\" mode (a classifier approves commands) unless ~/.claude/settings.json sets " +
			"permissions.defaultMode (or choose the mode in the session, or exec --mode default)",
		NodeMin: 22,
		Tested:  "@agentclientprotocol/claude-agent-acp@0.101.0",
	},
	{
		Name: "codex", Title: "Codex",
		Commands: [][]string{{"codex-acp"}, {"npx", "-y", "@agentclientprotocol/codex-acp"}},
		Install:  "npm install -g @agentclientprotocol/codex-acp",
		Note: "installs and runs the native codex binary (@openai/codex 0.166 for adapter 2.6.0); needs OPENAI_API_KEY " +
			"(or CODEX_API_KEY) or a ChatGPT sign-in (codex-acp login); starts in its Auto review mode (a model reviews " +
			"commands, edits in the directory go unasked): its Read-only mode asks before every command and edit " +
			"(INITIAL_AGENT_MODE=read-only, or exec --mode read-only); @zed-industries/codex-acp 0.16.0 works too",
		NodeMin: 20,
		Tested:  "@agentclientprotocol/codex-acp@2.6.0",
	},
	{
		Name: "gemini", Title: "Gemini CLI",
		Commands: [][]string{{"gemini", "--acp"}},
		Install:  "npm install -g @google/gemini-cli",
		Note:     "needs GEMINI_API_KEY or a Google sign-in; older versions: --agent gemini='gemini --experimental-acp'",
		NodeMin:  20,
		Tested:   "@google/gemini-cli@0.61.0",
	},
	{
		Name: "copilot", Title: "GitHub Copilot CLI",
		Commands: [][]string{{"copilot", "--acp"}},
		Install:  "npm install -g @github/copilot",
		Note:     "needs a GitHub sign-in (run `copilot` once and /login)",
		NodeMin:  22,
	},
	{
		Name: "opencode", Title: "opencode",
		Commands: [][]string{{"opencode", "acp"}},
		Install:  "npm install -g opencode-ai",
		Note:     "asks before commands and edits only with \"permission\": {\"bash\": \"ask\", \"edit\": \"ask\"} in ~/.config/opencode/opencode.json",
		Tested:   "opencode-ai@1.18.33",
	},
	{
		Name: "goose", Title: "goose",
		Commands: [][]string{{"goose", "acp"}},
		Install:  "see https://block.github.io/goose/docs/getting-started/installation",
	},
}

// Catalog returns the built-in agents, in display order (a copy).
func Catalog() []Entry {
	out := make([]Entry, len(catalog))
	copy(out, catalog)
	return out
}

// CatalogEntry returns the catalog's agent called name.
func CatalogEntry(name string) (Entry, bool) {
	for _, e := range catalog {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}
