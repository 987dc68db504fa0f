package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/uikit"
)

func TestComposerLargePasteIntactAndHistory(t *testing.T) {
	m, fb := idleChat(t)
	paste := strings.Repeat("line\twith tab and trailing spaces   \n", 500) + "last line"
	m = send(t, m, tea.PasteMsg{Content: paste})
	if v := m.chat.Composer.Value(); !strings.Contains(v, "[paste #1: 501 lines") || len(v) > 100 {
		t.Fatalf("large paste not shown as a chip: %q", v[:min(len(v), 100)])
	}
	m = typeText(t, m, " please review")
	m = send(t, m, keyPress("enter"))
	a := fb.lastDispatch(t).action.(*ahpwire.ChatTurnStarted)
	if a.Message.Text != paste+" please review" {
		t.Fatalf("paste not sent intact (len %d, want %d)", len(a.Message.Text), len(paste)+14)
	}
	m = send(t, m, keyPress("up"))
	if !strings.Contains(m.chat.Composer.Value(), "[paste #1") {
		t.Fatalf("history recall: %q", m.chat.Composer.Value())
	}
	// A recalled draft sends the pasted text again, never the chip.
	if m.chat.Composer.Expanded() != paste+" please review" {
		t.Fatal("recalled paste chip lost its content")
	}
	m = send(t, m, keyPress("down"))
	if m.chat.Composer.Value() != "" {
		t.Fatal("down did not return to the empty draft")
	}
	// Small pastes go straight into the editor.
	m = send(t, m, tea.PasteMsg{Content: "small\npaste"})
	if m.chat.Composer.Value() != "small\npaste" {
		t.Fatalf("small paste: %q", m.chat.Composer.Value())
	}
}

func TestPasteLineBreaksFromTerminal(t *testing.T) {
	// xterm and tmux send a paste's line breaks as CR; the agent must get LF.
	m, fb := idleChat(t)
	want := strings.Repeat("line\twith tab\n", 100) + "end"
	m = send(t, m, tea.PasteMsg{Content: strings.ReplaceAll(want, "\n", "\r")})
	if v := m.chat.Composer.Value(); !strings.Contains(v, "101 lines") {
		t.Fatalf("chip counts the lines wrong: %q", v)
	}
	send(t, m, keyPress("enter"))
	if got := fb.lastDispatch(t).action.(*ahpwire.ChatTurnStarted).Message.Text; got != want {
		t.Fatalf("CR line breaks were not turned into LF: %q", got[:40])
	}
	m, _ = idleChat(t)
	m = send(t, m, tea.PasteMsg{Content: "a\r\nb\rc"})
	if v := m.chat.Composer.Value(); v != "a\nb\nc" {
		t.Fatalf("small paste: %q", v)
	}
}

func TestNewlineKeysDoNotSend(t *testing.T) {
	m, fb := idleChat(t)
	m = typeText(t, m, "a")
	m = send(t, m, tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift})
	m = typeText(t, m, "b")
	if len(fb.dispatched) != 0 || m.chat.Composer.Value() != "a\n\nb" {
		t.Fatalf("newline keys: dispatched %d, value %q", len(fb.dispatched), m.chat.Composer.Value())
	}
}

func TestComposerBindingsDoNotConflict(t *testing.T) {
	km := keymap.Default()
	km.Demo.DropConnection.SetEnabled(true)
	st := uikit.NewStyles(render.DarkStyles())
	c := chat.NewComposer(km.Composer, &st)
	all := append(append(append(c.TextareaBindings(), key.Binding(km.Global.Quit), km.Global.Help, km.Demo.DropConnection),
		bindingsOfChat(km)...), bindingsOfComposer(km)...)
	// InsertNewline is our Newline binding; count it once.
	seen := map[string]string{}
	for _, b := range all {
		if !b.Enabled() {
			continue
		}
		for _, k := range b.Keys() {
			if prev, dup := seen[k]; dup && prev != b.Help().Desc {
				t.Errorf("key %q bound to %q and %q in the composer", k, prev, b.Help().Desc)
			}
			seen[k] = b.Help().Desc
		}
	}
}

func bindingsOfChat(km keymap.KeyMap) []key.Binding {
	c := km.Chat
	return []key.Binding{c.CancelTurn, c.SwitchFocus, c.CycleThinking, c.Resume, c.Resend, c.OpenPrompt, c.Sessions,
		c.Queue, c.Background, c.Parent, c.Settings, c.NewSession, c.Changes, c.Terminals, c.CycleMode}
}

func bindingsOfComposer(km keymap.KeyMap) []key.Binding {
	c := km.Composer
	// Follow (end) shares the textarea's line end on purpose: it acts only
	// in an empty composer, where the line end does nothing.
	return []key.Binding{c.Send, c.Editor, c.Unqueue, c.HistorySearch, c.Steer}
}
