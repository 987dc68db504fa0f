package demo

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// shortPrompt returns the prompt on one line, cut to max runes with "…".
func shortPrompt(text string, max int) string {
	one := strings.Join(strings.Fields(text), " ")
	if one == "" {
		return "(an empty message)"
	}
	r := []rune(one)
	if len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return one
}

// inlineCode quotes s as markdown inline code, using a fence longer than any
// backtick run inside it.
func inlineCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// identifier turns the first meaningful words of the prompt into a
// lowerCamelCase identifier for the example code (e.g. "fix login bug" →
// "fixLoginBug"); "handleRequest" when nothing usable is left.
func identifier(text string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if stopWords[w] || len(w) < 2 {
			continue
		}
		words = append(words, w)
		if len(words) == 3 {
			break
		}
	}
	if len(words) == 0 {
		return "handleRequest"
	}
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			if w[0] >= '0' && w[0] <= '9' {
				b.WriteString("do")
				w = string(unicode.ToUpper(rune(w[0]))) + w[1:]
			}
			b.WriteString(w)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// stopWords are skipped when naming things after the prompt.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "in": true, "on": true, "for": true,
	"and": true, "or": true, "is": true, "it": true, "me": true, "my": true, "can": true, "you": true,
	"please": true, "how": true, "do": true, "what": true, "why": true, "with": true, "this": true,
	"that": true, "be": true, "we": true, "our": true, "i": true, "should": true, "could": true, "would": true,
}

// listing is a parsed list_files result used by the answers.
type listing struct {
	entries []listEntry
	more    int    // entries the tool left out ("… N more entries")
	err     string // set when the tool failed
}

// newListing parses a list_files result (out) or its failure.
func newListing(out, failure string) listing {
	return listing{entries: parseListing(out), more: moreEntries(out), err: failure}
}

// total is the number of entries in the directory, listed or not.
func (l listing) total() int { return len(l.entries) + l.more }

// moreEntries returns N from ListFiles' "… N more entries" line (0 if none).
func moreEntries(out string) int {
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(line, "… ")
		if !ok {
			continue
		}
		num, ok := strings.CutSuffix(rest, " more entries")
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(num); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// listEntry is one listing line.
type listEntry struct {
	name, kind, size string
}

// parseListing reads ListFiles output back into entries.
func parseListing(out string) []listEntry {
	var es []listEntry
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "…") || strings.HasPrefix(line, "("):
			continue
		case strings.HasSuffix(line, "/"):
			es = append(es, listEntry{name: line, kind: "directory", size: "—"})
		case strings.HasSuffix(line, "@"):
			es = append(es, listEntry{name: strings.TrimSuffix(line, "@"), kind: "symlink", size: "—"})
		default:
			name, size, ok := strings.Cut(line, "  (")
			if !ok {
				es = append(es, listEntry{name: line, kind: "other", size: "—"})
				continue
			}
			es = append(es, listEntry{name: name, kind: "file", size: strings.TrimSuffix(size, ")")})
		}
	}
	return es
}

// mdCell escapes text for a markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(s)
}

// codeSample is one fenced example in a given language.
type codeSample struct {
	lang string
	body func(name, prompt string) string
}

// codeSamples are the fenced examples a plain answer chooses from.
var codeSamples = []codeSample{
	{langGo, func(name, prompt string) string {
		return fmt.Sprintf(`// %s handles: %s
func %s(ctx context.Context, in Input) (Output, error) {
	if err := in.Validate(); err != nil {
		return Output{}, fmt.Errorf("%s: %%w", err)
	}
	out, err := process(ctx, in)
	if err != nil {
		return Output{}, fmt.Errorf("%s: process: %%w", err)
	}
	return out, nil
}`, name, prompt, name, name, name)
	}},
	{langPython, func(name, prompt string) string {
		return fmt.Sprintf(`def %s(data: dict) -> dict:
    """%s"""
    if not data:
        raise ValueError("%s: empty input")
    result = {key: value for key, value in data.items() if value is not None}
    return result`, snake(name), strings.ReplaceAll(prompt, `"""`, `'''`), snake(name))
	}},
	{langTypeScript, func(name, prompt string) string {
		return fmt.Sprintf(`// %s
export async function %s(input: Input): Promise<Output> {
  const checked = validate(input);
  const result = await process(checked);
  return { ...result, done: true };
}`, prompt, name)
	}},
	{langRust, func(name, prompt string) string {
		return fmt.Sprintf(`/// %s
pub fn %s(input: &Input) -> Result<Output, Error> {
    input.validate()?;
    let out = process(input)?;
    Ok(out)
}`, prompt, snake(name))
	}},
	{langBash, func(name, prompt string) string {
		return fmt.Sprintf(`#!/usr/bin/env bash
# %s
set -euo pipefail
%s() {
  local target="${1:-.}"
  find "$target" -type f -name '*.go' | sort | head -n 20
}
%s "$@"`, prompt, snake(name), snake(name))
	}},
	{langSQL, func(name, prompt string) string {
		return fmt.Sprintf(`-- %s: %s
SELECT id, name, updated_at
FROM items
WHERE deleted_at IS NULL
  AND updated_at > now() - interval '7 days'
ORDER BY updated_at DESC
LIMIT 20;`, snake(name), strings.ReplaceAll(prompt, "\n", " "))
	}},
}

// snake converts lowerCamelCase to snake_case.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// chunkWords splits text into streaming deltas of about n words each,
// keeping every byte (whitespace included) so the deltas concatenate back
// to text exactly.
func chunkWords(text string, n int) []string {
	var out []string
	start, words := 0, 0
	inWord := false
	for i, r := range text {
		space := r == ' ' || r == '\n' || r == '\t'
		if !space && !inWord {
			if words == n {
				out = append(out, text[start:i])
				start, words = i, 0
			}
			words++
		}
		inWord = !space
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
