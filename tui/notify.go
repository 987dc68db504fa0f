package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
)

// Notification events (the config file's notify.events).
const (
	NotifyNeedsInput = "needs-input"
	NotifyTurnEnd    = "turn-end"
	NotifyError      = "error"
)

// NotifyOptions configures notifications: when a session needs the user
// (a question or an approval), finishes a turn or fails while the user is
// elsewhere (another session, or the terminal unfocused), the terminal
// bell rings and/or a desktop notification is sent through the terminal.
type NotifyOptions struct {
	// Bell rings the terminal bell.
	Bell bool
	// Desktop is "osc9", "osc777", "osc99", or "" / "off" for none.
	Desktop string
	// Events lists the events that notify (nil = all three).
	Events []string
	// InTmux wraps desktop sequences in tmux's passthrough.
	InTmux bool
}

// notifier turns session status transitions into at most one
// notification per session per event.
type notifier struct {
	o       NotifyOptions
	focused bool
	last    map[string]string // session → the event last notified, until its status moves on
}

func newNotifier(o *NotifyOptions) *notifier {
	if o == nil {
		return nil
	}
	return &notifier{o: *o, focused: true, last: map[string]string{}}
}

// enabled reports whether anything can be sent.
func (n *notifier) enabled() bool {
	return n != nil && (n.o.Bell || (n.o.Desktop != "" && n.o.Desktop != "off"))
}

// event names the transition from before to after ("" for none).
func statusEvent(before, after ahpwire.SessionStatus) string {
	b, a := before.Activity(), after.Activity()
	switch {
	case a == b:
		return ""
	case a == ahpwire.StatusInputNeeded:
		return NotifyNeedsInput
	case a == ahpwire.StatusError:
		return NotifyError
	case a == ahpwire.StatusIdle && (b == ahpwire.StatusInProgress || b == ahpwire.StatusInputNeeded):
		return NotifyTurnEnd
	}
	return ""
}

// onStatus returns the notification command for a session's status
// change, or nil. here reports whether the user is looking at that session.
func (n *notifier) onStatus(session, title string, before, after ahpwire.SessionStatus, here bool) tea.Cmd {
	if !n.enabled() {
		return nil
	}
	ev := statusEvent(before, after)
	if ev == "" {
		if before.Activity() != after.Activity() {
			delete(n.last, session)
		}
		return nil
	}
	if n.last[session] == ev || !n.wants(ev) || (here && n.focused) {
		return nil
	}
	n.last[session] = ev
	return tea.Raw(n.sequence(ev, title))
}

func (n *notifier) wants(ev string) bool {
	if len(n.o.Events) == 0 {
		return true
	}
	for _, e := range n.o.Events {
		if e == ev {
			return true
		}
	}
	return false
}

// sequence builds the bell and the desktop notification for ev.
func (n *notifier) sequence(ev, title string) string {
	text := notifyText(ev, title)
	var b strings.Builder
	if n.o.Bell {
		b.WriteByte('\a')
	}
	var seq string
	switch n.o.Desktop {
	case "osc9":
		seq = "\x1b]9;" + text + "\a"
	case "osc777":
		seq = "\x1b]777;notify;ahptui;" + text + "\a"
	case "osc99":
		seq = "\x1b]99;;" + text + "\x1b\\"
	}
	if seq != "" && n.o.InTmux {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	b.WriteString(seq)
	return b.String()
}

// notifyText is the notification's text: the event and the session title,
// made safe for an OSC string (no controls) and capped.
func notifyText(ev, title string) string {
	what := map[string]string{NotifyNeedsInput: "needs you", NotifyTurnEnd: "finished", NotifyError: "failed"}[ev]
	t := windowTitleText(title)
	if r := []rune(t); len(r) > 80 {
		t = string(r[:80]) + "…"
	}
	if t == "" {
		t = "a session"
	}
	return windowTitleText(t + " " + what)
}
