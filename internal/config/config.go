package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/pelletier/go-toml/v2"
)

// File is the decoded configuration file.
type File struct {
	// Default names the host `ahptui` attaches to without an argument.
	Default string `toml:"default"`
	// Theme is auto, dark or light ("" = auto).
	Theme string `toml:"theme"`
	// Mouse captures the mouse (wheel scrolling, clicks) when true; by
	// default (unset or false) the terminal keeps it, so native selection
	// and copy work.
	Mouse *bool `toml:"mouse"`
	// Notify configures notifications.
	Notify Notify `toml:"notify"`
	// Keys overrides key bindings: "context.action" → key or keys.
	Keys map[string]any `toml:"keys"`
	// Hosts are the named hosts, attached with `ahptui @name`.
	Hosts map[string]Host `toml:"hosts"`
	// Agents are the named ACP agents `ahptui serve --agent NAME` runs.
	Agents map[string]Agent `toml:"agents"`
	// Serve configures `ahptui serve`.
	Serve Serve `toml:"serve"`

	// Path is the file this was read from ("" when there is none).
	Path string `toml:"-"`
	doc  []byte
}

// Notify configures how the user is told that a session needs them.
type Notify struct {
	// Bell rings the terminal bell.
	Bell *bool `toml:"bell"`
	// Desktop is off, osc9, osc777 or osc99 ("" = off).
	Desktop string `toml:"desktop"`
	// Events lists what notifies: needs-input, turn-end, error.
	Events []string `toml:"events"`
}

// Host is one named host: a URL, or an SSH destination.
type Host struct {
	// URL is a ws://, wss:// or ws+unix:// URL.
	URL string `toml:"url"`
	// SSH is [user@]host[:port]: attach through `ahptui ssh`.
	SSH string `toml:"ssh"`
	// Socket is, for SSH, the remote Unix socket of the AHP host.
	Socket string `toml:"socket"`
	// Port is, for SSH, the remote TCP port of the AHP host.
	Port int `toml:"port"`
	// Start starts `ahptui serve --detach` on the SSH host when nothing
	// runs there (nil = true; false only attaches to a running host).
	Start *bool `toml:"start"`
	// RemoteBin is the remote ahptui that Start runs ("" = the ahptui found
	// there, or this one copied there when it has none or an older one).
	RemoteBin string `toml:"remote_bin"`
	// Release is a release archive (ahptui_VERSION_OS_ARCH.tar.gz: a path,
	// or an https URL listed in the checksums.txt beside it) whose ahptui
	// is copied to the SSH host when this one cannot run there.
	Release string `toml:"release"`
	// Agents are the --agent NAME[=COMMAND] values of a host Start starts.
	Agents []string `toml:"agents"`
	// TokenEnv names an environment variable holding the token.
	TokenEnv string `toml:"token_env"`
	// TokenCmd is a shell command printing the token.
	TokenCmd string `toml:"token_cmd"`
	// Token is the token in clear; refused unless AllowPlaintextToken.
	Token string `toml:"token"`
	// AllowPlaintextToken accepts Token (the file then must be private).
	AllowPlaintextToken bool `toml:"allow_plaintext_token"`
	// TokenParam names the URL query parameter the host reads its token
	// from ("" = "tkn"; pi-ahp reads "token").
	TokenParam string `toml:"token_param"`
}

// Serve configures the host `ahptui serve` runs; its flags win.
type Serve struct {
	// WatchTokenEnv names an environment variable holding the watch token
	// (`serve --watch-token`: its clients may only subscribe and read).
	WatchTokenEnv string `toml:"watch_token_env"`
	// WatchTokenCmd is a shell command printing the watch token.
	WatchTokenCmd string `toml:"watch_token_cmd"`
	// WatchToken is the watch token in clear; refused unless
	// AllowPlaintextToken.
	WatchToken string `toml:"watch_token"`
	// AllowPlaintextToken accepts WatchToken (the file then must be private).
	AllowPlaintextToken bool `toml:"allow_plaintext_token"`
}

