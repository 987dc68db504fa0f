package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

func TestCtrlGAndCtrlXCtrlEOpenTheEditor(t *testing.T) {
	for _, keys := range [][]string{{"ctrl+g"}, {"ctrl+x", "ctrl+e"}} {
		m, _ := idleChat(t)
		m = typeText(t, m, "draft")
		for _, k := range keys[:len(keys)-1] {
			m = send(t, m, keyPress(k))
		}
		_, cmd := m.Update(keyPress(keys[len(keys)-1]))
		if cmd == nil {
			t.Fatalf("%v returned no command", keys)
		}
		ready, ok := cmd().(app.EditorReadyMsg)
		if !ok || ready.Err != nil {
			t.Fatalf("%v: %#v", keys, ready)
		}
		b, _ := os.ReadFile(ready.Path)
		os.Remove(ready.Path)
		if string(b) != "draft" {
			t.Fatalf("%v: editor got %q", keys, b)
		}
	}
}

func TestEscClearsDraftAndUpBringsItBack(t *testing.T) {
	m, fb := runningChat(t)
	m = typeText(t, m, "half a thought")
	m = send(t, m, keyPress("esc"))
	if m.chat.Composer.Value() != "" {
		t.Fatalf("esc left %q", m.chat.Composer.Value())
	}
	if len(fb.dispatched) != 0 {
		t.Fatal("esc on a draft cancelled the turn")
	}
	m = send(t, m, keyPress("up"))
	if m.chat.Composer.Value() != "half a thought" {
		t.Fatalf("↑ gave %q", m.chat.Composer.Value())
	}
	// With the composer empty, esc cancels the turn as before.
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("esc"))
	if _, ok := fb.lastDispatch(t).action.(*ahpwire.ChatTurnCancelled); !ok {
		t.Fatalf("esc on an empty composer: %#v", fb.lastDispatch(t).action)
	}
}

func TestEndInEmptyComposerFollows(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	var turns []ahpwire.Turn
	for i := range 30 {
		turns = append(turns, finishedTurn("t"+string(rune('a'+i)), "q", strings.Repeat("line\n\n", 3)))
	}
	m = openChat(t, m, chatState(turns, nil))
	m = send(t, m, keyPress("pgup"))
	if m.chat.Transcript.Following() {
		t.Fatal("pgup did not leave the bottom")
	}
	m = send(t, m, keyPress("end"))
	if !m.chat.Transcript.Following() {
		t.Fatal("end in the empty composer did not follow")
	}
}

func TestShiftTabCyclesMode(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	schema := json.RawMessage(`{"type":"object","properties":{"mode":{"type":"string","title":"Mode","enum":["agent","plan"],"enumLabels":["Agent","Plan"],"sessionMutable":true}}}`)
	ss := ahpwire.SessionState{Provider: "demo", Title: "cfg", Lifecycle: ahpwire.LifecycleReady, DefaultChat: testChat,
		Chats:  []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}},
		Config: &ahpwire.ConfigState{Schema: schema, Values: map[string]json.RawMessage{"mode": json.RawMessage(`"agent"`)}}}
	m = send(t, m, picker.OpenSessionMsg{Session: testSession})
	m = send(t, m, snapshotEvent(t, testSession, ss))
	m = send(t, m, snapshotEvent(t, testChat, chatState(nil, nil)))
	_ = send(t, m, keyPress("shift+tab"))
	d := fb.lastDispatch(t)
	cc, ok := d.action.(*ahpwire.SessionConfigChanged)
	if !ok || d.channel != testSession || string(cc.Config["mode"]) != `"plan"` {
		t.Fatalf("shift+tab dispatched %#v on %s", d.action, d.channel)
	}
}

func TestQuestionMarkOpensHelpFromTranscript(t *testing.T) {
	m, _ := idleChat(t)
	m = typeText(t, m, "?") // in the composer ? is text
	if len(m.overlays) != 0 || m.chat.Composer.Value() != "?" {
		t.Fatal("? in the composer was not typed")
	}
	m = send(t, m, keyPress("esc"))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("?"))
	if len(m.overlays) != 1 || !strings.Contains(viewText(m), "Key bindings") {
		t.Fatal("? in the transcript did not open help")
	}
}

func TestCtrlZSuspends(t *testing.T) {
	m, _ := idleChat(t)
	_, cmd := m.Update(keyPress("ctrl+z"))
	if cmd == nil {
		t.Fatal("ctrl+z returned no command")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Fatal("ctrl+z does not suspend")
	}
}

func TestPromptHistoryPersistsPerFileAndSearches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history", "demo.jsonl")
	open := func() Model {
		fb := &fakeBackend{}
		m := newModel(Options{Backend: fb, Host: "h", Dark: true, Editor: "true", HistoryFile: path,
			Now: func() time.Time { return fixedNow }, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
		m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
		m = send(t, m, app.LoadHistory(path)())
		return openChat(t, m, chatState(nil, nil))
	}
	m := open()
	for _, p := range []string{"fix the flaky test", "run the linter ws://h/?tkn=s3cr3t", "explain the reducer"} {
		m = typeText(t, m, p)
		m = send(t, m, keyPress("enter"))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "s3cr3t") {
		t.Fatalf("a token reached the history file:\n%s", b)
	}
	// A restart: ↑ recalls the last prompt, ctrl+r finds an older one.
	m = open()
	m = send(t, m, keyPress("up"))
	if got := m.chat.Composer.Value(); got != "explain the reducer" {
		t.Fatalf("↑ after restart: %q", got)
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("ctrl+r"))
	m = typeText(t, m, "flky")
	if !strings.Contains(viewText(m), "fix the flaky test") {
		t.Fatalf("search view:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("enter"))
	if got := m.chat.Composer.Value(); got != "fix the flaky test" || len(m.overlays) != 0 {
		t.Fatalf("picked %q (overlays %d)", got, len(m.overlays))
	}
}

func TestPromptHistoryIsBounded(t *testing.T) {
	h := &app.PromptHistory{}
	for i := range app.HistoryMaxEntries + 50 {
		h.Add(strings.Repeat("x", i%7+1) + string(rune('a'+i%26)))
	}
	h.Add(strings.Repeat("y", app.HistoryMaxEntryBytes+1))
	if len(h.Entries) > app.HistoryMaxEntries {
		t.Fatalf("%d entries kept", len(h.Entries))
	}
	for _, e := range h.Entries {
		if len(e) > app.HistoryMaxEntryBytes {
			t.Fatal("an oversized prompt was kept")
		}
	}
}
