package ahpfixtures

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDirWalksUpToProjectFixtures(t *testing.T) {
	t.Setenv(EnvDir, "")
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "ahp", "fixtures"))
	if d != want {
		t.Fatalf("Dir() = %s, want %s", d, want)
	}
	rs, err := LoadReducers()
	if err != nil || len(rs) == 0 {
		t.Fatalf("reducers: %d cases, err %v", len(rs), err)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i-1].File >= rs[i].File {
			t.Fatalf("not sorted: %s before %s", rs[i-1].File, rs[i].File)
		}
	}
	if rs[0].Reducer == "" || len(rs[0].Initial) == 0 || filepath.Ext(rs[0].File) != ".json" {
		t.Fatalf("case not decoded: %+v", rs[0])
	}
	rt, err := LoadRoundTrips()
	if err != nil || len(rt) == 0 || rt[0].Type == "" || len(rt[0].Input) == 0 {
		t.Fatalf("round trips: %d cases, err %v", len(rt), err)
	}
}

func TestEnvOverride(t *testing.T) {
	root := t.TempDir()
	must(t, os.Mkdir(filepath.Join(root, "reducers"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "reducers", "b.json"), []byte(`{"reducer":"chat","actions":[{}]}`), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "reducers", "a.json"), []byte(`{"reducer":"session"}`), 0o644))
	t.Setenv(EnvDir, root)
	rs, err := LoadReducers()
	if err != nil || len(rs) != 2 || rs[0].File != "a.json" || rs[1].Reducer != "chat" || len(rs[1].Actions) != 1 {
		t.Fatalf("got %+v err %v", rs, err)
	}
	// No round-trips/ below the root: the root itself is the set, and it
	// holds no *.json files.
	if _, err := LoadRoundTrips(); err == nil {
		t.Fatal("empty set accepted")
	}
	// The variable may name a set directly.
	t.Setenv(EnvDir, filepath.Join(root, "reducers"))
	if rs, err := LoadReducers(); err != nil || len(rs) != 2 {
		t.Fatalf("set dir: %d cases, err %v", len(rs), err)
	}
	must(t, os.WriteFile(filepath.Join(root, "reducers", "c.json"), []byte(`{"reducer":`), 0o644))
	if _, err := LoadReducers(); err == nil {
		t.Fatal("broken fixture accepted")
	}
	// The 0.8 set has its own override: the 0.5 one does not redirect it.
	if d, err := Dir08(); err != nil || d == os.Getenv(EnvDir) || filepath.Base(d) != "fixtures-0.8" {
		t.Fatalf("Dir08 with only %s set = %q, %v", EnvDir, d, err)
	}
	t.Setenv(EnvDir08, root)
	if d, err := Dir08(); err != nil || d != root {
		t.Fatalf("Dir08 with %s set = %q, %v", EnvDir08, d, err)
	}
}

func TestDecodeAndStripNulls(t *testing.T) {
	v, err := Decode([]byte(`{"a":1.50,"b":null,"c":[{"d":null,"e":2}],"f":{"g":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := StripNulls(v)
	want := map[string]any{"a": json.Number("3/2"), "c": []any{map[string]any{"e": json.Number("2")}}, "f": map[string]any{}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
	if _, err := Decode([]byte(`{`)); err == nil {
		t.Fatal("bad JSON accepted")
	}
	if a, b := Normalized(t, []byte(`{"x":null,"y":[1]}`)), JSON(t, []byte(`{"y":[1]}`)); !reflect.DeepEqual(a, b) {
		t.Fatalf("%v != %v", a, b)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestNumbersCompareByValue: the fixture comparison is by JSON value, so a
// number spelled 0 and 0.0 (or 1500 and 1.5e3) is the same value, and
// different values still differ.
func TestNumbersCompareByValue(t *testing.T) {
	same := [][2]string{{`{"a":0}`, `{"a":0.0}`}, {`[1500]`, `[1.5e3]`}, {`{"d":{"x":-2}}`, `{"d":{"x":-2.00}}`}}
	for _, p := range same {
		if a, b := Normalized(t, []byte(p[0])), Normalized(t, []byte(p[1])); !reflect.DeepEqual(a, b) {
			t.Errorf("%s and %s differ: %#v vs %#v", p[0], p[1], a, b)
		}
	}
	differ := [][2]string{{`{"a":0}`, `{"a":0.1}`}, {`[9007199254740993]`, `[9007199254740992]`}, {`{"a":1}`, `{"a":"1"}`}}
	for _, p := range differ {
		if a, b := Normalized(t, []byte(p[0])), Normalized(t, []byte(p[1])); reflect.DeepEqual(a, b) {
			t.Errorf("%s and %s compare equal", p[0], p[1])
		}
	}
}
