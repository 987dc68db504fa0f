package reducer

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestDeriveCarriesWhatAPresenterNeeds: the actions carry what a consumer
// that prints changes (ahptui exec) would otherwise read from AHP's
// states: a delta's part id, a block's state before an update, the usage
// as the host sent it, and whether the host reported the turn's duration.
func TestDeriveCarriesWhatAPresenterNeeds(t *testing.T) {
	c := activeChat(t)
	find := func(action string, f func(Action) bool) {
		t.Helper()
		cs, _, acts := Apply(c.ahp, c.view, chatEnv(t, action))
		for _, a := range acts {
			if f(a) {
				return
			}
		}
		t.Errorf("%s: no action as wanted in [%s] (state %+v)", action, kinds(acts), cs.ActiveTurn)
	}
	find(`{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`, func(a Action) bool {
		d, ok := a.(BlockDelta)
		return ok && d.BlockID == "p1" && d.Index == 0 && d.Delta == "lo"
	})
	find(`{"type":"chat/reasoning","turnId":"t2","partId":"r1","content":"..."}`, func(a Action) bool {
		d, ok := a.(BlockDelta)
		return ok && d.BlockID == "r1" && d.Kind == KindThinking
	})
	find(`{"type":"chat/toolCallReady","turnId":"t2","toolCallId":"tc1","invocationMessage":"Run"}`, func(a Action) bool {
		u, ok := a.(BlockUpdate)
		return ok && u.Index == 2 && u.Tool.Status == ahpwire.ToolPendingConfirmation &&
			u.Was.Kind == KindToolCall && u.Was.BlockID == "tc1" && u.Was.Tool.Status == ahpwire.ToolStreaming
	})
	find(`{"type":"chat/usage","turnId":"t2","usage":{"inputTokens":3}}`, func(a Action) bool {
		u, ok := a.(UsageChanged)
		return ok && u.Info != nil && u.Info.InputTokens != nil && *u.Info.InputTokens == 3 && u.Info.OutputTokens == nil
	})
	find(`{"type":"chat/turnComplete","turnId":"t2","duration":0}`, func(a Action) bool {
		e, ok := a.(MessageEnd)
		return ok && e.Reported && e.Duration == 0 && e.Status == StatusComplete
	})
	find(`{"type":"chat/turnCancelled","turnId":"t2"}`, func(a Action) bool {
		e, ok := a.(MessageEnd)
		return ok && !e.Reported && e.Status == StatusCancelled
	})
}