// ResolveWatchToken returns the watch token from watch_token_env,
// watch_token_cmd or watch_token, "" when none is set. Errors never contain
// the token or the command's output.
func (s Serve) ResolveWatchToken(ctx context.Context, getenv func(string) string) (string, error) {
	t, err := s.asHost().ResolveToken(ctx, getenv)
	if err != nil {
		return "", fmt.Errorf("serve.watch_%w", err)
	}
	return t, nil
}

// asHost is s's token sources as a host's (one resolution for both).
func (s Serve) asHost() Host {
	return Host{TokenEnv: s.WatchTokenEnv, TokenCmd: s.WatchTokenCmd, Token: s.WatchToken, AllowPlaintextToken: s.AllowPlaintextToken}
}

// Agent is one named ACP agent: the program the host starts and speaks
// ACP with over stdio. No shell runs it.
type Agent struct {
	// Title is the name shown to the user ("" = the agent's name).
	Title string `toml:"title"`
	// Command is the program (a path, or a name looked up in PATH).
	Command string `toml:"command"`
	// Args are the program's arguments.
	Args []string `toml:"args"`
	// Env is added to the environment the agent inherits.
	Env map[string]string `toml:"env"`
}

// AgentNames returns the configured agent names, sorted.
func (f *File) AgentNames() []string {
	names := make([]string, 0, len(f.Agents))
	for n := range f.Agents {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Path returns the configuration file's path: $AHPTUI_CONFIG, else
// $XDG_CONFIG_HOME/ahptui/config.toml, else ~/.config/ahptui/config.toml.
func Path(getenv func(string) string) (string, error) {
	if p := getenv("AHPTUI_CONFIG"); p != "" {
		return p, nil
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "ahptui", "config.toml"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("config: find home directory: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".config", "ahptui", "config.toml"), nil
}

// Load reads and validates the file at path. A missing file is not an
// error unless required: Load returns an empty configuration.
func Load(path string, required bool) (*File, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return &File{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(path, b)
}

// Parse decodes and validates a configuration document read from path.
// Errors are *Errors naming the file, the line and the key.
func Parse(path string, doc []byte) (*File, error) {
	var f File
	dec := toml.NewDecoder(bytes.NewReader(doc)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeErrors(path, doc, err)
	}
	f.Path, f.doc = path, doc
	if errs := f.validate(path, doc); len(errs) > 0 {
		return nil, errs
	}
	return &f, nil
}

// HostNames returns the configured host names, sorted.
func (f *File) HostNames() []string {
	names := make([]string, 0, len(f.Hosts))
	for n := range f.Hosts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// HostsInFileOrder returns the configured host names in the order the
// file defines them (the inbox lists hosts that way); hosts whose place
// cannot be found come last, sorted.
func (f *File) HostsInFileOrder() []string {
	names := f.HostNames()
	at := make(map[string]int, len(names))
	for _, n := range names {
		if l := lineOfKey(f.doc, []string{"hosts", n}); l > 0 {
			at[n] = l
		} else {
			at[n] = math.MaxInt
		}
	}
	sort.SliceStable(names, func(i, j int) bool { return at[names[i]] < at[names[j]] })
	return names
}

// Lookup returns the host called name.
func (f *File) Lookup(name string) (Host, error) {
	h, ok := f.Hosts[name]
	if !ok {
		if f.Path == "" {
			return Host{}, fmt.Errorf("no host named %q: there is no config file", name)
		}
		return Host{}, fmt.Errorf("no host named %q in %s (hosts: %v)", name, f.Path, f.HostNames())
	}
	return h, nil
}

// ErrorAt reports a mistake found after parsing (e.g. a key override the
// key map refuses) at the line of the dotted key.
func (f *File) ErrorAt(key string, err error) error {
	return Errors{{File: f.Path, Line: lineOfKey(f.doc, splitKey(key)), Key: key, Msg: err.Error()}}
}

// BellOn reports whether the bell rings (default true).
func (n Notify) BellOn() bool { return n.Bell == nil || *n.Bell }
