package cli

import (
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
)

// agentCommand is one --agent value resolved to a command line.
type agentCommand struct {
	Name    string
	Command string
	Args    []string
	Env     []string
}

// resolveAgentArg turns a --agent value into a command. NAME=COMMAND splits
// COMMAND on white space (no shell is run); a bare NAME is refused.
// internal/agents replaces this with the catalog, the config file and
// shell-like splitting.
func resolveAgentArg(arg string) (agentCommand, error) {
	name, command, ok := strings.Cut(arg, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return agentCommand{}, fmt.Errorf("--agent %q: empty agent name", arg)
	}
	f := strings.Fields(command)
	if !ok || len(f) == 0 {
		return agentCommand{}, fmt.Errorf("--agent %q: give the command as NAME=COMMAND", arg)
	}
	return agentCommand{Name: name, Command: f[0], Args: f[1:]}, nil
}

// wireServeAgents fills cfg.Options' agents from cfg.AgentArgs (the demo
// agent when there are none) and returns what closes them.
func wireServeAgents(cfg *serveConfig, log *slog.Logger) (func(), error) {
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
	agents, closeAll, err := acpAgents(cfg.AgentArgs, cfg.StateDir, log)
	if err != nil {
		return nil, err
	}
	cfg.Options.Agents = agents
	return closeAll, nil
}

// acpAgents builds one ACP bridge per --agent value.
func acpAgents(args []string, stateDir string, log *slog.Logger) ([]ahphost.Agent, func(), error) {
	return nil, nil, fmt.Errorf("--agent: ACP agents are not wired yet")
}
