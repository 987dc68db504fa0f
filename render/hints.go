package render

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// HintKind says what a key hint does; it picks the hint's style.
type HintKind uint8

const (
	// HintOther is a neutral hint (muted).
	HintOther HintKind = iota
	// HintApprove approves or accepts (approve style).
	HintApprove
	// HintDeny denies or rejects (deny style).
	HintDeny
)

// KeyHint is one key hint drawn under a prompt: "a approve".
type KeyHint struct {
	// Keys is the key label ("a", "1-9").
	Keys string
	// Action is what the keys do ("approve").
	Action string
	// Kind picks the style.
	Kind HintKind
}

// PromptHints are the key hints drawn under prompts that wait for the user.
// The package does not know the keymap (the import rules keep render below
// keymap): the TUI passes its bindings as data in ViewOpts.Hints. Empty
// lists fall back to [DefaultPromptHints].
type PromptHints struct {
	// Confirm is shown under a tool confirmation (after the host's
	// numbered options, when it sent any).
	Confirm []KeyHint
	// Review is shown under a tool result waiting for review.
	Review []KeyHint
}

// DefaultPromptHints returns the hints matching the TUI's default keymap:
// "a approve · d deny · r deny with reason" under confirmations and
// "a accept · d reject" under result reviews.
func DefaultPromptHints() PromptHints {
	return PromptHints{
		Confirm: []KeyHint{{"a", "approve", HintApprove}, {"d", "deny", HintDeny}, {"r", "deny with reason", HintOther}},
		Review:  []KeyHint{{"a", "accept", HintApprove}, {"d", "reject", HintDeny}},
	}
}

// confirmHints returns the confirmation hints in effect.
func (v ViewOpts) confirmHints() []KeyHint {
	if len(v.Hints.Confirm) > 0 {
		return v.Hints.Confirm
	}
	return DefaultPromptHints().Confirm
}

// reviewHints returns the result-review hints in effect.
func (v ViewOpts) reviewHints() []KeyHint {
	if len(v.Hints.Review) > 0 {
		return v.Hints.Review
	}
	return DefaultPromptHints().Review
}

// hintsFingerprint describes the hints for the render caches.
func (v ViewOpts) hintsFingerprint() string {
	if len(v.Hints.Confirm) == 0 && len(v.Hints.Review) == 0 {
		return ""
	}
	var b strings.Builder
	for _, hs := range [][]KeyHint{v.Hints.Confirm, v.Hints.Review} {
		b.WriteString("|h")
		for _, h := range hs {
			b.WriteString(h.Keys)
			b.WriteByte(0)
			b.WriteString(h.Action)
			b.WriteByte(byte('0' + h.Kind))
		}
	}
	return b.String()
}

// hintSep separates key hints on one line.
const hintSep = " · "

// hintLines draws key hints (sanitised: they may come from a user's
// keymap file) on one line under the detail indent when they fit, else
// one per line.
func (r *Renderer) hintLines(hs []KeyHint, width int) []string {
	type part struct {
		text  string
		style lipgloss.Style
	}
	st := r.styles.Confirm
	var parts []part
	total := len(detailIndent)
	for _, h := range hs {
		t := strings.TrimSpace(oneLine(h.Keys) + " " + oneLine(h.Action))
		if t == "" {
			continue
		}
		style := r.styles.Muted
		switch h.Kind {
		case HintApprove:
			style = st.Approve
		case HintDeny:
			style = st.Deny
		}
		if len(parts) > 0 {
			total += len(hintSep)
		}
		total += ansi.StringWidth(t)
		parts = append(parts, part{t, style})
	}
	if len(parts) == 0 {
		return nil
	}
	if total <= width {
		var b strings.Builder
		b.WriteString(detailIndent)
		for i, p := range parts {
			if i > 0 {
				b.WriteString(r.styles.Muted.Render(hintSep))
			}
			b.WriteString(p.style.Render(p.text))
		}
		return []string{b.String()}
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = detailIndent + p.style.Render(truncatePlain(p.text, width-len(detailIndent)))
	}
	return out
}
