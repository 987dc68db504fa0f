package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
)

// slashChat opens a chat whose session has a model and a mode setting.
func slashChat(t *testing.T) (Model, *fakeBackend) {
	t.Helper()
	m, fb := newTestModel(t, 100, 30)
	schema := json.RawMessage(`{"type":"object","properties":{"model":{"type":"string","title":"Model","enum":["m1","m2"],"sessionMutable":true},` +
		`"mode":{"type":"string","title":"Mode","enum":["agent","plan"],"enumLabels":["Agent","Plan"],"sessionMutable":true}}}`)
	ss := ahpwire.SessionState{Provider: "demo", Title: "cfg", Lifecycle: ahpwire.LifecycleReady, DefaultChat: testChat,
		Chats:  []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}},
		Config: &ahpwire.ConfigState{Schema: schema, Values: map[string]json.RawMessage{"model": json.RawMessage(`"m1"`), "mode": json.RawMessage(`"agent"`)}}}
	m = send(t, m, picker.OpenSessionMsg{Session: testSession})
	m = send(t, m, snapshotEvent(t, testSession, ss))
	m = send(t, m, snapshotEvent(t, testChat, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "Hi **there**")}, nil)))
	return m, fb
}

func TestSlashPopupListsClientCommands(t *testing.T) {
	m, _ := slashChat(t)
	m = typeText(t, m, "/mo")
	v := viewText(m)
	for _, want := range []string{"/model", "/mode"} {
		if !strings.Contains(v, want) {
			t.Fatalf("popup lacks %s:\n%s", want, v)
		}
	}
}

func TestSlashModelOpensSettingsNotAPrompt(t *testing.T) {
	m, fb := slashChat(t)
	m = typeText(t, m, "/model")
	m = send(t, m, keyPress("esc")) // close the popup
	m = send(t, m, keyPress("enter"))
	if len(fb.dispatched) != 0 {
		t.Fatalf("/model went to the host: %#v", fb.dispatched[0].action)
	}
	if !strings.Contains(viewText(m), "Session settings") {
		t.Fatalf("/model did not open the settings:\n%s", viewText(m))
	}
	if m.chat.Composer.Value() != "" {
		t.Fatalf("composer kept %q", m.chat.Composer.Value())
	}
}

func TestSlashModeSetsTheMode(t *testing.T) {
	m, fb := slashChat(t)
	m = typeText(t, m, "/mode plan")
	_ = send(t, m, keyPress("enter"))
	cc, ok := fb.lastDispatch(t).action.(*ahpwire.SessionConfigChanged)
	if !ok || string(cc.Config["mode"]) != `"plan"` {
		t.Fatalf("/mode plan dispatched %#v", fb.lastDispatch(t).action)
	}
}

func TestSlashHelpAndExit(t *testing.T) {
	m, _ := slashChat(t)
	m = typeText(t, m, "/help ")
	m = send(t, m, keyPress("enter"))
	if !strings.Contains(viewText(m), "Key bindings") {
		t.Fatal("/help did not open the help")
	}
	if h, ok := m.overlays[0].(*dialog.Help); !ok || !strings.HasPrefix(h.Groups()[len(h.Groups())-1].Title, "Commands") {
		t.Fatal("the help does not list the / commands")
	}
	m = send(t, m, keyPress("esc"))
	m = typeText(t, m, "/exit ")
	m = send(t, m, keyPress("enter"))
	if !m.quitting {
		t.Fatal("/exit did not quit")
	}
}

func TestParseClientCommandYieldsToHost(t *testing.T) {
	if c, ok := chat.ParseClientCommand("  /rename  New title ", nil); !ok || c.Name != "/rename" || c.Arg != "New title" {
		t.Fatalf("parse: %+v %v", c, ok)
	}
	if _, ok := chat.ParseClientCommand("/model", []string{"/model"}); ok {
		t.Fatal("a host's /model must win")
	}
	for _, s := range []string{"/demo help", "/modelx", "tell me about /model", "/new\nmore"} {
		if _, ok := chat.ParseClientCommand(s, nil); ok {
			t.Errorf("%q taken as a client command", s)
		}
	}
}
