package reducer

import (
	"flag"
	"reflect"
	"strconv"
	"sync"
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

var reattachRuns = flag.Int("reattach.runs", 150, "number of random streams for TestReattachProperty")

// applyAHP applies an envelope to AHP's own chat state the way a client
// must, independently of Apply: rejected envelopes and other channels'
// envelopes are not applied.
func applyAHP(cs ahpwire.ChatState, env ahpwire.ActionEnvelope) ahpwire.ChatState {
	if env.RejectionReason != "" || env.Channel != genChat {
		return cs
	}
	return ahpstate.ReduceChat(cs, env.Action)
}

// chat is what the client keeps per chat: AHP's state and the transcript.
type chat struct {
	ahp  ahpwire.ChatState
	view State
}

// projected returns the chat a client holds right after a snapshot.
func projected(cs ahpwire.ChatState) chat { return chat{cs, Project(cs)} }

// applyOurs applies one envelope with Apply.
func applyOurs(c chat, env ahpwire.ActionEnvelope) chat {
	c.ahp, c.view, _ = Apply(c.ahp, c.view, env)
	return c
}

// TestReattachProperty: for random streams, cutting at any point,
// projecting AHP's state at the cut and continuing with the rest yields
// exactly the transcript of the uninterrupted stream — and at every cut the
// uninterrupted state equals the projection of AHP's state.
func TestReattachProperty(t *testing.T) {
	runs := *reattachRuns
	// -short checks the cuts of the first streams only; every stream still
	// runs uninterrupted, so the coverage check below stays meaningful.
	cutRuns := runs
	if testing.Short() {
		cutRuns = min(runs, 20)
	}
	seen := map[string]bool{}
	defer func() {
		// The generator must reach every state, or the property is weak.
		for _, want := range []string{
			"tool:streaming", "tool:pending-confirmation", "tool:running", "tool:auth-required",
			"tool:pending-result-confirmation", "tool:completed", "tool:cancelled",
			"cancel:denied", "cancel:skipped", "cancel:result-denied",
			"kind:text", "kind:thinking", "kind:toolCall", "kind:error", "kind:inputRequest",
			"kind:systemNotification", "kind:contentRef", "kind:unknown",
			"msg:complete", "msg:cancelled", "msg:error", "input:accept", "input:open",
			"resumed", "queued", "ignored", "multi-turn", "history",
		} {
			if !seen[want] {
				t.Errorf("generator never produced %s", want)
			}
		}
	}()
	// The streams are independent: each runs as a parallel subtest.
	var mu sync.Mutex
	t.Run("streams", func(t *testing.T) {
		for seed := uint64(1); seed <= uint64(runs); seed++ {
			t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
				t.Parallel()
				local := map[string]bool{}
				defer func() {
					mu.Lock()
					for k := range local {
						seen[k] = true
					}
					mu.Unlock()
				}()
				envs := wireRoundTrip(t, newStreamGen(seed).generate(60+int(seed%90)))
				initial := ahpwire.ChatState{Resource: genChat, Title: "t", Turns: []ahpwire.Turn{}}

				// Uninterrupted run, remembering AHP's state and ours at every cut.
				ahp := make([]ahpwire.ChatState, len(envs)+1)
				ours := make([]chat, len(envs)+1)
				ahp[0], ours[0] = initial, projected(initial)
				for i, e := range envs {
					ahp[i+1] = applyAHP(ahp[i], e)
					ours[i+1] = applyOurs(ours[i], e)
					if e.RejectionReason == "" && e.Channel == genChat && reflect.DeepEqual(ours[i+1].view, ours[i].view) {
						local["ignored"] = true // AHP ignored the action: nothing derived
					}
				}
				for _, st := range ours {
					noteCoverage(local, st.view)
				}
				if seed > uint64(cutRuns) {
					return
				}
				final := ours[len(envs)].view
				for k := 0; k <= len(envs); k++ {
					if !reflect.DeepEqual(ahp[k], ours[k].ahp) {
						t.Fatalf("seed %d: AHP state kept by Apply differs from ahpstate's after %d actions", seed, k)
					}
					proj := projected(ahp[k])
					if same, g, w := sameTranscript(proj.view, ours[k].view); !same {
						t.Fatalf("seed %d: projection of AHP state after %d/%d actions differs from the reduced state\nlast action: %s\nprojected: %s\nreduced:   %s",
							seed, k, len(envs), actionJSON(envs, k-1), dump(g), dump(w))
					}
					s := proj
					for _, e := range envs[k:] {
						s = applyOurs(s, e)
					}
					if same, g, w := sameTranscript(s.view, final); !same {
						t.Fatalf("seed %d: reattach at %d/%d diverges\ncontinued:     %s\nuninterrupted: %s",
							seed, k, len(envs), dump(g), dump(w))
					}
				}
			})
		}
	})
}

func actionJSON(envs []ahpwire.ActionEnvelope, i int) string {
	if i < 0 || i >= len(envs) {
		return "(none)"
	}
	b, _ := envs[i].MarshalJSON()
	return string(b)
}

// noteCoverage records which states s exhibits.
func noteCoverage(seen map[string]bool, s State) {
	ms := s.Messages
	if s.Current != nil {
		ms = append(ms[:len(ms):len(ms)], s.Current)
	}
	if len(ms) >= 5 {
		seen["multi-turn"] = true
	}
	if len(s.Queued) > 0 {
		seen["queued"] = true
	}
	for _, m := range ms {
		if len(m.TurnID) > 3 && m.TurnID[:3] == "old" {
			seen["history"] = true
		}
		if m.Role == RoleAssistant {
			seen["msg:"+m.Status.String()] = true
		}
		for _, b := range m.Blocks.All() {
			seen["kind:"+b.Kind.String()] = true
			if b.Tool != nil {
				seen["tool:"+b.Tool.Status] = true
				if b.Tool.Reason != "" {
					seen["cancel:"+b.Tool.Reason] = true
				}
			}
			if b.Input != nil {
				if b.Response == "" {
					seen["input:open"] = true
				} else {
					seen["input:"+b.Response] = true
				}
			}
			if b.Kind == KindError && m == s.Current {
				seen["resumed"] = true
			}
		}
	}
}
