package demo

import "strings"

// Code-sample languages (the fence tags of codeSamples).
const (
	langGo         = "go"
	langPython     = "python"
	langTypeScript = "typescript"
	langRust       = "rust"
	langBash       = "bash"
	langSQL        = "sql"
)

// langKeywords maps prompt words to the sample language they ask for.
var langKeywords = map[string]string{
	"go": langGo, "golang": langGo, "goroutine": langGo, "goroutines": langGo, "gofmt": langGo,
	"rust": langRust, "cargo": langRust, "rustc": langRust, "rs": langRust,
	"python": langPython, "py": langPython, "pip": langPython, "pytest": langPython, "django": langPython, "flask": langPython,
	"typescript": langTypeScript, "javascript": langTypeScript, "js": langTypeScript, "ts": langTypeScript,
	"tsx": langTypeScript, "jsx": langTypeScript, "node": langTypeScript, "nodejs": langTypeScript,
	"npm": langTypeScript, "deno": langTypeScript, "react": langTypeScript,
	"sql": langSQL, "postgres": langSQL, "postgresql": langSQL, "mysql": langSQL, "sqlite": langSQL,
	"bash": langBash, "shell": langBash, "sh": langBash, "zsh": langBash, "posix": langBash,
}

// goNotLang are words that make a preceding "go" the English verb ("go
// ahead", "go about it"), not the language.
var goNotLang = map[string]bool{
	"ahead": true, "about": true, "through": true, "back": true, "away": true, "over": true,
	"on": true, "wrong": true, "for": true, "with": true, "into": true, "further": true,
}

// promptLanguage returns the sample language the prompt names (the first
// one mentioned wins), or "" when it names none.
func promptLanguage(prompt string) string {
	words := strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	for i, w := range words {
		lang, ok := langKeywords[w]
		if !ok {
			continue
		}
		if w == "go" && i+1 < len(words) && goNotLang[words[i+1]] {
			continue
		}
		return lang
	}
	return ""
}

// projectMarkers map a top-level file to the project's main language.
var projectMarkers = []struct{ file, lang string }{
	{"go.mod", langGo},
	{"Cargo.toml", langRust},
	{"package.json", langTypeScript},
	{"tsconfig.json", langTypeScript},
	{"pyproject.toml", langPython},
	{"requirements.txt", langPython},
	{"setup.py", langPython},
}

// projectLanguage returns the language of the project in the listing (by
// its build files, in projectMarkers order), or "".
func projectLanguage(es []listEntry) string {
	for _, m := range projectMarkers {
		for _, e := range es {
			if e.kind == "file" && e.name == m.file {
				return m.lang
			}
		}
	}
	return ""
}

// sampleFor returns the code sample of a plain answer: in the language the
// prompt names, else the language of the project in the working directory,
// else one chosen by the seed. All three are deterministic.
func sampleFor(prompt string, seed uint64, es []listEntry) codeSample {
	lang := promptLanguage(prompt)
	if lang == "" {
		lang = projectLanguage(es)
	}
	for _, s := range codeSamples {
		if s.lang == lang {
			return s
		}
	}
	return pick(seed, 5, codeSamples)
}
