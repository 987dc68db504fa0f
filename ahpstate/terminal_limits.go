package ahpstate

import (
	"strings"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// Bounds of a terminal's state, kept by both the host and the client.
const (
	// MaxTerminalTitleBytes caps a terminal's title; a longer
	// terminal/titleChanged from a client is refused, and a longer title
	// from a host is cut.
	MaxTerminalTitleBytes = 4 << 10
	// MaxTerminalCols and MaxTerminalRows bound terminal/resized (from 1).
	MaxTerminalCols = 1000
	MaxTerminalRows = 500
	// MaxTerminalOutputBytes caps the output a terminal keeps: past it the
	// oldest output is dropped (down to three quarters of the cap, so the
	// cut is rare) and the content starts with
	// ahpwire.TerminalDroppedMarker.
	MaxTerminalOutputBytes = 4 << 20
	// MaxTerminalParts caps a terminal's content parts (detected commands
	// and unclassified runs); the oldest are dropped past it.
	MaxTerminalParts = 1024
)

// ValidateTerminalAction returns why clientID may not dispatch a on a
// terminal in state s (nil: it may). terminal/input and terminal/claimed
// belong to the client holding the claim; terminal/resized,
// terminal/titleChanged and terminal/cleared to it too when a client holds
// the claim (anyone may when a session does); sizes must be within
// 1..MaxTerminalCols × 1..MaxTerminalRows and titles within
// MaxTerminalTitleBytes.
func ValidateTerminalAction(s ahpwire.TerminalState, a ahpwire.Action, clientID string) error {
	holder := s.Claim.Kind == ahpwire.ClaimClient && s.Claim.ClientID == clientID
	strangerOfClient := s.Claim.Kind == ahpwire.ClaimClient && !holder
	switch a := a.(type) {
	case *ahpwire.TerminalInput, *ahpwire.TerminalClaimed:
		if !holder {
			return reject("the terminal is not claimed by this client")
		}
	case *ahpwire.TerminalResized:
		if strangerOfClient {
			return reject("the terminal is claimed by another client")
		}
		if a.Cols < 1 || a.Cols > MaxTerminalCols || a.Rows < 1 || a.Rows > MaxTerminalRows {
			return reject("terminal size %d×%d out of range (1..%d × 1..%d)", a.Cols, a.Rows, MaxTerminalCols, MaxTerminalRows)
		}
	case *ahpwire.TerminalTitleChanged:
		if strangerOfClient {
			return reject("the terminal is claimed by another client")
		}
		if len(a.Title) > MaxTerminalTitleBytes {
			return reject("terminal title longer than %d bytes", MaxTerminalTitleBytes)
		}
	case *ahpwire.TerminalCleared:
		if strangerOfClient {
			return reject("the terminal is claimed by another client")
		}
	default:
		return reject("action is not client-dispatchable on a terminal: %s", a.ActionType())
	}
	return nil
}

// cutUTF8 returns s cut to at most n bytes on a rune boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// boundTerminal drops a terminal's oldest output past
// MaxTerminalOutputBytes or MaxTerminalParts (s.Content is not modified in
// place: earlier states keep theirs).
func boundTerminal(s ahpwire.TerminalState) ahpwire.TerminalState {
	total := 0
	for _, p := range s.Content {
		total += len(p.Text())
	}
	if total <= MaxTerminalOutputBytes && len(s.Content) <= MaxTerminalParts {
		return s
	}
	target := MaxTerminalOutputBytes * 3 / 4
	parts := s.Content
	for len(parts) > 1 && (total-len(parts[0].Text()) >= target || len(parts) > MaxTerminalParts*3/4) {
		total -= len(parts[0].Text())
		parts = parts[1:]
	}
	first := parts[0]
	text := strings.TrimPrefix(first.Text(), ahpwire.TerminalDroppedMarker)
	if cut := total - target; cut > 0 && cut < len(text) {
		text = text[cut:]
		if i := strings.IndexByte(text, '\n'); i >= 0 && i < 4096 {
			text = text[i+1:]
		}
		for text != "" && !utf8.RuneStart(text[0]) {
			text = text[1:]
		}
	}
	fresh := first
	fresh.Value, fresh.Output = "", ""
	if fresh.Type != ahpwire.TerminalPartCommand {
		fresh.Type = ahpwire.TerminalPartUnclassified
		fresh.Raw = nil
	}
	fresh = fresh.AppendText(ahpwire.TerminalDroppedMarker + text)
	content := make([]ahpwire.TerminalContentPart, len(parts))
	copy(content, parts)
	content[0] = fresh
	s.Content = content
	return s
}

// BoundTerminal applies the terminal bounds to a state that did not come
// through ReduceTerminal (a snapshot): the title is cut to
// MaxTerminalTitleBytes and the oldest output dropped past
// MaxTerminalOutputBytes.
func BoundTerminal(s ahpwire.TerminalState) ahpwire.TerminalState {
	s.Title = cutUTF8(s.Title, MaxTerminalTitleBytes)
	return boundTerminal(s)
}
