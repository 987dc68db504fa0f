package cli

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/agents"
	cfgfile "github.com/ahptui/ahptui/internal/config"
)

// agentsHelp is `ahptui agents --help`.
const agentsHelp = `Lists the ACP coding agents ahptui can run: the built-in catalog (Claude Code,
Codex, Gemini CLI, GitHub Copilot CLI, opencode, goose) and the config file's
[agents.NAME] tables (command = "...", args = [...], env = {...}), whether each
command is found, and how to install a missing one.
`

// agentRow is one line of `ahptui agents`.
type agentRow struct {
	name, title, cmdline, status string
	extra                        []string // install hint, notes
}

// runAgents implements `ahptui agents`: the catalog and the configured
// agents, whether each command is found, and how to install a missing one.
func runAgents(cfg config, std stdio) int {
	if len(cfg.subArgs) == 1 && (cfg.subArgs[0] == "--help" || cfg.subArgs[0] == "-h") {
		printErr(std.out, "usage: ahptui agents\n\n%s", agentsHelp)
		return exitOK
	}
	if len(cfg.subArgs) > 0 {
		printErr(std.err, "ahptui: usage: ahptui agents (unexpected %q)\n", strings.Join(cfg.subArgs, " "))
		return exitUsage
	}
	f, err := loadConfigFile(cfg)
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return exitUsage
	}
	rows := agentRows(f, agents.Lookup, nodeOnPath)
	printErr(std.out, "%s", formatAgents(rows))
	return exitOK
}

// agentRows lists the configured agents (file order of names: sorted),
// then the catalog's agents the file does not redefine.
func agentRows(f *cfgfile.File, look func(agents.Spec) (string, error), node func() (string, string, error)) []agentRow {
	var rows []agentRow
	nodeNote := nodeChecker(node)
	for _, n := range f.AgentNames() {
		s, err := agents.Resolve(n, f.Agents)
		if err != nil {
			rows = append(rows, agentRow{name: n, status: "error", extra: []string{err.Error()}})
			continue
		}
		r := agentRow{name: n, title: s.Title + " (config)", cmdline: s.CommandLine()}
		if p, err := look(s); err == nil {
			r.status = "found: " + p
		} else {
			r.status = "not found"
			r.extra = append(r.extra, fmt.Sprintf("%v; fix [agents.%s] in %s", err, n, f.Path))
			if e, ok := agents.CatalogEntry(n); ok {
				r.extra = append(r.extra, "install: "+e.Install)
			}
		}
		rows = append(rows, r)
	}
	for _, e := range agents.Catalog() {
		if _, ok := f.Agents[e.Name]; ok {
			continue
		}
		s, err := agents.Resolve(e.Name, nil)
		if err != nil {
			continue
		}
		r := agentRow{name: e.Name, title: e.Title, cmdline: s.CommandLine()}
		p, lerr := look(s)
		switch {
		case lerr != nil:
			r.status = "not found"
			r.extra = append(r.extra, "install: "+e.Install)
		case s.Command == "npx":
			r.status = "via npx (downloads on first use)"
			r.extra = append(r.extra, "install: "+e.Install+" (starts faster)")
		default:
			r.status = "found: " + p
		}
		if lerr == nil && e.NodeMin > 0 {
			if n := nodeNote(e.NodeMin); n != "" {
				r.extra = append(r.extra, n)
			}
		}
		if e.Tested != "" {
			r.extra = append(r.extra, "tested with ahptui: "+e.Tested)
		}
		if e.Note != "" {
			r.extra = append(r.extra, "note: "+e.Note)
		}
		rows = append(rows, r)
	}
	return rows
}

// formatAgents lays the rows out in columns.
func formatAgents(rows []agentRow) string {
	wn, wt, wc := len("NAME"), len("AGENT"), len("COMMAND")
	for _, r := range rows {
		wn, wt, wc = max(wn, len(r.name)), max(wt, len(r.title)), max(wc, len(r.cmdline))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %-*s  %s\n", wn, "NAME", wt, "AGENT", wc, "COMMAND", "STATUS")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s  %-*s  %-*s  %s\n", wn, r.name, wt, r.title, wc, r.cmdline, r.status)
		for _, x := range r.extra {
			fmt.Fprintf(&b, "%-*s  %s\n", wn, "", x)
		}
	}
	b.WriteString("\nUse: ahptui --agent NAME (here) or ahptui serve --agent NAME (for ahptui ssh);\n" +
		"any other ACP agent: --agent NAME=COMMAND, or an [agents.NAME] table in the config file.\n")
	return b.String()
}

// nodeOnPath returns the node program on PATH and its version ("v20.1.0").
func nodeOnPath() (string, string, error) {
	p, err := exec.LookPath("node")
	if err != nil {
		return "", "", fmt.Errorf("node is not in PATH: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	if err != nil {
		return p, "", fmt.Errorf("%s --version: %w", p, err)
	}
	return p, strings.TrimSpace(string(out)), nil
}

// nodeChecker returns what to say of an agent that needs Node ≥ min ("" =
// the Node found is recent enough); node is asked once, when first needed.
func nodeChecker(node func() (string, string, error)) func(min int) string {
	var path, version string
	var err error
	asked := false
	return func(min int) string {
		if !asked {
			path, version, err = node()
			asked = true
		}
		hint := fmt.Sprintf("put Node %d or newer first in PATH (from npm alone: npm install -g node@%d)", min, min)
		if err != nil {
			return fmt.Sprintf("needs Node ≥ %d: %v; %s", min, err, hint)
		}
		major, perr := strconv.Atoi(strings.SplitN(strings.TrimPrefix(version, "v"), ".", 2)[0])
		if perr != nil || major >= min {
			return ""
		}
		return fmt.Sprintf("needs Node ≥ %d: found Node %s (%s); %s", min, version, path, hint)
	}
}
