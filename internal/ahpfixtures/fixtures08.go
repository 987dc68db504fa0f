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

// Dir08 returns the root of the 0.8–1.0-era fixture set: $AHP_FIXTURES_DIR
// when set (the same override as Dir, so another directory of the same
// layout can be checked), else the first testdata/ahp/fixtures-0.8
// directory found in the working directory or one of its parents.
func Dir08() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("ahpfixtures: working directory: %w", err)
	}
	for d := wd; ; {
		c := filepath.Join(d, "testdata", "ahp", "fixtures-0.8")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("ahpfixtures: no testdata/ahp/fixtures-0.8 above %s (set %s)", wd, EnvDir)
		}
		d = parent
	}
}

// LoadReducers08 returns the reducer cases of the 0.8–1.0-era set (or of
// $AHP_FIXTURES_DIR), sorted by file name.
func LoadReducers08() ([]Reducer, error) {
	root, err := Dir08()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, "reducers")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = root
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err == nil && len(files) == 0 {
		err = errors.New("no *.json files")
	}
	if err != nil {
		return nil, fmt.Errorf("ahpfixtures: no reducer fixtures in %s: %w", dir, err)
	}
	sort.Strings(files)
	out := make([]Reducer, 0, len(files))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("ahpfixtures: %w", err)
		}
		c := Reducer{File: filepath.Base(f)}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("ahpfixtures: %s: %w", f, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Reducers08 is LoadReducers08 for tests: it stops tb on any error.
func Reducers08(tb testing.TB) []Reducer {
	tb.Helper()
	cs, err := LoadReducers08()
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}

// LoadRoundTrips08 returns the round-trip cases of the 0.8–1.0-era set (or
// of $AHP_FIXTURES_DIR), sorted by file name.
func LoadRoundTrips08() ([]RoundTrip, error) {
	root, err := Dir08()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, "round-trips")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err == nil && len(files) == 0 {
		err = errors.New("no *.json files")
	}
	if err != nil {
		return nil, fmt.Errorf("ahpfixtures: no round-trip fixtures in %s: %w", dir, err)
	}
	sort.Strings(files)
	out := make([]RoundTrip, 0, len(files))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("ahpfixtures: %w", err)
		}
		c := RoundTrip{File: filepath.Base(f)}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("ahpfixtures: %s: %w", f, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// RoundTrips08 is LoadRoundTrips08 for tests: it stops tb on any error.
func RoundTrips08(tb testing.TB) []RoundTrip {
	tb.Helper()
	cs, err := LoadRoundTrips08()
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}
