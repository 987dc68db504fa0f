package ahphost

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// demoSession creates session uri and runs the demo commands in its chat
// (approving what asks); it returns the chat.
func demoSession(t *testing.T, w *wsClient, uri string, cmds ...string) string {
	t.Helper()
	chat := w.createSession(uri)
	rawChat(t, w, chat)
	var seq uint64
	for i, text := range cmds {
		seq++
		id := fmt.Sprintf("t%d", i)
		w.sendMessage(chat, id, text, seq)
		driveTurn(t, w, chat, id, true, &seq)
	}
	return chat
}

// storedBodies is what the database holds of one chat's bodies.
type storedBodies struct {
	contents, pages           int   // resources: diff sides, reply pages
	contentBytes, pageBytes   int64 // their bytes
	artifact                  []byte
	terminal, changeset, note bool // channels stored; the terminal shows the note
}

// bodiesOf reads what db holds of chat's bodies (its terminal and
// changeset as the demo names them; artifact is the content of uri).
func bodiesOf(t *testing.T, db *durable.DB, chat, artifact string) storedBodies {
	t.Helper()
	key := strings.TrimPrefix(chat, ahpwire.ChatScheme+"/")
	var b storedBodies
	b.contents, b.contentBytes = db.ResourcesUnder(contentScheme + "/" + key + "/")
	b.pages, b.pageBytes = db.ResourcesUnder(largePartURIPrefix + key + "/")
	_, b.artifact, _, _ = db.Resource(artifact)
	st, err := db.Load()
	must(t, err)
	for _, ch := range st.Channels {
		switch {
		case strings.HasPrefix(ch.URI, ahpwire.ChangesetScheme+"/"+key+"/"):
			b.changeset = true
		case strings.HasPrefix(ch.URI, ahpwire.TerminalScheme+"/"+key+"/"):
			b.terminal = true
			b.note = strings.Contains(string(ch.State), "size budget") && !strings.Contains(string(ch.State), "go test")
		}
	}
	return b
}

// TestDurableBudgetDropsSideBodies: over its budget, an archived
// session loses more than its turns: its changeset's diff contents, its
// terminal's output, the content of an artifact only it lists and its big
// reply's pages leave the database, which shrinks by at least their size;
// the changeset and the terminal stay, saying why they are empty, and so
// does the artifact; the session that is not archived (with an artifact of
// the same URI as one of the archived session's) keeps everything.
func TestDurableBudgetDropsSideBodies(t *testing.T) {
	state := t.TempDir()
	h1, u := startDurable(t, state, Options{})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	old := demoSession(t, w, "ahp-session:/old", "/demo edit", "/demo shell", "/demo artifacts", "/demo big 1m")
	kept := demoSession(t, w, "ahp-session:/kept", "/demo shell", "/demo artifacts")
	w.call("subscribe", map[string]any{"channel": "ahp-session:/old"})
	w.notify("dispatchAction", map[string]any{"channel": "ahp-session:/old", "clientSeq": 9,
		"action": map[string]any{"type": "session/isArchivedChanged", "isArchived": true}})
	w.action("archived", func(e envelope) bool { return e.typ() == "session/isArchivedChanged" })
	w.close()
	must(t, h1.Close())

	const changes, review = "file:///home/demo/project/docs/CHANGES.md", "file:///home/demo/project/docs/REVIEW.md"
	db, err := durable.Open(state)
	must(t, err)
	sizeBefore := db.Size()
	ob, kb := bodiesOf(t, db, old, changes), bodiesOf(t, db, kept, review)
	must(t, db.Close())
	if ob.contents == 0 || ob.pages == 0 || !ob.terminal || !ob.changeset || !strings.HasPrefix(string(ob.artifact), "# Changes") || !kb.terminal {
		t.Fatalf("the sessions did not store what the test drops: old %+v kept %+v", ob, kb)
	}

	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := func() time.Time { // every size check is due
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}
	budget := sizeBefore - (ob.contentBytes+ob.pageBytes)/2
	h2, _ := startDurable(t, state, Options{StateBudget: budget, Now: now})
	waitUntil(t, "the archived session's turns dropped", func() bool {
		h2.mu.Lock()
		defer h2.mu.Unlock()
		if ce := h2.st.chats[old]; ce != nil && len(ce.state.Turns) == 1 {
			return true
		}
		h2.st.persist.kick()
		return false
	})
	must(t, h2.Close())

	db, err = durable.Open(state)
	must(t, err)
	sizeAfter := db.Size()
	oa, ka := bodiesOf(t, db, old, changes), bodiesOf(t, db, kept, review)
	must(t, db.Close())
	t.Logf("database %d -> %d bytes (budget %d); old before %+v after %+v", sizeBefore, sizeAfter, budget,
		ob, oa)
	if oa.contents != 0 || oa.pages != 0 {
		t.Errorf("the archived session's diff contents (%d, %d bytes) or pages (%d, %d bytes) are still stored",
			oa.contents, oa.contentBytes, oa.pages, oa.pageBytes)
	}
	if !oa.terminal || !oa.note {
		t.Errorf("the archived session's terminal is not stored with the note only (stored %v)", oa.terminal)
	}
	if !oa.changeset {
		t.Error("the archived session's changeset is gone (it should stay, emptied, saying why)")
	}
	if !strings.Contains(string(oa.artifact), "size budget") || len(oa.artifact) > 1024 {
		t.Errorf("the artifact only the archived session lists still holds %d bytes: %.80q", len(oa.artifact), oa.artifact)
	}
	if ka.contents != kb.contents || ka.contentBytes != kb.contentBytes || ka.pages != kb.pages || string(ka.artifact) != string(kb.artifact) || !ka.terminal || ka.note {
		t.Errorf("the session that is not archived changed on disk: %+v, was %+v", ka, kb)
	}
	if freed := sizeBefore - sizeAfter; freed < (ob.contentBytes+ob.pageBytes)*3/4 {
		t.Errorf("the database shrank by %d bytes, less than the bodies dropped (%d)", freed, ob.contentBytes+ob.pageBytes)
	}

	// What a client sees after a restart: the changeset and the terminal
	// say why they are empty, the artifact reads as the note.
	_, u3 := startDurable(t, state, Options{})
	w3 := dial(t, u3, nil)
	w3.initialize("c3", nil, nil)
	key := strings.TrimPrefix(old, ahpwire.ChatScheme+"/")
	var cs struct {
		Snapshot struct {
			State ahpwire.ChangesetState `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w3.call("subscribe", map[string]any{"channel": ahpwire.ChangesetScheme + "/" + key + "/session"}), &cs))
	if st := cs.Snapshot.State; len(st.Files) != 0 || st.Status != ahpwire.ChangesetError || st.Error == nil || !strings.Contains(st.Error.Message, "size budget") {
		t.Errorf("the dropped changeset reads %+v", st)
	}
	var term struct {
		Snapshot struct {
			State ahpwire.TerminalState `json:"state"`
		} `json:"snapshot"`
	}
	must(t, json.Unmarshal(w3.call("subscribe", map[string]any{"channel": ahpwire.TerminalScheme + "/" + key + "/t1-shell"}), &term))
	if out := term.Snapshot.State.Output(); !strings.Contains(out, "size budget") || strings.Contains(out, "go test") {
		t.Errorf("the dropped terminal shows %d bytes: %.200q", len(out), out)
	} else {
		for _, l := range strings.Split(out, "\r\n") {
			if len(l) > 80 || strings.Contains(l, "`") {
				t.Errorf("the dropped terminal's note has a line of %d columns, or markdown: %q", len(l), l)
			}
		}
	}
	if st := cs.Snapshot.State; st.Error != nil && strings.Contains(st.Error.Message, "`") {
		t.Errorf("the dropped changeset's error (plain text) has markdown: %q", st.Error.Message)
	}
	var res ahpwire.ResourceReadResult
	must(t, json.Unmarshal(w3.call(ahpwire.MethodResourceRead, ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: changes}), &res))
	if !strings.Contains(res.Data, "size budget") {
		t.Errorf("the dropped artifact reads %q", res.Data)
	}
	must(t, json.Unmarshal(w3.call(ahpwire.MethodResourceRead, ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: review}), &res))
	if !strings.HasPrefix(res.Data, "# Review notes") {
		t.Errorf("an artifact the other session lists too reads %q", res.Data)
	}
}

