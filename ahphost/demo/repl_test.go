package demo

import (
	"strings"
	"testing"
)

// feedAll types each chunk into a new shell and returns its output.
func feedAll(s *replShell, chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString(s.feed(c))
	}
	return b.String()
}

func TestReplShellEditsAndAnswers(t *testing.T) {
	for _, c := range []struct {
		name   string
		chunks []string
		want   []string // in the output, in order
		not    string
		exit   int64 // -1: still running
	}{
		{"echo, typed key by key", []string{"e", "c", "h", "o", " ", "h", "i", "\r"}, []string{"echo hi", "\r\nhi\r\n" + replPrompt}, "", -1},
		{"backspace edits the line", []string{"echoo\x7f x\r"}, []string{"\b \b", "\r\nx\r\n"}, "echoo x\r\n", -1},
		{"arrow keys are skipped", []string{"ec\x1b[Aho\x1bOP y\r"}, []string{"\r\ny\r\n"}, "[A", -1},
		{"crlf is one enter", []string{"pwd\r\n"}, []string{"/home/demo/project\r\n" + replPrompt}, replPrompt + replPrompt, -1},
		{"ctrl+c drops the line", []string{"rm -rf /\x03pwd\r"}, []string{"^C\r\n", "/home/demo/project"}, "not found", -1},
		{"unknown command", []string{"make\r"}, []string{"demo-sh: make: command not found"}, "", -1},
		{"ls of the virtual project", []string{"ls cmd/app\r", "ls nope\r"}, []string{"main.go\r\n", "cannot access 'nope'"}, "", -1},
		{"seq bounds", []string{"seq 3\r", "seq 5000\r"}, []string{"1\r\n2\r\n3\r\n", "seq: usage"}, "", -1},
		{"history", []string{"echo a\r", "whoami\r", "history\r"}, []string{"    1  echo a\r\n    2  whoami\r\n    3  history"}, "", -1},
		{"exit code", []string{"exit 3\r", "echo after\r"}, nil, "after", 3},
		{"ctrl+d on an empty line", []string{"\x04"}, []string{"exit\r\n"}, "", 0},
		{"ctrl+d with text does nothing", []string{"ab\x04"}, nil, "exit", -1},
		{"control characters are not echoed", []string{"echo a\x01\x02b\r"}, []string{"\r\nab\r\n"}, "\x01", -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &replShell{}
			out := feedAll(s, c.chunks...)
			at := 0
			for _, w := range c.want {
				i := strings.Index(out[at:], w)
				if i < 0 {
					t.Fatalf("%q not in output (after %d): %q", w, at, out)
				}
				at += i + len(w)
			}
			if c.not != "" && strings.Contains(out, c.not) {
				t.Fatalf("%q in output: %q", c.not, out)
			}
			switch {
			case c.exit < 0 && s.exit != nil:
				t.Fatalf("exited with %d", *s.exit)
			case c.exit >= 0 && (s.exit == nil || *s.exit != c.exit):
				t.Fatalf("exit %v, want %d", s.exit, c.exit)
			}
		})
	}
}

func TestReplShellBoundsTheLine(t *testing.T) {
	s := &replShell{}
	out := s.feed(strings.Repeat("x", replMaxLine+10))
	if len(s.line) != replMaxLine || strings.Count(out, "\a") != 10 {
		t.Fatalf("line %d bytes, %d bells", len(s.line), strings.Count(out, "\a"))
	}
}

func TestReplShellClearKeepsOnlyWhatFollows(t *testing.T) {
	s := &replShell{}
	out := s.feed("echo a\rclear\recho b\r")
	if s.clearAt < 0 || strings.Contains(out[s.clearAt:], "\r\na\r\n") || !strings.Contains(out[s.clearAt:], "\r\nb\r\n") {
		t.Fatalf("clear at %d of %q", s.clearAt, out)
	}
}
