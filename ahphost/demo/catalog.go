package demo

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// ModelTerseID is the demo's second model: same scripts, shorter answers.
const ModelTerseID = "demo-2"

// Session configuration properties and the mode values.
const (
	ConfigModel = "model"
	ConfigMode  = "mode"
	ModeAgent   = "agent"
	ModePlan    = "plan"
)

// CommandInfo describes one /demo command for completions and help: the
// one list both are built from.
type CommandInfo struct {
	// Text is what the completion inserts ("/demo slow 40").
	Text string
	// Description says in a few words what the command shows (completions).
	Description string
	// Usage is the command as /demo help shows it ("/demo slow [lines]").
	Usage string
	// Help is /demo help's longer description (markdown).
	Help string
}

// Commands lists the demo's scripted commands.
func Commands() []CommandInfo {
	return []CommandInfo{
		{"/demo help", "list the demo commands", "/demo help", "this list"},
		{"/demo tools", "tool calls: read-only, an edit and a command that need approval", "/demo tools",
			"tool calls through the whole state machine: a read-only call, an edit that needs approval (with a diff), a command that needs approval and then result review"},
		{"/demo big 1m", "a reply of exactly N bytes", "/demo big N",
			"a reply of exactly N bytes (e.g. `3m`, up to 32 MiB) ending in `-- end of N bytes --`; past the inline part it streams as content-reference pages"},
		{"/demo history 300", "a chat of N finished turns to page through", "/demo history N",
			"creates a session with a chat of N finished turns (default 300) to page through"},
		{"/demo slow 40", "a long answer streamed slowly — try steering it", "/demo slow [lines]",
			fmt.Sprintf("a long answer streamed slowly (%d lines by default) — try cancelling or reconnecting", DefaultSlowLines)},
		{"/demo error", "a resumable error", "/demo error", "the turn fails with a resumable error; resume it to finish"},
		{"/demo input", "questions of every kind", "/demo input",
			"asks you questions (text, number, yes/no, single and multi choice) and echoes the answers"},
		{"/demo shell", "a scripted terminal: tests, a progress bar, a failing command", "/demo shell [pty\\|plain]",
			"a scripted terminal (nothing really runs): coloured test output, a progress bar, thousands of lines and a failing command; `pty` drops command detection, `plain` has no pty"},
		{"/demo flood 64m", "a terminal printing N bytes at full speed", "/demo flood N",
			"a terminal that prints N bytes (e.g. `256m`, up to 1 GiB) of coloured log lines as fast as the host takes them; the client keeps its last 4 MiB"},
		{"/demo repl", "a terminal you type into: a tiny built-in shell", "/demo repl",
			"opens a terminal you type into (claim it: Enter on its block, or F7): a tiny line-editing shell with built-in commands (`help`, `echo`, `ls`, `seq`, `history`, `exit`); nothing really runs"},
		{"/demo config", "adds a setting to this session (F4 shows it at once)", "/demo config [reset]",
			"changes this session's settings schema after creation, as an agent whose options change does: adds **Reasoning effort** (F4 shows it at once); `reset` removes it"},
		{"/demo url", "how to reach this host from another terminal (exec, export)", "/demo url",
			"how to reach this host from another terminal: its URL and the `ahptui exec`, `sessions` and `export` commands, which read the token from a 0600 file (never shown)"},
		{"/demo edit", "edits five files with diffs and a reviewable changeset", "/demo edit",
			"edits five files (created, modified, deleted, one large) with diffs served by `resourceRead`, and a reviewable changeset; the document it creates becomes a session artifact; the agent leaves a review comment on one change (send your comments back and it answers and resolves each)"},
		{"/demo touch", "writes a file in the session's directory (watches see it)", "/demo touch",
			"writes `" + touchFile + "` in the session's directory, so a client watching the directory (the changes view) sees the change"},
		{"/demo artifacts", "session artifacts: a document, a pull request, an issue, a link (F8)", "/demo artifacts [clear]",
			"lists four session artifacts (AHP 1.1: a document it wrote, a pull request it opened, the issue the work derives from, a page it points to), opened with F8; `clear` removes them"},
		{"/demo subagent", "a subagent in a child chat and a background shell", "/demo subagent",
			"a subagent working in a child chat while a shell runs in the background"},
		{"/demo auth", "a tool call that needs you to sign in", "/demo auth",
			"a tool call that needs you to sign in to the Demo API (any token works)"},
		{"/demo code", "a reply with several code blocks, tabs in them (try /copy and Y)", "/demo code",
			"a reply with three fenced code blocks (Go and a Makefile indented with tabs, a shell line): `/copy` lists them to copy one, `Y` in the transcript copies the one under the cursor, tabs kept"},
		{"/demo stream 3m", "N bytes of markdown in 20–60-byte deltas at full speed", "/demo stream N [delta]",
			"N bytes of varied markdown (e.g. `3m`) streamed in 20–60-byte deltas (or `delta` bytes each) at full speed, as a model streams; ends in `-- end of stream N bytes --`"},
	}
}

