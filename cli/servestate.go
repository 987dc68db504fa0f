package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// serveStateName is the file `ahptui serve` writes in the state directory
// ($XDG_STATE_HOME/ahptui or ~/.local/state/ahptui) while it runs, so that
// `ahptui ssh` can find it on a remote machine. Mode 0600: it holds the token.
const serveStateName = "serve.json"

// serveState is the content of the serve state file.
type serveState struct {
	// URL is the connect URL, token included.
	URL string `json:"url"`
	// Addr is the listen address (host:port).
	Addr string `json:"addr"`
	// Token is the connection token ("" without one).
	Token string `json:"token,omitempty"`
	// PID is the serving process.
	PID int `json:"pid"`
	// Version is the serving ahptui's version.
	Version string `json:"version"`
	// Agents are its --agent values (none: the demo agent).
	Agents []string `json:"agents,omitempty"`
	// Bin is the serving program's path.
	Bin string `json:"bin,omitempty"`
	// Detached is set for a host started by `serve --detach` (as `ahptui
	// ssh` starts them): only those are restarted by `ahptui ssh`.
	Detached bool `json:"detached,omitempty"`
}

// writeServeState writes the state file atomically with mode 0600 and
// returns a function that removes it (only if it is still ours).
func writeServeState(st serveState) (remove func(), err error) {
	b, err := json.Marshal(st)
	if err != nil {
		return func() {}, fmt.Errorf("serve state: %w", err)
	}
	path, err := writeStateFile("serve state", serveStateName, append(b, '\n'))
	if err != nil {
		return func() {}, err
	}
	return func() {
		var cur serveState
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &cur) == nil && cur.PID == st.PID {
			_ = os.Remove(path)
		}
	}, nil
}

// writeStateFile writes data atomically, with mode 0600 (it holds a
// token), to name in the state directory and returns the file's path.
// The temporary file (.NAME-*.EXT beside it) is removed when any step
// fails; errors are prefixed with what.
func writeStateFile(what, name string, data []byte) (string, error) {
	dir, err := stateDir(lookupEnv)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	path := filepath.Join(dir, name)
	ext := filepath.Ext(name)
	tmp, err := os.CreateTemp(dir, "."+strings.TrimSuffix(name, ext)+"-*"+ext)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	// One err through every step: a failed chmod, write, close or rename
	// removes the temporary file (it holds the token) and is returned.
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return path, nil
}
