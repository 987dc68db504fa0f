package filecomplete

import (
	"bufio"
	"os"
	"path"
	"regexp"
	"strings"
)

// ignoreRule is one .gitignore pattern, compiled.
type ignoreRule struct {
	re      *regexp.Regexp
	neg     bool // "!pattern": re-includes
	dirOnly bool // "pattern/": matches directories only
}

// ignorer holds the rules that apply in a tree, in the order git reads
// them (a later match wins).
type ignorer struct {
	rules []ignoreRule
}

// maxIgnoreBytes bounds one .gitignore file read.
const maxIgnoreBytes = 256 << 10

// load adds the rules of the ignore file at file, whose patterns are
// relative to base (slash-separated, "" = the root).
func (g *ignorer) load(file, base string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(&limitReader{f, maxIgnoreBytes})
	for sc.Scan() {
		if r, ok := compileRule(sc.Text(), base); ok {
			g.rules = append(g.rules, r)
		}
	}
}

// limitReader reads at most n bytes.
type limitReader struct {
	f *os.File
	n int
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, os.ErrClosed
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= n
	return n, err //nolint:wrapcheck // a reader's own error
}

// ignored reports whether rel (slash-separated, relative to the root) is
// ignored.
func (g *ignorer) ignored(rel string, dir bool) bool {
	out := false
	for _, r := range g.rules {
		if r.dirOnly && !dir {
			continue
		}
		if r.re.MatchString(rel) {
			out = !r.neg
		}
	}
	return out
}

// compileRule compiles one .gitignore line relative to base.
func compileRule(line, base string) (ignoreRule, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if strings.HasPrefix(line, "!") {
		r.neg, line = true, line[1:]
	} else if strings.HasPrefix(line, `\`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return ignoreRule{}, false
	}
	// A slash at the start or in the middle anchors the pattern to the
	// directory of its .gitignore; otherwise it matches at any depth.
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	prefix := ""
	if base != "" {
		prefix = regexp.QuoteMeta(base) + "/"
	}
	body := globRegexp(line)
	var expr string
	if anchored {
		expr = "^" + prefix + body + "$"
	} else {
		expr = "^" + prefix + "(?:.*/)?" + body + "$"
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return ignoreRule{}, false
	}
	r.re = re
	return r, true
}

// globRegexp translates a gitignore glob into a regexp body.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "/**") && i+3 == len(g):
			b.WriteString("(?:/.*)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			if j := strings.IndexByte(g[i+1:], ']'); j >= 0 {
				class := g[i+1 : i+1+j]
				if strings.HasPrefix(class, "!") {
					class = "^" + class[1:]
				}
				b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
				i += j + 1
			} else {
				b.WriteString(`\[`)
			}
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(string(g[i])))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// join joins a base and a name slash-wise ("" base = the name).
func join(base, name string) string {
	if base == "" {
		return name
	}
	return path.Join(base, name)
}
