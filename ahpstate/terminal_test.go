package ahpstate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestTerminalDataKeepsEarlierStates(t *testing.T) {
	s := ahpwire.TerminalState{Title: "sh"}
	var states []ahpwire.TerminalState
	for i := 0; i < 200; i++ {
		s = ReduceTerminal(s, &ahpwire.TerminalData{Data: "x"})
		states = append(states, s)
	}
	for i, st := range states {
		if got := st.Output(); got != strings.Repeat("x", i+1) {
			t.Fatalf("state %d: output %q", i, got)
		}
	}
	// A branch from an old state must not disturb the newer ones.
	branch := ReduceTerminal(states[9], &ahpwire.TerminalData{Data: "Y"})
	if branch.Output() != strings.Repeat("x", 10)+"Y" || states[10].Output() != strings.Repeat("x", 11) {
		t.Fatalf("branch %q, states[10] %q", branch.Output(), states[10].Output())
	}
}

func TestTerminalDataGoesToRunningCommand(t *testing.T) {
	s := ahpwire.TerminalState{}
	for _, a := range []ahpwire.Action{
		&ahpwire.TerminalData{Data: "$ "},
		&ahpwire.TerminalCommandExecuted{CommandID: "c1", CommandLine: "go test", Timestamp: 5},
		&ahpwire.TerminalData{Data: "ok\r\n"},
		&ahpwire.TerminalCommandFinished{CommandID: "c1", ExitCode: ahpwire.Ptr[int64](1), DurationMs: ahpwire.Ptr[int64](9)},
		&ahpwire.TerminalData{Data: "$ "},
		&ahpwire.TerminalExited{ExitCode: ahpwire.Ptr[int64](1)},
	} {
		s = ReduceTerminal(s, a)
	}
	if len(s.Content) != 3 || s.Content[1].Output != "ok\r\n" || !s.Content[1].IsComplete || *s.Content[1].ExitCode != 1 {
		t.Fatalf("content %+v", s.Content)
	}
	if s.Output() != "$ ok\r\n$ " || s.ExitCode == nil || *s.ExitCode != 1 {
		t.Fatalf("output %q exit %v", s.Output(), s.ExitCode)
	}
}

func TestTerminalUnknownPartSurvives(t *testing.T) {
	raw := `{"title":"t","content":[{"type":"future","x":1},{"type":"unclassified","value":"a"}],"claim":{"kind":"client","clientId":"c"}}`
	s, err := ahpwire.DecodeTerminalState([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	s = ReduceTerminal(s, &ahpwire.TerminalData{Data: "b"})
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `{"type":"future","x":1}`) || !strings.Contains(string(b), `"value":"ab"`) {
		t.Fatalf("got %s", b)
	}
}

func BenchmarkTerminalData(b *testing.B) {
	chunk := strings.Repeat("y", 80) + "\r\n"
	b.SetBytes(int64(len(chunk)))
	s := ahpwire.TerminalState{}
	for i := 0; i < b.N; i++ {
		s = ReduceTerminal(s, &ahpwire.TerminalData{Data: chunk})
	}
}
