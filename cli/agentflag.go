package cli

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/acp"
	"github.com/ahptui/ahptui/ahphost/demo"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/agents"
	cfgfile "github.com/ahptui/ahptui/internal/config"
)

// agentCommand is one --agent value resolved to a command line.
type agentCommand struct {
	Name    string
	Title   string
	Command string
	Args    []string
	Env     []string
}

// resolveAgentArg turns a --agent value into a command: NAME=COMMAND is
// split like a shell would (no shell is run); a bare NAME comes from the
// config file's [agents.NAME] table, else from the built-in catalog
// (internal/agents).
func resolveAgentArg(arg string, cfg map[string]cfgfile.Agent) (agentCommand, error) {
	sp, err := agents.Resolve(arg, cfg)
	if err != nil {
		return agentCommand{}, fmt.Errorf("--agent %s: %w", arg, err)
	}
	title := sp.Title
	if title == "" {
		title = sp.Name
	}
	return agentCommand{Name: sp.Name, Title: title, Command: sp.Command, Args: sp.Args, Env: sp.Environ(nil)}, nil
}

// configAgents reads the [agents.NAME] tables of the config file
// (configFile "" = the default path; a missing default file is no table).
func configAgents(configFile string) (map[string]cfgfile.Agent, error) {
	f, err := loadConfigFile(config{configFile: configFile})
	if err != nil {
		return nil, err
	}
	return f.Agents, nil
}

// wireServeAgents fills cfg.Options' agents from cfg.AgentArgs (the demo
// agent when there are none) and returns what closes them.
func wireServeAgents(cfg *serveConfig, configFile string, log *slog.Logger) (func(), error) {
	dir := cfg.Options.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		}
		dir = wd
	}
	if len(cfg.AgentArgs) == 0 {
		cfg.Options.Agent = demo.Factory(dir, cfg.Options.Pace, nil)
		return func() {}, nil
	}
	agents, closeAll, err := acpAgents(cfg.AgentArgs, configFile, cfg.StateDir, log)
	if err != nil {
		return nil, err
	}
	cfg.Options.Agents = agents
	return closeAll, nil
}

// acpAgents builds one ACP bridge per --agent value; stateDir "" is the
// user state directory. The returned func closes them (the host closes
// them too on shutdown).
func acpAgents(args []string, configFile, stateDir string, log *slog.Logger) ([]ahphost.Agent, func(), error) {
	if stateDir == "" {
		d, err := stateDirFor(lookupEnv)
		if err != nil {
			return nil, nil, err
		}
		stateDir = d
	}
	var bridges []*acp.Bridge
	closeAll := func() {
		for _, b := range bridges {
			_ = b.Close()
		}
	}
	table, err := configAgents(configFile)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	var list []ahphost.Agent
	for _, arg := range args {
		ac, err := resolveAgentArg(arg, table)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		if seen[ac.Name] {
			closeAll()
			return nil, nil, fmt.Errorf("--agent %s given twice", ac.Name)
		}
		seen[ac.Name] = true
		b, err := acp.New(acp.Config{
			Name: ac.Name, Title: ac.Title, Command: ac.Command, Args: ac.Args, Env: ac.Env,
			StateDir: stateDir, Logger: log.With("component", "acp"), Shim: agentShim,
		})
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--agent %s: %w", ac.Name, err)
		}
		bridges = append(bridges, b)
		list = append(list, b)
	}
	return list, closeAll, nil
}

// stateDirFor is the directory of the agents' session indexes.
func stateDirFor(getenv func(string) string) (string, error) { return stateDir(getenv) }

// uiAgents returns the embedded UI host's agents: the --agent agents, else
// the demo agent.
func uiAgents(cfg config, wd string, pace time.Duration, log *slog.Logger) ([]ahphost.Agent, func(), error) {
	if len(cfg.agentArgs) == 0 {
		return []ahphost.Agent{demo.Factory(wd, pace, nil)}, func() {}, nil
	}
	return acpAgents(cfg.agentArgs, cfg.configFile, "", log)
}

// newAgentSession creates an empty session of the first agent in the
// host's directory (ahptui --agent opens it at once).
func newAgentSession(h *ahphost.Host) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("session id: %w", err)
	}
	uri := "ahp-session:/" + hex.EncodeToString(b[:])
	if _, err := h.SeedSession(uri, nil); err != nil {
		return "", fmt.Errorf("new session: %w", err)
	}
	return uri, nil
}

// newSessionParams is exec's createSession: provider agent ("" = the
// host's first) in directory cwd ("" = the current directory).
func newSessionParams(session, agent, cwd string) (ahpwire.CreateSessionParams, error) {
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return ahpwire.CreateSessionParams{}, fmt.Errorf("working directory: %w", err)
		}
		cwd = wd
	}
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return ahpwire.CreateSessionParams{}, fmt.Errorf("--cwd %s: %w", cwd, err)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return ahpwire.CreateSessionParams{Channel: session, Provider: agent, WorkingDirectories: []string{u.String()}}, nil
}
