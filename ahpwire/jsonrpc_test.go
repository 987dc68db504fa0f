package ahpwire

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestMessageKinds(t *testing.T) {
	req, err := NewRequest(4, MethodPing, ChannelParams{Channel: RootURI})
	if err != nil {
		t.Fatal(err)
	}
	note, _ := NewNotification(MethodUnsubscribe, ChannelParams{Channel: "ahp-chat:/c"})
	res, _ := NewResult(4, nil)
	rerr := NewError(4, CodeUnsupportedProtocolVersion, "no", UnsupportedVersionData{SupportedVersions: []string{"1.0.0"}})
	cases := []struct {
		name          string
		m             *Message
		want          string
		req, not, rsp bool
	}{
		{"request", req, `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"channel":"ahp-root://"}}`, true, false, false},
		{"notification", note, `{"jsonrpc":"2.0","method":"unsubscribe","params":{"channel":"ahp-chat:/c"}}`, false, true, false},
		{"null result", res, `{"jsonrpc":"2.0","id":4,"result":null}`, false, false, true},
		{"error", rerr, `{"jsonrpc":"2.0","id":4,"error":{"code":-32005,"message":"no","data":{"supportedVersions":["1.0.0"]}}}`, false, false, true},
		{"null id error", &Message{Error: &RPCError{Code: CodeParseError, Message: "bad"}}, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, false, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.m)
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, b, []byte(c.want)) {
				t.Fatalf("encoded %s\nwant %s", b, c.want)
			}
			var back Message
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back.IsRequest() != c.req || back.IsNotification() != c.not || back.IsResponse() != c.rsp {
				t.Errorf("kind req=%v not=%v rsp=%v", back.IsRequest(), back.IsNotification(), back.IsResponse())
			}
			if err := back.Validate(); err != nil {
				t.Errorf("validate: %v", err)
			}
		})
	}
}

func TestMessageResultNullDistinctFromAbsent(t *testing.T) {
	var m Message
	if err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`), &m); err != nil {
		t.Fatal(err)
	}
	if string(m.Result) != "null" {
		t.Fatalf("result %q, want null", m.Result)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","id":1}`), &m); err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err == nil {
		t.Error("response without result or error validated")
	}
}

func TestMessageValidateRejects(t *testing.T) {
	for _, in := range []string{
		`{"jsonrpc":"1.0","method":"x"}`,
		`{"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","method":"x","result":1}`,
	} {
		var m Message
		if err := json.Unmarshal([]byte(in), &m); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if err := m.Validate(); err == nil {
			t.Errorf("%s validated", in)
		}
	}
	var m Message
	if err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","id":-1}`), &m); err == nil {
		t.Error("negative id accepted")
	}
}

func TestRPCErrorIsError(t *testing.T) {
	var err error = &RPCError{Code: CodeMessageTooLarge, Message: "too large"}
	var re *RPCError
	if !errors.As(err, &re) || re.Code != -32050 {
		t.Fatalf("errors.As failed: %v", err)
	}
	if err.Error() != "jsonrpc error -32050: too large" {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestStringOrMarkdownAndTimestamp(t *testing.T) {
	var s StringOrMarkdown
	if err := json.Unmarshal([]byte(`"plain"`), &s); err != nil || s.Markdown || s.Text != "plain" {
		t.Errorf("plain: %#v %v", s, err)
	}
	if err := json.Unmarshal([]byte(`{"markdown":"**b**"}`), &s); err != nil || !s.Markdown || s.Text != "**b**" {
		t.Errorf("markdown: %#v %v", s, err)
	}
	if err := json.Unmarshal([]byte(`{"other":1}`), &s); err == nil {
		t.Error("object without markdown accepted")
	}
	var ts Timestamp
	if err := json.Unmarshal([]byte(`1700000000000`), &ts); err != nil || ts != "1700000000000" {
		t.Errorf("numeric timestamp %q %v", ts, err)
	}
	if b, _ := json.Marshal(ts); string(b) != "1700000000000" {
		t.Errorf("numeric timestamp re-encoded %s", b)
	}
	if b, _ := json.Marshal(Timestamp("2026-01-01T00:00:00Z")); string(b) != `"2026-01-01T00:00:00Z"` {
		t.Errorf("iso timestamp re-encoded %s", b)
	}
}

func TestReconnectResultVariants(t *testing.T) {
	rep := ReconnectResult{Type: ReconnectReplay, Actions: []ActionEnvelope{{Channel: "ahp-chat:/c", ServerSeq: 3, Action: &ChatDelta{TurnID: "t", PartID: "p", Content: "x"}}}}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"replay","missing":[],"actions":[{"channel":"ahp-chat:/c","serverSeq":3,"action":{"type":"chat/delta","turnId":"t","partId":"p","content":"x"}}]}`
	if !jsonEqual(t, b, []byte(want)) {
		t.Errorf("replay %s", b)
	}
	var back ReconnectResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Type != ReconnectReplay || len(back.Actions) != 1 || back.Actions[0].Action.(*ChatDelta).Content != "x" {
		t.Errorf("replay decode %#v", back)
	}
	snap, _ := NewSnapshot("ahp-chat:/c", ChatState{Resource: "ahp-chat:/c", Title: "t", Status: StatusIdle}, 5)
	b, _ = json.Marshal(ReconnectResult{Type: ReconnectSnapshot, Snapshots: []Snapshot{snap}})
	if err := json.Unmarshal(b, &back); err != nil || back.Type != ReconnectSnapshot || len(back.Snapshots) != 1 {
		t.Fatalf("snapshot decode %#v %v", back, err)
	}
	cs, err := DecodeChatState(back.Snapshots[0].State)
	if err != nil || cs.Title != "t" || len(cs.Turns) != 0 {
		t.Errorf("snapshot state %#v %v", cs, err)
	}
}

func TestInitializeChunkingCapability(t *testing.T) {
	in := `{"channel":"ahp-root://","protocolVersions":["1.0.0","0.9.0"],"clientId":"c","capabilities":{"chunking":{"maxIncomingFrameBytes":900000,"maxIncomingMessageBytes":33554432,"groupTimeoutMs":30000},"future":{}}}`
	var p InitializeParams
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	c := p.Capabilities.Chunking
	if c == nil || c.MaxIncomingFrameBytes != 900000 || c.MaxIncomingGroups != nil || *c.GroupTimeoutMs != 30000 {
		t.Fatalf("chunking %#v", c)
	}
	b, _ := json.Marshal(InitializeResult{ProtocolVersion: "1.0.0"})
	if !jsonEqual(t, b, []byte(`{"protocolVersion":"1.0.0","serverSeq":0,"snapshots":[]}`)) {
		t.Errorf("initialize result %s", b)
	}
}
