package reducer_test

import (
	"encoding/json"
	"fmt"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// A streamed turn: each AHP envelope moves AHP's chat state on (package
// ahpstate) and the transcript follows with the derived lifecycle actions.
func ExampleApply() {
	wire := []string{
		`{"channel":"ahp-chat:/c1","serverSeq":1,"action":{"type":"chat/turnStarted","turnId":"t1","startedAt":"2026-10-05T10:01:00.000Z","message":{"text":"list files","origin":{"kind":"user"}}}}`,
		`{"channel":"ahp-chat:/c1","serverSeq":2,"action":{"type":"chat/responsePart","turnId":"t1","part":{"kind":"markdown","id":"m1","content":""}}}`,
		`{"channel":"ahp-chat:/c1","serverSeq":3,"action":{"type":"chat/delta","turnId":"t1","partId":"m1","content":"There is "}}`,
		`{"channel":"ahp-chat:/c1","serverSeq":4,"action":{"type":"chat/toolCallStart","turnId":"t1","toolCallId":"tc1","toolName":"bash","displayName":"Run"}}`,
		`{"channel":"ahp-chat:/c1","serverSeq":5,"action":{"type":"chat/toolCallReady","turnId":"t1","toolCallId":"tc1","invocationMessage":"Run ls"}}`,
		`{"channel":"ahp-chat:/c1","serverSeq":6,"action":{"type":"chat/delta","turnId":"t1","partId":"m1","content":"one file."}}`,
		`{"channel":"ahp-chat:/c1","serverSeq":7,"action":{"type":"chat/turnComplete","turnId":"t1","duration":5120}}`,
	}
	cs := ahpwire.ChatState{Resource: "ahp-chat:/c1"}
	s := reducer.Project(cs)
	for i, raw := range wire {
		var env ahpwire.ActionEnvelope
		if err := json.Unmarshal([]byte(raw), &env); err != nil {
			panic(err)
		}
		cs, s, _ = reducer.Apply(cs, s, env)
		if i == 4 {
			fmt.Println("awaiting approval:", len(s.PendingApprovals()))
		}
	}
	for _, m := range s.Messages {
		fmt.Printf("%s %s %q\n", m.Role, m.Status, m.Text())
	}
	tool := s.Messages[1].Blocks.At(1).Tool
	fmt.Println(tool.Status, tool.Reason, s.Messages[1].Duration)
	// Output:
	// awaiting approval: 1
	// user complete "list files"
	// assistant complete "There is one file."
	// cancelled skipped 5.12s
}
