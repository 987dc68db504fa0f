package ahphost

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// sessionWire subscribes to a session and decodes its snapshot.
func sessionWire(t *testing.T, w *wsClient, session string) (ahpwire.SessionState, uint64) {
	t.Helper()
	var res struct {
		Snapshot ahpwire.Snapshot `json:"snapshot"`
	}
	must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": session}), &res))
	st, err := ahpwire.DecodeSessionState(res.Snapshot.State)
	must(t, err)
	return st, res.Snapshot.FromSeq
}

// artifactKeys lists the artifacts' keys (their uris) in order.
func artifactKeys(as []ahpwire.SessionArtifact) []string {
	var ks []string
	for _, a := range as {
		ks = append(ks, a.ID)
	}
	return ks
}

// TestDemoArtifactsReachSubscribersSnapshotsAndReplay: "/demo artifacts"
// lists four AHP 1.1 ResourceArtifacts through session/artifactSet — seen
// live by a subscriber, in a later subscriber's snapshot and in a 1.1
// reconnect's replay — each readable with resourceRead; "/demo artifacts
// clear" removes them; "/demo edit" registers the document it created.
func TestDemoArtifactsReachSubscribersSnapshotsAndReplay(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	w.call("initialize", map[string]any{"channel": ahpwire.RootURI, "protocolVersions": []string{"1.1.0"}, "clientId": "c1"})
	const session = "ahp-session:/s1"
	chat := w.createSession(session)
	readChat(t, w, chat, 0)
	seq := uint64(1)
	w.sendMessage(chat, "t1", "/demo artifacts", seq)
	if _, end := driveTurn(t, w, chat, "t1", true, &seq); end.typ() != ahpwire.ActionChatTurnComplete {
		t.Fatalf("turn ended with %s", end.typ())
	}
	// Live: four session/artifactSet on the session channel, reduced by
	// the client's own reducer.
	var live ahpwire.SessionState
	var firstSeq uint64
	for range 4 {
		e := w.actionOfType(session, ahpwire.ActionSessionArtifactSet)
		if firstSeq == 0 {
			firstSeq = e.ServerSeq
		}
		a, err := ahpwire.DecodeAction(e.Action)
		must(t, err)
		live = ahpstate.ReduceSession(live, a)
		var raw struct {
			Artifact struct {
				Type      string `json:"type"`
				URI       string `json:"uri"`
				Label     string `json:"label"`
				Relations []struct {
					Kind string `json:"kind"`
					Chat string `json:"chat"`
				} `json:"relations"`
			} `json:"artifact"`
		}
		must(t, json.Unmarshal(e.Action, &raw))
		if ar := raw.Artifact; ar.Type != "resource" || ar.URI == "" || ar.Label == "" || len(ar.Relations) != 1 || ar.Relations[0].Chat != chat {
			t.Fatalf("not an AHP 1.1 ResourceArtifact of this chat: %s", e.Action)
		}
	}
	if len(live.Artifacts) != 4 {
		t.Fatalf("live artifacts %v", artifactKeys(live.Artifacts))
	}
	for _, a := range live.Artifacts {
		var res ahpwire.ResourceReadResult
		must(t, json.Unmarshal(w.call(ahpwire.MethodResourceRead, ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: a.URI}), &res))
		if len(res.Data) == 0 {
			t.Fatalf("artifact %s has no content", a.URI)
		}
	}

	// Snapshot: a second client subscribing later gets the same list.
	w2 := dial(t, u, nil)
	w2.call("initialize", map[string]any{"channel": ahpwire.RootURI, "protocolVersions": []string{"1.1.0"}, "clientId": "c2"})
	st, _ := sessionWire(t, w2, session)
	if strings.Join(artifactKeys(st.Artifacts), " ") != strings.Join(artifactKeys(live.Artifacts), " ") {
		t.Fatalf("snapshot artifacts %v, live %v", artifactKeys(st.Artifacts), artifactKeys(live.Artifacts))
	}

	// Replay: a 1.1 reconnect from before the first artifact replays them.
	w3 := dial(t, u, nil)
	var rec channelsResult11
	must(t, json.Unmarshal(w3.call("reconnect", map[string]any{"channel": ahpwire.RootURI, "clientId": "c1",
		"subscriptions": []map[string]any{{"channel": session, "lastSeenServerSeq": firstSeq - 1}}}), &rec))
	replayed := 0
	for _, c := range rec.Channels {
		if c.Channel != session || c.Kind != "replay" || c.Actions == nil {
			t.Fatalf("reconnect result %+v", rec)
		}
		for _, e := range *c.Actions {
			if e.typ() == ahpwire.ActionSessionArtifactSet {
				replayed++
			}
		}
	}
	if replayed != 4 {
		t.Fatalf("replayed %d artifactSet, want 4", replayed)
	}

	// The same command again changes nothing (same artifacts).
	seq++
	w.sendMessage(chat, "t2", "/demo artifacts", seq)
	_, _ = driveTurn(t, w, chat, "t2", true, &seq)
	if st, _ := sessionWire(t, w2, session); len(st.Artifacts) != 4 {
		t.Fatalf("after a repeat: %v", artifactKeys(st.Artifacts))
	}

	// clear removes them (session/artifactRemoved, by key).
	seq++
	w.sendMessage(chat, "t3", "/demo artifacts clear", seq)
	_, _ = driveTurn(t, w, chat, "t3", true, &seq)
	for range 4 {
		e := w2.actionOfType(session, ahpwire.ActionSessionArtifactRemoved)
		a, err := ahpwire.DecodeAction(e.Action)
		must(t, err)
		st = ahpstate.ReduceSession(st, a)
	}
	if len(st.Artifacts) != 0 {
		t.Fatalf("after clear, the client keeps %v", artifactKeys(st.Artifacts))
	}

	// /demo edit registers the document it created.
	seq++
	w.sendMessage(chat, "t4", "/demo edit", seq)
	_, _ = driveTurn(t, w, chat, "t4", true, &seq)
	st, _ = sessionWire(t, dial(t, u, nil).init11(), session)
	if len(st.Artifacts) != 1 || !strings.HasSuffix(st.Artifacts[0].URI, "/docs/CHANGES.md") || st.Artifacts[0].Kind != "document" {
		t.Fatalf("after /demo edit: %+v", st.Artifacts)
	}
	var res ahpwire.ResourceReadResult
	must(t, json.Unmarshal(w.call(ahpwire.MethodResourceRead, ahpwire.ResourceReadParams{Channel: ahpwire.RootURI, URI: st.Artifacts[0].URI}), &res))
	if !strings.HasPrefix(string(res.Data), "# Changes") {
		t.Fatalf("CHANGES.md artifact reads %q", res.Data)
	}
}

