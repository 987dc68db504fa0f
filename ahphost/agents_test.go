package ahphost

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// nameAgent answers every turn with its provider's name.
type nameAgent struct{ provider string }

func (a nameAgent) Providers() []ahpwire.AgentInfo {
	return []ahpwire.AgentInfo{{Provider: a.provider, DisplayName: strings.ToUpper(a.provider)}}
}

func (a nameAgent) Run(ctx context.Context, t Turn) error {
	t.Emit(&ahpwire.ChatResponsePart{TurnID: t.TurnID, Part: ahpwire.MarkdownPart(t.TurnID+".m", a.provider+" in "+t.Provider+" "+t.Session)})
	t.Emit(&ahpwire.ChatTurnComplete{TurnID: t.TurnID})
	return nil
}

// Several agents per host: all are listed in the root state, and a
// session's turns run on the agent of the provider createSession named.
func TestSeveralAgentsRouteByProvider(t *testing.T) {
	_, url := startHost(t, Options{NoToken: true, Agents: []Agent{nameAgent{"alpha"}, nameAgent{"beta"}}})
	w := dial(t, url, nil)
	defer w.close()
	var init struct {
		Snapshots []struct {
			State struct {
				Agents []ahpwire.AgentInfo `json:"agents"`
			} `json:"state"`
		} `json:"snapshots"`
	}
	must(t, json.Unmarshal(w.initialize("c1", []string{"ahp-root://"}, nil), &init))
	if a := init.Snapshots[0].State.Agents; len(a) != 2 || a[0].Provider != "alpha" || a[1].Provider != "beta" {
		t.Fatalf("root agents %+v", a)
	}
	for i, provider := range []string{"beta", "alpha", ""} {
		session := "ahp-session:/route-" + string(rune('a'+i))
		w.call("createSession", map[string]any{"channel": session, "provider": provider})
		var res struct {
			Snapshot struct {
				State struct {
					DefaultChat string `json:"defaultChat"`
				} `json:"state"`
			} `json:"snapshot"`
		}
		must(t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": session}), &res))
		chat := res.Snapshot.State.DefaultChat
		w.call("subscribe", map[string]any{"channel": chat})
		w.sendMessage(chat, "t"+string(rune('a'+i)), "hi", uint64(i+1)) // turn ids are unique across chats
		e := w.actionOfType(chat, ahpwire.ActionChatResponsePart)
		want := provider
		if want == "" {
			want = "alpha" // the first agent's provider by default
		}
		if got := string(e.Action); !strings.Contains(got, want+" in "+want+" "+session) {
			t.Fatalf("provider %q answered by %s", provider, got)
		}
	}
	if code, _ := w.callErr("createSession", map[string]any{"channel": "ahp-session:/route-x", "provider": "gamma"}); code != ahpwire.CodeProviderNotFound {
		t.Fatalf("unknown provider: code %d", code)
	}
}
