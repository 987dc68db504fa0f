package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// paletteFile is the only non-test Go file allowed to name colours (issue 6:
// "All colours come from one Styles value ... no colour literals elsewhere").
const paletteFile = "render/styles.go"

// colourLiteral matches the ways Go code can name a colour: lipgloss
// constructors, image/color composite literals, and hex strings such as
// "#FFAF00" or "#fa0".
var colourLiteral = regexp.MustCompile(
	`lipgloss\.(Color|ANSIColor|RGBColor)\(|color\.N?RGBA(64)?\{|"#[0-9A-Fa-f]{3}([0-9A-Fa-f]{3})?([0-9A-Fa-f]{2})?"`)

// colourLiterals returns "line: text" for every colour literal in src.
func colourLiterals(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		code := l
		if j := strings.Index(code, "//"); j >= 0 && !strings.Contains(code[:j], `"`) {
			code = code[:j] // a comment may talk about colours
		}
		if colourLiteral.MatchString(code) {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

func TestColourLiteralsDetector(t *testing.T) {
	for _, src := range []string{
		`x := lipgloss.Color("#FFAF00")`,
		`bg := color.RGBA{R: 1, A: 255}`,
		`const c = "#fa0"`,
		`s.Foreground(lipgloss.ANSIColor(3))`,
	} {
		if len(colourLiterals(src)) != 1 {
			t.Errorf("detector misses %q", src)
		}
	}
	for _, src := range []string{
		`// lipgloss.Color("#FFAF00") in a comment`,
		`fg(p.Warn)`,
		`s := "#issue"`,
		`if c.Color != nil {`,
	} {
		if got := colourLiterals(src); len(got) != 0 {
			t.Errorf("detector flags %q: %v", src, got)
		}
	}
}

// TestNoColourLiteralsOutsidePalette walks every non-test Go file of the
// module and fails on a colour literal anywhere but render/styles.go.
func TestNoColourLiteralsOutsidePalette(t *testing.T) {
	files := 0
	root := ".." // the module root, seen from archtest
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		found := colourLiterals(string(src))
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if filepath.ToSlash(rel) == paletteFile {
			if len(found) == 0 {
				t.Errorf("%s names no colours: has the palette moved? update paletteFile", paletteFile)
			}
			return nil
		}
		for _, f := range found {
			t.Errorf("%s: colour literal outside %s (derive it from render.Palette): %s", path, paletteFile, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("scanned only %d Go files; is the walk rooted at the module?", files)
	}
}
