package agents

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnterminated is wrapped by Split's error for a quote that is never
// closed (or a command line ending in a lone backslash).
var ErrUnterminated = errors.New("unterminated quote")

// Split cuts a command line into words as a POSIX shell would without
// expanding anything: blanks separate words; '…' keeps everything
// literally; "…" keeps everything but a backslash before $ ` " \ or a
// newline; a backslash outside quotes keeps the next character (and a
// backslash-newline joins lines). $VAR, ~, globs, ;, | and redirections
// are plain characters: no shell ever runs the command.
func Split(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 >= len(line) {
				return nil, fmt.Errorf("split %q: a backslash ends the line: %w", line, ErrUnterminated)
			}
			i++
			if line[i] != '\n' {
				cur.WriteByte(line[i])
				inWord = true
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("split %q: the single quote at byte %d is never closed: %w", line, i, ErrUnterminated)
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("$`\"\\\n", line[j+1]) >= 0 {
					j++
					if line[j] != '\n' {
						cur.WriteByte(line[j])
					}
					continue
				}
				cur.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, fmt.Errorf("split %q: the double quote at byte %d is never closed: %w", line, i, ErrUnterminated)
			}
			i = j
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	for _, w := range words {
		if strings.IndexByte(w, 0) >= 0 {
			return nil, fmt.Errorf("split %q: a word holds a NUL byte", line)
		}
	}
	return words, nil
}

// Join quotes words so that Split gives them back: plain words as they
// are, others in single quotes.
func Join(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quote(w)
	}
	return strings.Join(out, " ")
}

// quote returns w, single-quoted unless it is made of safe characters.
func quote(w string) string {
	if w == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=@%+,", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
