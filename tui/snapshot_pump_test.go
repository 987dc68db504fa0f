package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestChatSnapshotDecodedByThePump: the event pump decodes a snapshot's
// state (eventMsg runs in its command, off Update) and Update loads that
// decoded state into the Mirror without parsing the bytes again; a
// snapshot the pump could not decode becomes a notice; a session's is
// decoded as a session's.
func TestChatSnapshotDecodedByThePump(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState(nil, nil))

	ev := snapshotEvent(t, testChat, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "decoded by the pump")}, nil)).ev
	msg := eventMsg(ev, nil)
	if d := msg.decoded; d == nil || d.err != nil || d.kind != ahpstate.ScopeChat || len(d.state.(ahpwire.ChatState).Turns) != 1 {
		t.Fatalf("the pump did not decode the chat snapshot: %+v", msg.decoded)
	}
	// Update must use the decoded state: the bytes no longer parse.
	se := msg.ev.(ahpclient.SnapshotEvent)
	se.Snapshot.State = []byte(`{`)
	msg.ev = se
	got := send(t, m, msg)
	if v := viewText(got); !strings.Contains(v, "decoded by the pump") {
		t.Fatalf("the decoded snapshot is not shown:\n%s", v)
	}

	bad := snapshotEvent(t, testChat, chatState(nil, nil)).ev.(ahpclient.SnapshotEvent)
	bad.Snapshot.State = []byte(`{"turns": 7}`)
	msg = eventMsg(bad, nil)
	if msg.decoded == nil || msg.decoded.err == nil {
		t.Fatal("an undecodable chat snapshot has no error from the pump")
	}
	if nm, _ := got.Update(msg); !strings.HasPrefix(nm.(Model).notice, "chat state:") {
		n := nm.(Model).notice
		t.Fatalf("an undecodable chat snapshot is not reported: notice %q", n)
	}

	if msg := eventMsg(snapshotEvent(t, testSession, ahpwire.SessionState{}).ev, nil); msg.decoded == nil || msg.decoded.kind != ahpstate.ScopeSession {
		t.Fatalf("the pump did not decode a session snapshot as a session's: %+v", msg.decoded)
	}
}
