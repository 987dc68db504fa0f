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

// EnvDir names the environment variable that overrides the root of the
// 0.5-era fixture set; EnvDir08 that of the 0.8–1.0-era set.
const (
	EnvDir   = "AHP_FIXTURES_DIR"
	EnvDir08 = "AHP_FIXTURES_08_DIR"
)

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

// The fixture sets under testdata/ahp: the 0.5-era set and the 0.8–1.0-era
// set. Both are found the same way, each with its own override.
const (
	set05 = "fixtures"
	set08 = "fixtures-0.8"
)

// Dir returns the root of the 0.5-era fixture set: $AHP_FIXTURES_DIR when
// set, else the first testdata/ahp/fixtures directory found in the working
// directory or one of its parents (tests run in their package's directory).
func Dir() (string, error) { return dirOf(set05) }

// Dir08 returns the root of the 0.8–1.0-era fixture set, found as Dir finds
// its set (testdata/ahp/fixtures-0.8, or $AHP_FIXTURES_08_DIR).
func Dir08() (string, error) { return dirOf(set08) }

// envOf names the environment variable that overrides set's root.
func envOf(set string) string {
	if set == set08 {
		return EnvDir08
	}
	return EnvDir
}

// dirOf finds testdata/ahp/<set> above the working directory, unless the
// set's variable (envOf) names its root.
func dirOf(set string) (string, error) {
	if d := os.Getenv(envOf(set)); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("ahpfixtures: working directory: %w", err)
	}
	for d := wd; ; {
		c := filepath.Join(d, "testdata", "ahp", set)
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("ahpfixtures: no testdata/ahp/%s above %s (set %s)", set, wd, EnvDir)
		}
		d = parent
	}
}

// setDir returns the directory of one kind of case in a set (sub is
// "reducers" or "round-trips"): <root>/<sub>, or the root itself when
// the set's variable points straight at one kind (it has no <sub> directory).
func setDir(set, sub string) (string, error) {
	root, err := dirOf(set)
	if err != nil {
		return "", err
	}
	d := filepath.Join(root, sub)
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		if os.Getenv(envOf(set)) != "" {
			return root, nil
		}
	}
	return d, nil
}

// load decodes every *.json file of set/sub, sorted by file name, into a T
// via decode; it fails when there are none.
func load[T any](set, sub string, decode func(file string, raw []byte) (T, error)) ([]T, error) {
	dir, err := setDir(set, sub)
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

// decodeReducer and decodeRoundTrip decode one case and name its file.
func decodeReducer(file string, raw []byte) (Reducer, error) {
	c := Reducer{File: file}
	err := json.Unmarshal(raw, &c)
	return c, err
}

func decodeRoundTrip(file string, raw []byte) (RoundTrip, error) {
	c := RoundTrip{File: file}
	err := json.Unmarshal(raw, &c)
	return c, err
}

// LoadReducers returns the 0.5-era reducer cases sorted by file name.
func LoadReducers() ([]Reducer, error) { return load(set05, "reducers", decodeReducer) }

// LoadRoundTrips returns the 0.5-era round-trip cases sorted by file name.
func LoadRoundTrips() ([]RoundTrip, error) { return load(set05, "round-trips", decodeRoundTrip) }

// LoadReducers08 returns the 0.8–1.0-era reducer cases sorted by file name.
func LoadReducers08() ([]Reducer, error) { return load(set08, "reducers", decodeReducer) }

// LoadRoundTrips08 returns the 0.8–1.0-era round-trip cases sorted by file
// name.
func LoadRoundTrips08() ([]RoundTrip, error) { return load(set08, "round-trips", decodeRoundTrip) }

// Reducers is LoadReducers for tests: it stops tb on any error.
func Reducers(tb testing.TB) []Reducer { tb.Helper(); return loadOrFatal(tb, LoadReducers) }

// RoundTrips is LoadRoundTrips for tests: it stops tb on any error.
func RoundTrips(tb testing.TB) []RoundTrip { tb.Helper(); return loadOrFatal(tb, LoadRoundTrips) }

// Reducers08 is LoadReducers08 for tests: it stops tb on any error.
func Reducers08(tb testing.TB) []Reducer { tb.Helper(); return loadOrFatal(tb, LoadReducers08) }

// RoundTrips08 is LoadRoundTrips08 for tests: it stops tb on any error.
func RoundTrips08(tb testing.TB) []RoundTrip { tb.Helper(); return loadOrFatal(tb, LoadRoundTrips08) }

// loadOrFatal runs load and stops tb on its error.
func loadOrFatal[T any](tb testing.TB, load func() ([]T, error)) []T {
	tb.Helper()
	cs, err := load()
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}
