package ahpstate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestTerminalOutputIsCapped: a chatty or hostile command's output is held
// within MaxTerminalOutputBytes, the oldest dropped, the newest kept, and
// the content says so (issue 24 item 6).
func TestTerminalOutputIsCapped(t *testing.T) {
	var s ahpwire.TerminalState
	chunk := strings.Repeat("0123456789abcdef", 4<<10) + "\n" // 64 KiB + 1
	var states []ahpwire.TerminalState
	for i := range 3 * MaxTerminalOutputBytes / len(chunk) {
		s = ReduceTerminal(s, &ahpwire.TerminalData{Data: chunk})
		if i == 3 {
			states = append(states, s)
		}
		if n := len(s.Output()); n > MaxTerminalOutputBytes+len(ahpwire.TerminalDroppedMarker) {
			t.Fatalf("after %d chunks the terminal holds %d bytes", i+1, n)
		}
	}
	s = ReduceTerminal(s, &ahpwire.TerminalData{Data: "LAST"})
	out := s.Output()
	if !s.OutputDropped() || !strings.HasSuffix(out, "LAST") || !strings.HasPrefix(out, ahpwire.TerminalDroppedMarker) {
		t.Fatalf("dropped=%v, head %q, tail %q", s.OutputDropped(), out[:40], out[len(out)-10:])
	}
	if len(states[0].Output()) != 4*len(chunk) || states[0].OutputDropped() {
		t.Fatal("an earlier state's content changed")
	}
	// Many tiny commands: the parts are capped too.
	var c ahpwire.TerminalState
	for i := range 2 * MaxTerminalParts {
		c = ReduceTerminal(c, &ahpwire.TerminalCommandExecuted{CommandID: strconv.Itoa(i), CommandLine: "x"})
	}
	if len(c.Content) > MaxTerminalParts {
		t.Fatalf("%d parts kept", len(c.Content))
	}
}

// TestTerminalTitleAndSizeBounds: titles are cut to MaxTerminalTitleBytes
// in the state; a client's out-of-range size, overlong title, or action on
// a terminal another client holds is refused (issue 24 item 3).
func TestTerminalTitleAndSizeBounds(t *testing.T) {
	s := ReduceTerminal(ahpwire.TerminalState{}, &ahpwire.TerminalTitleChanged{Title: strings.Repeat("é", 8<<20)})
	if len(s.Title) > MaxTerminalTitleBytes {
		t.Fatalf("title of %d bytes kept", len(s.Title))
	}
	owned := ahpwire.TerminalState{Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimClient, ClientID: "me"}}
	for name, c := range map[string]struct {
		a      ahpwire.Action
		client string
		ok     bool
	}{
		"resize":          {&ahpwire.TerminalResized{Cols: 80, Rows: 24}, "me", true},
		"huge resize":     {&ahpwire.TerminalResized{Cols: 1e9, Rows: 1e9}, "me", false},
		"negative resize": {&ahpwire.TerminalResized{Cols: -5, Rows: 0}, "me", false},
		"stranger resize": {&ahpwire.TerminalResized{Cols: 80, Rows: 24}, "you", false},
		"title":           {&ahpwire.TerminalTitleChanged{Title: "t"}, "me", true},
		"huge title":      {&ahpwire.TerminalTitleChanged{Title: strings.Repeat("x", MaxTerminalTitleBytes+1)}, "me", false},
		"stranger title":  {&ahpwire.TerminalTitleChanged{Title: "t"}, "you", false},
		"stranger clear":  {&ahpwire.TerminalCleared{}, "you", false},
		"stranger input":  {&ahpwire.TerminalInput{Data: "x"}, "you", false},
		"input":           {&ahpwire.TerminalInput{Data: "x"}, "me", true},
	} {
		if err := ValidateTerminalAction(owned, c.a, c.client); (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok=%v", name, err, c.ok)
		}
	}
}
