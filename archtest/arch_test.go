package archtest

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/ahptui/ahptui"

// allowed lists, for each package of ours, the packages of ours its non-test
// files may import. It is docs/ARCHITECTURE.md's table in code.
var allowed = map[string][]string{
	"":                             {"cli"}, // main only hands the process to the CLI
	"segment":                      {"internal/jsonscan"},
	"ahpwire":                      {"internal/textbuf", "internal/jsonscan", "internal/pvec"},
	"ahpstate":                     {"ahpwire"},
	"ahpclient":                    {"segment", "ahpwire", "internal/fifo", "internal/jsonscan", "internal/redact", "internal/filelock", "internal/wseof"},
	"ahphost":                      {"segment", "ahpwire", "ahpstate", "ahphost/agent", "ahphost/durable", "internal/fifo", "internal/jsonscan", "internal/redact", "internal/wseof"},
	"ahphost/durable":              {},
	"ahphost/demo":                 {"ahpwire", "ahphost/agent"},
	"ahphost/agent":                {"ahpwire"},
	"ahphost/acp":                  {"ahpwire", "ahphost/agent", "internal/redact", "internal/jsonscan", "internal/filelock", "internal/filecomplete", "internal/proctab"},
	"internal/fakeacp":             {},
	"internal/fakeacp/cmd/fakeacp": {},
	"reducer":                      {"ahpwire", "ahpstate", "internal/textbuf", "internal/pvec"},
	"render":                       {"reducer", "ahpwire", "internal/bytesize"},
	"keymap":                       {},
	"tui":                          {"render", "keymap", "reducer", "ahpclient", "ahpwire", "ahpstate", "internal/redact", "resload", "tui/app", "tui/chat", "tui/picker", "tui/dialog", "tui/uikit"},
	"tui/app":                      {"render", "keymap", "ahpclient", "ahpwire", "ahpstate", "internal/redact", "internal/safefile", "resload", "tui/dialog", "tui/uikit"},
	"tui/chat":                     {"render", "keymap", "reducer", "ahpclient", "ahpwire", "ahpstate", "tui/app", "tui/uikit"},
	"tui/picker":                   {"render", "keymap", "ahpwire", "tui/app", "tui/dialog", "tui/uikit"},
	"tui/dialog":                   {"render", "keymap", "ahpwire", "tui/uikit"},
	"tui/uikit":                    {"render"},
	"resload":                      {"internal/bytesize"},
	"internal/bytesize":            {},
	"internal/wseof":               {},
	"archtest":                     {},

	"internal/ahpfixtures":  {},
	"internal/textbuf":      {},
	"internal/pvec":         {},
	"internal/fifo":         {},
	"internal/proctab":      {},
	"internal/filelock":     {"internal/safefile"},
	"internal/safefile":     {},
	"internal/filecomplete": {},
	"internal/redact":       {},
	"cli":                   {"ahpclient", "ahphost", "ahphost/demo", "ahphost/acp", "ahpwire", "ahpstate", "reducer", "render", "keymap", "tui", "tui/app", "internal/redact", "internal/safefile", "internal/config", "internal/agents", "internal/proctab"},
	"internal/config":       {},
	"internal/testkit":      {},
	"internal/jsonscan":     {},
	"internal/agents":       {"internal/config"},

	"internal/mockllm":               {},
	"internal/mockllm/cmd/mockllm":   {"internal/mockanthropic", "internal/mockgemini", "internal/mockopenai"},
	"internal/mockanthropic":         {"internal/mockllm"},
	"internal/mockgemini":            {"internal/mockllm"},
	"internal/mockopenai":            {"internal/mockllm"},
	"internal/tmuxctl":               {},
	"internal/tmuxctl/cmd/echoprobe": {"internal/tmuxctl"},
}

// pure packages may not import packages that do I/O or read clocks/randomness.
var pure = map[string][]string{
	"segment":           {"net", "net/http", "os", "os/exec", "github.com/coder/websocket", "math/rand", "math/rand/v2"},
	"internal/jsonscan": {"net", "net/http", "os", "os/exec", "github.com/coder/websocket", "math/rand", "math/rand/v2", "crypto/rand"},
	"ahpwire":           {"net", "net/http", "os", "os/exec", "github.com/coder/websocket", "math/rand", "math/rand/v2", "crypto/rand"},
	"ahpstate":          {"net", "net/http", "os", "os/exec", "github.com/coder/websocket", "math/rand", "math/rand/v2", "crypto/rand"},
	"reducer":           {"net", "net/http", "os", "os/exec", "github.com/coder/websocket", "math/rand", "math/rand/v2", "crypto/rand", "charm.land/bubbletea/v2", "charm.land/lipgloss/v2"},
}

// tuiLayers is the tui's layering, floor by floor: which tui packages each
// package may import. Nothing but cli imports tui; the screens (tui/chat,
// tui/picker) import neither tui nor each other, only what screens share
// (tui/app) and the leaves below it (tui/dialog, tui/uikit).
var tuiLayers = map[string][]string{
	"cli":        {"tui", "tui/app"},
	"tui":        {"tui/app", "tui/chat", "tui/picker", "tui/dialog", "tui/uikit"},
	"tui/chat":   {"tui/app", "tui/uikit"},
	"tui/picker": {"tui/app", "tui/dialog", "tui/uikit"},
	"tui/app":    {"tui/dialog", "tui/uikit"},
	"tui/dialog": {"tui/uikit"},
	"tui/uikit":  {},
}

// TestTuiLayers holds the table to the tui's layering (tuiLayers).
func TestTuiLayers(t *testing.T) {
	for pkg, deps := range allowed {
		for _, d := range deps {
			if d != "tui" && !strings.HasPrefix(d, "tui/") {
				continue
			}
			ok := false
			for _, l := range tuiLayers[pkg] {
				ok = ok || l == d
			}
			if !ok {
				t.Errorf("%q may import %q: the tui's layers (tuiLayers) forbid it", pkg, d)
			}
		}
	}
	for _, screen := range []string{"tui/chat", "tui/picker"} {
		for _, d := range tuiLayers[screen] {
			if d == "tui" || d == "tui/chat" || d == "tui/picker" {
				t.Errorf("screen %q may import %q: screens import neither tui nor each other", screen, d)
			}
		}
	}
}

func TestImportRules(t *testing.T) {
	root := ".."
	pkgs := map[string]map[string]bool{} // rel dir -> imports
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		if pkgs[rel] == nil {
			pkgs[rel] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			pkgs[rel][strings.Trim(imp.Path.Value, `"`)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	if len(pkgs) < 2 {
		t.Fatalf("found only %d packages; walk is broken", len(pkgs))
	}
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		rules, ok := allowed[dir]
		if !ok {
			t.Errorf("package %q is not in the architecture table (docs/ARCHITECTURE.md and archtest)", dir)
			continue
		}
		for imp := range pkgs[dir] {
			for _, bad := range pure[dir] {
				if imp == bad {
					t.Errorf("pure package %q imports %q", dir, imp)
				}
			}
			if !strings.HasPrefix(imp, module+"/") || (len(rules) == 1 && rules[0] == "*") {
				continue
			}
			target := strings.TrimPrefix(imp, module+"/")
			ok := false
			for _, a := range rules {
				if a == target {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%q imports %q: not allowed by docs/ARCHITECTURE.md", dir, target)
			}
		}
	}
}
