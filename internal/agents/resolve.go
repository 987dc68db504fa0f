package agents

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"

	"github.com/ahptui/ahptui/internal/config"
)

// Spec is how to start one agent: no shell runs Command.
type Spec struct {
	// Name is what `--agent NAME` and the host's root state call it.
	Name string
	// Title is the name shown to the user.
	Title string
	// Command is the program: a path, or a name looked up in PATH.
	Command string
	// Args are the program's arguments.
	Args []string
	// Env is added to the environment the agent inherits (may be nil).
	Env map[string]string
}

// CommandLine renders Command and Args quoted so Split gives them back.
func (s Spec) CommandLine() string { return Join(append([]string{s.Command}, s.Args...)) }

// Environ returns base with Env added (Env wins), for exec.Cmd.Env.
func (s Spec) Environ(base []string) []string {
	out := make([]string, 0, len(base)+len(s.Env))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := s.Env[k]; !over {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+s.Env[k])
	}
	return out
}

// name is what an agent may be called (as a config host name).
var name = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Resolve turns an --agent argument into a Spec. NAME alone comes from
// the config file's [agents.NAME] table (cfg, may be nil) first, then
// the built-in catalog (its first command found on PATH, else its last);
// NAME=COMMAND gives the command line, split by Split.
func Resolve(arg string, cfg map[string]config.Agent) (Spec, error) {
	return resolve(arg, cfg, exec.LookPath)
}

func resolve(arg string, cfg map[string]config.Agent, look func(string) (string, error)) (Spec, error) {
	n, line, hasCmd := strings.Cut(arg, "=")
	if !name.MatchString(n) {
		return Spec{}, fmt.Errorf("agent %q: a name uses letters, digits, '.', '_' and '-' (--agent NAME or NAME=COMMAND)", n)
	}
	title := n
	if e, ok := CatalogEntry(n); ok {
		title = e.Title
	}
	if hasCmd {
		words, err := Split(line)
		if err != nil {
			return Spec{}, fmt.Errorf("agent %s: %w", n, err)
		}
		if len(words) == 0 {
			return Spec{}, fmt.Errorf("agent %s: the command after '=' is empty", n)
		}
		return Spec{Name: n, Title: title, Command: words[0], Args: words[1:]}, nil
	}
	if a, ok := cfg[n]; ok {
		if a.Title != "" {
			title = a.Title
		}
		return Spec{Name: n, Title: title, Command: a.Command, Args: append([]string(nil), a.Args...), Env: copyEnv(a.Env)}, nil
	}
	e, ok := CatalogEntry(n)
	if !ok {
		return Spec{}, fmt.Errorf("unknown agent %q: not in the config file's [agents] nor the catalog (%s); "+
			"give its command as --agent %s=COMMAND", n, strings.Join(catalogNames(), ", "), n)
	}
	pick := e.Commands[len(e.Commands)-1]
	for _, c := range e.Commands {
		if _, err := look(c[0]); err == nil {
			pick = c
			break
		}
	}
	return Spec{Name: n, Title: title, Command: pick[0], Args: append([]string(nil), pick[1:]...)}, nil
}

// Lookup tells where the Spec's program is: a path with a slash must be
// an executable file, a bare name is searched in PATH.
func Lookup(s Spec) (string, error) {
	if s.Command == "" {
		return "", errors.New("no command")
	}
	if strings.ContainsRune(s.Command, os.PathSeparator) || strings.ContainsRune(s.Command, '/') {
		fi, err := os.Stat(s.Command)
		if err != nil {
			return "", fmt.Errorf("%s: %w", s.Command, err)
		}
		if fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s is not an executable file", s.Command)
		}
		return s.Command, nil
	}
	p, err := exec.LookPath(s.Command)
	if err != nil {
		return "", fmt.Errorf("%s is not in PATH", s.Command)
	}
	return p, nil
}

func catalogNames() []string {
	out := make([]string, len(catalog))
	for i, e := range catalog {
		out[i] = e.Name
	}
	return out
}

func copyEnv(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
