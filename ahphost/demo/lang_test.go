package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPromptLanguage(t *testing.T) {
	cases := []struct{ prompt, want string }{
		{"how do I structure a go project?", langGo},
		{"Golang error handling", langGo},
		{"why does main.go not build", langGo},
		{"write it in Rust please", langRust},
		{"cargo build fails", langRust},
		{"parse CSV in Python", langPython},
		{"TypeScript generics", langTypeScript},
		{"a JavaScript debounce", langTypeScript},
		{"convert this to TS", langTypeScript},
		{"node.js streams", langTypeScript},
		{"an SQL query for the last week", langSQL},
		{"optimise my PostgreSQL index", langSQL},
		{"a bash loop over files", langBash},
		{"shell script to clean up", langBash},
		{"port this rust code to go", langRust}, // the first mention wins
		{"go ahead and fix the tests", ""},      // "go" the verb
		{"how should I go about caching?", ""},
		{"fix the login bug", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := promptLanguage(c.prompt); got != c.want {
			t.Errorf("promptLanguage(%q) = %q, want %q", c.prompt, got, c.want)
		}
	}
}

func TestSampleFor(t *testing.T) {
	goProject := []listEntry{{name: "README.md", kind: "file"}, {name: "go.mod", kind: "file"}}
	rustProject := []listEntry{{name: "Cargo.toml", kind: "file"}, {name: "src/", kind: "directory"}}
	cases := []struct {
		prompt string
		es     []listEntry
		want   string
	}{
		{"how do I structure a go project?", nil, langGo},
		{"how do I structure a go project?", rustProject, langGo}, // the prompt wins over the project
		{"add retries to the client", goProject, langGo},
		{"add retries to the client", rustProject, langRust},
		{"an sql report", goProject, langSQL},
		// A directory named go.mod is not a Go project.
		{"some words", []listEntry{{name: "go.mod/", kind: "directory"}}, ""},
	}
	for _, c := range cases {
		seed := promptHash(c.prompt)
		got := sampleFor(c.prompt, seed, c.es).lang
		want := c.want
		if want == "" {
			want = pick(seed, 5, codeSamples).lang
		}
		if got != want {
			t.Errorf("sampleFor(%q, %v) = %q, want %q", c.prompt, c.es, got, want)
		}
		if again := sampleFor(c.prompt, seed, c.es).lang; again != got {
			t.Errorf("sampleFor(%q) not deterministic: %q then %q", c.prompt, got, again)
		}
	}
	// Without a keyword or a project the hash spreads prompts over every
	// language, SQL included.
	seen := map[string]bool{}
	for i := range 200 {
		p := fmt.Sprintf("improve part %d of the thing", i)
		seen[sampleFor(p, promptHash(p), nil).lang] = true
	}
	if len(seen) != len(codeSamples) {
		t.Errorf("hash choice reached %d of %d languages: %v", len(seen), len(codeSamples), seen)
	}
}

func TestPlainAnswerLanguageFromPrompt(t *testing.T) {
	dir := t.TempDir() // no build files: only the prompt decides
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for prompt, fence := range map[string]string{
		"how do I structure a go project?":     "```go\n",
		"how do I structure a rust project?":   "```rust\n",
		"how do I structure a python project?": "```python\n",
		"a typescript version please":          "```typescript\n",
		"write the sql for it":                 "```sql\n",
		"a shell one-liner":                    "```bash\n",
	} {
		rec, err := runTurn(t, testAgent(dir), "t1", prompt, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if md := markdownText(rec.actions); !strings.Contains(md, fence) {
			t.Errorf("answer to %q has no %q fence:\n%s", prompt, strings.TrimSpace(fence), md)
		}
	}
}

func TestListingSummary(t *testing.T) {
	file := func(n string) listEntry { return listEntry{name: n, kind: "file", size: "1 bytes"} }
	dir := func(n string) listEntry { return listEntry{name: n, kind: "directory", size: "—"} }
	cases := []struct {
		l    listing
		want string
	}{
		{listing{err: "boom"}, "I could not list the working directory (boom)"},
		{listing{}, "The working directory is empty"},
		{listing{entries: []listEntry{file("a.go")}}, "has a single entry, `a.go`, so"},
		{listing{entries: []listEntry{file("a.go"), file("b.go")}}, "has **2** entries: `a.go` and `b.go`. I'll"},
		{listing{entries: []listEntry{dir("cmd/"), file("a.go"), file("b.go")}},
			"has **3** entries (1 directory, 2 files): `cmd/`, `a.go` and `b.go`. I'll"},
		{listing{entries: []listEntry{dir("cmd/"), dir("internal/"), file("a.go"), file("b.go"), file("c.go")}},
			"has **5** entries (2 directories, 3 files): `cmd/`, `internal/`, `a.go` and 2 others. I'll"},
		{listing{entries: []listEntry{file("a"), file("b"), file("c"), file("d")}},
			"has **4** entries: `a`, `b`, `c` and 1 other. I'll"},
		// Cut listing: the total counts what the tool left out; the kinds
		// of the unlisted entries are unknown, so no breakdown.
		{listing{entries: []listEntry{dir("a/"), file("b"), file("c")}, more: 297},
			"has **300** entries: `a/`, `b`, `c` and 297 others. I'll"},
	}
	for _, c := range cases {
		if got := listingSummary(c.l); !strings.Contains(got, c.want) {
			t.Errorf("listingSummary(%+v) = %q, want it to contain %q", c.l, got, c.want)
		}
	}
}

func TestPlainAnswerManyEntries(t *testing.T) {
	dir := t.TempDir()
	const n = MaxListEntries + 50
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := mustList(t, dir)
	if got := moreEntries(out); got != 50 {
		t.Fatalf("moreEntries = %d, want 50 (listing tail %q)", got, out[len(out)-40:])
	}
	rec, err := runTurn(t, testAgent(dir), "t1", "tidy up", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := markdownText(rec.actions)
	for _, want := range []string{
		fmt.Sprintf("has **%d** entries: `f000.txt`, `f001.txt`, `f002.txt` and %d others.", n, n-3),
		fmt.Sprintf("_…and %d more entries not shown._", n-6),
	} {
		if !strings.Contains(md, want) {
			t.Errorf("answer lacks %q:\n%s", want, md)
		}
	}
	rec, err = runTurn(t, testAgent(dir), "t1", "/demo tools", false, policy{}.decider())
	if err != nil {
		t.Fatal(err)
	}
	if md := markdownText(rec.actions); !strings.Contains(md, fmt.Sprintf("| `list_files` | %d entries |", n)) {
		t.Errorf("/demo tools summary does not count every entry:\n%s", md)
	}
}