// init11 initializes w as a 1.1 client and returns it.
func (w *wsClient) init11() *wsClient {
	w.t.Helper()
	w.call("initialize", map[string]any{"channel": ahpwire.RootURI, "protocolVersions": []string{"1.1.0"}, "clientId": "c-" + w.t.Name()})
	return w
}

// artifactFlood sets more artifacts than a session keeps, and one without
// a key, then ends its turn.
type artifactFlood struct{}

func (artifactFlood) Providers() []ahpwire.AgentInfo {
	return []ahpwire.AgentInfo{{Provider: "flood", DisplayName: "artifact flood"}}
}

func (artifactFlood) Run(_ context.Context, t Turn) error {
	ah := t.SessionHooks.(agent.ArtifactHooks)
	ah.SetArtifact(ahpwire.SessionArtifact{}) // no key: ignored
	for i := range maxArtifacts + 5 {
		var a ahpwire.SessionArtifact
		if err := json.Unmarshal(fmt.Appendf(nil, `{"type":"resource","uri":"ahp-content:/a/%d","label":"a%d","relations":[{"kind":"created"}]}`, i, i), &a); err != nil {
			return err
		}
		ah.SetArtifact(a)
	}
	t.Emit(&ahpwire.ChatTurnComplete{TurnID: t.TurnID})
	return nil
}

// TestArtifactsBoundedPerSession: an agent cannot grow a session's
// artifact list (and every snapshot) without bound: the oldest go.
func TestArtifactsBoundedPerSession(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: artifactFlood{}})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	w.sendMessage(chat, "t1", "go", 1)
	w.actionOfType(chat, ahpwire.ActionChatTurnComplete)
	st, _ := sessionWire(t, w, "ahp-session:/s1")
	if len(st.Artifacts) != maxArtifacts || st.Artifacts[0].ID != "ahp-content:/a/5" || st.Artifacts[maxArtifacts-1].ID != fmt.Sprintf("ahp-content:/a/%d", maxArtifacts+4) {
		t.Fatalf("%d artifacts, first %q", len(st.Artifacts), st.Artifacts[0].ID)
	}
}