// ConfigSchema is the demo's session configuration: two models and two
// modes, both changeable after the session was created.
func ConfigSchema() ahpwire.SessionConfigSchema {
	str := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	return ahpwire.SessionConfigSchema{
		Type:  "object",
		Order: []string{ConfigModel, ConfigMode},
		Properties: map[string]ahpwire.SessionConfigPropertySchema{
			ConfigModel: {Type: "string", Title: "Model", Description: "The model that answers",
				Default: str(ModelID), Enum: []json.RawMessage{str(ModelID), str(ModelTerseID)},
				EnumLabels:       []string{"Demo 1 (scripted)", "Demo 2 (terse)"},
				EnumDescriptions: []string{"full answers with reasoning and tools", "short answers"},
				EnumDynamic:      true, SessionMutable: true},
			ConfigMode: {Type: "string", Title: "Mode", Description: "Whether the agent may run tools",
				Default: str(ModeAgent), Enum: []json.RawMessage{str(ModeAgent), str(ModePlan)},
				EnumLabels:       []string{"Agent", "Plan"},
				EnumDescriptions: []string{"runs read-only tools", "only describes a plan, runs no tools"},
				SessionMutable:   true},
		},
		Required: []string{ConfigModel, ConfigMode},
	}
}

// ResolveConfig answers resolveSessionConfig: the schema and the given
// values over the defaults. A working directory must be an existing
// directory (file: URI or path).
func (a *Agent) ResolveConfig(p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error) {
	if p.WorkingDirectory != "" {
		if err := checkDir(p.WorkingDirectory); err != nil {
			return ahpwire.ResolveSessionConfigResult{}, err
		}
	}
	s := ConfigSchema()
	values := map[string]json.RawMessage{}
	for _, k := range s.Keys() {
		values[k] = s.Properties[k].Default
	}
	for k, v := range p.Config {
		if _, ok := s.Properties[k]; ok {
			values[k] = v
		}
	}
	return ahpwire.ResolveSessionConfigResult{Schema: s, Values: values}, nil
}

// ConfigCompletions answers sessionConfigCompletions for the model and
// mode properties: the values whose id or label contains the query.
func (a *Agent) ConfigCompletions(p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error) {
	prop, ok := ConfigSchema().Properties[p.Property]
	if !ok {
		return nil, fmt.Errorf("unknown property %q", p.Property)
	}
	q := strings.ToLower(strings.TrimSpace(p.Query))
	out := []ahpwire.SessionConfigValueItem{}
	for i, e := range prop.Enum {
		var v string
		_ = json.Unmarshal(e, &v)
		item := ahpwire.SessionConfigValueItem{Value: v, Label: prop.EnumLabels[i], Description: prop.EnumDescriptions[i]}
		if q == "" || strings.Contains(strings.ToLower(v), q) || strings.Contains(strings.ToLower(item.Label), q) {
			out = append(out, item)
		}
	}
	return out, nil
}

// checkDir reports whether uri (file: URI or plain path) is a directory.
func checkDir(uri string) error {
	path := uri
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		path = u.Path
	} else if err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return fmt.Errorf("working directory must be a file: URI or a path, not a %s URI", u.Scheme)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("working directory %s does not exist", path)
	}
	if !fi.IsDir() {
		return fmt.Errorf("working directory %s is not a directory", path)
	}
	return nil
}

// configString returns a config value as a string ("" when absent).
func (r *run) configString(key string) string {
	if r.t.Config == nil {
		return ""
	}
	return r.t.Config[key]
}

// model is the turn's model id.
func (r *run) model() string {
	if m := r.configString(ConfigModel); m != "" {
		return m
	}
	return ModelID
}

// planMode reports whether the session runs in plan mode (no tools).
func (r *run) planMode() bool { return r.configString(ConfigMode) == ModePlan }