// TestDurableBudgetSparesRunningChat: an archived session whose chat runs
// a turn keeps its turns and what they made (the agent may be using it),
// however far over the budget the database is; once the turn ends, both
// go.
func TestDurableBudgetSparesRunningChat(t *testing.T) {
	state := t.TempDir()
	h, u := startDurable(t, state, Options{Pace: 20 * time.Millisecond})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := demoSession(t, w, "ahp-session:/busy", "/demo edit")
	w.call("subscribe", map[string]any{"channel": "ahp-session:/busy"})
	w.notify("dispatchAction", map[string]any{"channel": "ahp-session:/busy", "clientSeq": 9,
		"action": map[string]any{"type": "session/isArchivedChanged", "isArchived": true}})
	w.action("archived", func(e envelope) bool { return e.typ() == "session/isArchivedChanged" })
	w.sendMessage(chat, "t9", "/demo slow 100", 10)
	w.action("the slow turn streams", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/delta" })
	key := strings.TrimPrefix(chat, ahpwire.ChatScheme+"/")
	h.mu.Lock()
	freed := h.st.evictBodies(1 << 40)
	cs := h.st.ext.changesets[ahpwire.ChangesetScheme+"/"+key+"/session"].state
	h.mu.Unlock()
	if freed != 0 || len(cs.Files) == 0 {
		t.Fatalf("a running chat's bodies were dropped: %d bytes freed, changeset %+v", freed, cs)
	}
	w.notify("dispatchAction", map[string]any{"channel": chat, "clientSeq": 11,
		"action": map[string]any{"type": "chat/turnCancelled", "turnId": "t9", "duration": 1}})
	w.action("cancelled", func(e envelope) bool { return e.Channel == chat && e.typ() == "chat/turnCancelled" })
	h.mu.Lock()
	freed = h.st.evictBodies(1 << 40)
	cs = h.st.ext.changesets[ahpwire.ChangesetScheme+"/"+key+"/session"].state
	h.mu.Unlock()
	if freed == 0 || len(cs.Files) != 0 {
		t.Fatalf("after the turn, %d bytes freed, changeset %+v", freed, cs)
	}
}
