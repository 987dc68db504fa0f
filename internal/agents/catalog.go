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
}

// catalog is the built-in list, in the order `ahptui agents` shows it.
var catalog = []Entry{
	{
		Name: "claude", Title: "Claude Code",
		Commands: [][]string{{"claude-agent-acp"}, {"npx", "-y", "@zed-industries/claude-agent-acp"}},
		Install:  "npm install -g @zed-industries/claude-agent-acp",
		Note:     "needs ANTHROPIC_API_KEY or a `claude /login`; as root also IS_SANDBOX=1",
	},
	{
		Name: "codex", Title: "Codex",
		Commands: [][]string{{"codex-acp"}, {"npx", "-y", "@zed-industries/codex-acp"}},
		Install:  "npm install -g @zed-industries/codex-acp",
		Note:     "needs OPENAI_API_KEY or a `codex login`",
	},
	{
		Name: "gemini", Title: "Gemini CLI",
		Commands: [][]string{{"gemini", "--acp"}},
		Install:  "npm install -g @google/gemini-cli",
		Note:     "older versions: --agent gemini='gemini --experimental-acp'",
	},
	{
		Name: "copilot", Title: "GitHub Copilot CLI",
		Commands: [][]string{{"copilot", "--acp"}},
		Install:  "npm install -g @github/copilot",
	},
	{
		Name: "opencode", Title: "opencode",
		Commands: [][]string{{"opencode", "acp"}},
		Install:  "npm install -g opencode-ai",
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
