package ahpstate

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestRefineContributor(t *testing.T) {
	client := &ahpwire.ToolCallContributor{Kind: "client", ClientID: "c1"}
	same := &ahpwire.ToolCallContributor{Kind: "client", ClientID: "c1"}
	other := &ahpwire.ToolCallContributor{Kind: "client", ClientID: "c2"}
	mcp := &ahpwire.ToolCallContributor{Kind: "mcp", CustomizationID: "m"}
	cases := []struct {
		name      string
		cur, next *ahpwire.ToolCallContributor
		want      *ahpwire.ToolCallContributor
	}{
		{"none named keeps current", mcp, nil, mcp},
		{"server attribution set at ready", nil, mcp, mcp},
		{"client owner restated", client, same, same},
		{"client ownership cannot move", client, other, client},
		{"client ownership cannot become mcp", client, mcp, client},
		{"late client contributor ignored", mcp, client, mcp},
		{"late client contributor ignored when none", nil, client, nil},
	}
	for _, c := range cases {
		if got := refineContributor(c.cur, c.next); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestEditedToolInputOnlyReplacesInlineInput(t *testing.T) {
	ref := &ahpwire.ToolInput{Ref: &ahpwire.ContentRef{URI: "file:///in.json"}}
	for _, c := range []struct {
		name string
		in   *ahpwire.ToolInput
		want string
	}{
		{"inline is replaced", ahpwire.InlineInput("ls"), `"edited"`},
		{"reference is kept", ref, `{"uri":"file:///in.json"}`},
		{"absent stays absent", nil, `null`},
	} {
		s := chatWithPending(c.in)
		s = ReduceChat(s, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true,
			Confirmed: ahpwire.ConfirmedUserAction, EditedToolInput: ahpwire.Ptr("edited")})
		tc := s.ActiveTurn.ResponseParts.At(0).ToolCall
		if tc.Status != ahpwire.ToolRunning {
			t.Fatalf("%s: status %s", c.name, tc.Status)
		}
		got := "null"
		if tc.ToolInput != nil {
			b, _ := tc.ToolInput.MarshalJSON()
			got = string(b)
		}
		if got != c.want {
			t.Errorf("%s: toolInput %s, want %s", c.name, got, c.want)
		}
	}
}

// chatWithPending returns a chat whose active turn t1 holds tool call tc
// pending confirmation with the given input.
func chatWithPending(in *ahpwire.ToolInput) ahpwire.ChatState {
	im := ahpwire.StringOrMarkdown{Text: "Run"}
	tc := ahpwire.ToolCallState{Status: ahpwire.ToolPendingConfirmation, ToolCallID: "tc", ToolName: "bash",
		DisplayName: "Run", InvocationMessage: &im, ToolInput: in}
	return ahpwire.ChatState{Resource: "ahp-chat:/c", Status: ahpwire.StatusInputNeeded,
		ActiveTurn: &ahpwire.ActiveTurn{ID: "t1", ResponseParts: ahpwire.PartsOf(ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &tc})}}
}
