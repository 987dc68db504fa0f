package render

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// MaxTitleColumns caps a window title: the title of a 2 MiB session name
// must not become a 2 MB OSC 2 sequence.
const MaxTitleColumns = 120

// Head returns the prefix of server text s that can fill maxCols display
// columns once sanitised (all of s when it is short): a line that is cut
// to a width anyway is sanitised from Head, so a huge input costs no more
// than a short one. The cut never splits a rune.
func Head(s string, maxCols int) string {
	// Every column of output comes from at most one rune of input, except
	// escape sequences, which are dropped whole; 16 bytes per column is
	// room for both without reading megabytes.
	if limit := 16*max(maxCols, 1) + 64; len(s) > limit {
		s = s[:limit]
		// Do not leave half a rune at the cut (it would show as U+FFFD).
		for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
			if utf8.RuneStart(s[i]) {
				if !utf8.FullRuneInString(s[i:]) {
					s = s[:i]
				}
				break
			}
		}
	}
	return s
}

// SanitizeLine is [Sanitize] for text that must stay on one short line (a
// window title, a status-line field): after Sanitize, newlines become
// spaces and the result is cut to maxCols display columns with "…". Only a
// bounded prefix of s is read, so a huge input costs no more than a short
// one. The result has no ESC, no C0 or C1 control and no bidirectional
// control (those show as tags such as "[U+202E]", as on screen).
func SanitizeLine(s string, maxCols int) string {
	if maxCols < 1 {
		return ""
	}
	out := strings.ReplaceAll(Sanitize(Head(s, maxCols)), "\n", " ")
	if ansi.StringWidth(out) > maxCols {
		out = ansi.Truncate(out, maxCols, "…")
	}
	return out
}
