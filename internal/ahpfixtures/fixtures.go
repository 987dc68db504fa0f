package ahpfixtures

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// EnvDir names the environment variable that overrides the fixture root.
const EnvDir = "AHP_FIXTURES_DIR"

// Reducer is one case of reducers/*.json.
type Reducer struct {
	// File is the fixture's base name, e.g. "005-turn-started.json".
	File        string            `json:"-"`
	Description string            `json:"description"`
	Reducer     string            `json:"reducer"`
	Initial     json.RawMessage   `json:"initial"`
	Actions     []json.RawMessage `json:"actions"`
	Expected    json.RawMessage   `json:"expected"`
}

// RoundTrip is one case of round-trips/*.json.
type RoundTrip struct {
	// File is the fixture's base name.
	File              string            `json:"-"`
	Name              string            `json:"name"`
	Type              string            `json:"type"`
	Input             json.RawMessage   `json:"input"`
	AcceptableOutputs []json.RawMessage `json:"acceptableOutputs"`
	NotApplicable     []string          `json:"notApplicable"`
}

// Dir returns the fixture root: $AHP_FIXTURES_DIR when set, else the first
// testdata/ahp/fixtures directory found in the working directory or one of
// its parents (tests run in their package's directory).
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("ahpfixtures: working directory: %w", err)
	}
	for d := wd; ; {
		c := filepath.Join(d, "testdata", "ahp", "fixtures")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("ahpfixtures: no testdata/ahp/fixtures above %s (set %s)", wd, EnvDir)
		}
		d = parent
	}
}

// setDir returns the directory of one fixture set (sub is "reducers" or
// "round-trips"): <root>/<sub>, or the root itself when $AHP_FIXTURES_DIR
// points straight at a set (it has no <sub> directory).
func setDir(sub string) (string, error) {
	root, err := Dir()
	if err != nil {
		return "", err
	}
	d := filepath.Join(root, sub)
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		if os.Getenv(EnvDir) != "" {
			return root, nil
		}
	}
	return d, nil
}

// load decodes every *.json file of the set sub, sorted by file name, into
// a T via decode; it fails when the set is empty.
func load[T any](sub string, decode func(file string, raw []byte) (T, error)) ([]T, error) {
	dir, err := setDir(sub)
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err == nil && len(files) == 0 {
		err = errors.New("no *.json files")
	}
	if err != nil {
		return nil, fmt.Errorf("ahpfixtures: no %s fixtures in %s: %w", sub, dir, err)
	}
	sort.Strings(files)
	out := make([]T, 0, len(files))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("ahpfixtures: %w", err)
		}
		v, err := decode(filepath.Base(f), raw)
		if err != nil {
			return nil, fmt.Errorf("ahpfixtures: %s: %w", f, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// LoadReducers returns the reducer cases sorted by file name.
func LoadReducers() ([]Reducer, error) {
	return load("reducers", func(file string, raw []byte) (Reducer, error) {
		c := Reducer{File: file}
		err := json.Unmarshal(raw, &c)
		return c, err
	})
}

// LoadRoundTrips returns the round-trip cases sorted by file name.
func LoadRoundTrips() ([]RoundTrip, error) {
	return load("round-trips", func(file string, raw []byte) (RoundTrip, error) {
		c := RoundTrip{File: file}
		err := json.Unmarshal(raw, &c)
		return c, err
	})
}

// Reducers is LoadReducers for tests: it stops tb on any error.
func Reducers(tb testing.TB) []Reducer {
	tb.Helper()
	cs, err := LoadReducers()
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}

// RoundTrips is LoadRoundTrips for tests: it stops tb on any error.
func RoundTrips(tb testing.TB) []RoundTrip {
	tb.Helper()
	cs, err := LoadRoundTrips()
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}
