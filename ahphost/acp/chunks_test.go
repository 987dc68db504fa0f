//go:build unix

package acp

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/jsonscan"
)

// sdkChunk decodes line as the SDK does: whether it is a session/update
// text chunk, and its session, kind and text.
func sdkChunk(line []byte) (session string, thought bool, text string, ok bool) {
	var msg struct {
		ID     *json.RawMessage `json:"id"`
		Method string           `json:"method"`
		Params json.RawMessage  `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.ID != nil || msg.Method != sdk.ClientMethodSessionUpdate {
		return "", false, "", false
	}
	var n sdk.SessionNotification
	if json.Unmarshal(msg.Params, &n) != nil {
		return "", false, "", false
	}
	switch u := n.Update; {
	case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
		return string(n.SessionId), false, u.AgentMessageChunk.Content.Text.Text, true
	case u.AgentThoughtChunk != nil && u.AgentThoughtChunk.Content.Text != nil:
		return string(n.SessionId), true, u.AgentThoughtChunk.Content.Text.Text, true
	}
	return "", false, "", false
}

// fastChunk is parseChunk's reading of line, the text decoded.
func fastChunk(line []byte) (session string, thought bool, text string, ok bool) {
	var c chunkLine
	if !parseChunk(line, &c) {
		return "", false, "", false
	}
	return string(c.session), c.thought, string(jsonscan.Unescape(nil, c.text)), true
}

// parseChunk takes exactly the plain text chunks, and reads them as the
// SDK does; everything else is left to the SDK.
func TestParseChunk(t *testing.T) {
	const head = `{"jsonrpc":"2.0","method":"session/update","params":`
	for _, c := range []struct {
		line string
		fast bool
	}{
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"## Hi\n\n- a"}}}}`, true},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"}}}}`, true},
		// the Go SDK's member order, white space, escapes, UTF-8, surrogates
		{`{"params":{"update":{"content":{"text":"x","type":"text"},"sessionUpdate":"agent_message_chunk"},"sessionId":"s1"},"method":"session/update","jsonrpc":"2.0"}`, true},
		{" { \"jsonrpc\" : \"2.0\" , \"method\":\"session\\/update\",\"params\":{\"sessionId\":\"s1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"\\\"q\\\" \\\\ \\u00e9 \\ud83d\\ude00 \\ud83d é 😀 \\t\"}}}}\r", true},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":""}}}}`, true},
		// left to the SDK
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","annotations":{"priority":1}}}}}`, false},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","_meta":{"claudeCode":{"parentToolUseId":"t"}},"content":{"type":"text","text":"a"}}}}`, false},
		{head + `{"sessionId":"s1","_meta":{},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`, false},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"a"}}}}`, false},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"AA==","mimeType":"image/png"}}}}`, false},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","text":"b"}}}}`, false},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text"}}}}`, false},
		{head + `{"sessionId":"s\u0031","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`, false},
		{head + `{"SessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`, false},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}`, false},
		{head + `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}x`, false},
		{head + "{\"sessionId\":\"s1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"\xff\"}}}}", false},
		{`{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`, false},
		{`{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`, false},
		{`not json`, false},
		{``, false},
	} {
		s, th, text, ok := fastChunk([]byte(c.line))
		if ok != c.fast {
			t.Errorf("%s: taken %v, want %v", c.line, ok, c.fast)
			continue
		}
		if !ok {
			continue
		}
		ws, wth, wtext, wok := sdkChunk([]byte(c.line))
		if !wok || s != ws || th != wth || text != wtext {
			t.Errorf("%s: read as (%q %v %q), the SDK reads (%q %v %q %v)", c.line, s, th, text, ws, wth, wtext, wok)
		}
	}
}

// Whatever parseChunk takes, the SDK reads the same way.
func FuzzParseChunk(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a\u00e9\n"}}}}`))
	f.Add([]byte(`{"params":{"update":{"content":{"text":"x","type":"text"},"sessionUpdate":"agent_thought_chunk"},"sessionId":"s1"},"method":"session/update","jsonrpc":"2.0"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		s, th, text, ok := fastChunk(line)
		if !ok {
			return
		}
		ws, wth, wtext, wok := sdkChunk(line)
		if !wok || s != ws || th != wth || text != wtext {
			t.Fatalf("%q: read as (%q %v %q), the SDK reads (%q %v %q %v)", line, s, th, text, ws, wth, wtext, wok)
		}
	})
}

// recorder is a turn's Emit that keeps the actions, text folded.
type recorder struct {
	mu   sync.Mutex
	acts []ahpwire.Action
}

func (r *recorder) emit(a ahpwire.Action) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acts = foldText(r.acts, a)
}

func (r *recorder) summary() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, a := range r.acts {
		switch a := a.(type) {
		case *ahpwire.ChatResponsePart:
			b.WriteString(a.Part.ID + "=" + a.Part.Content + "|")
		default:
			b.WriteString(a.ActionType() + "|")
		}
	}
	return b.String()
}

// readerTurn starts a turn of session sess-1 on a bridge reading pr as
// the agent's stdout.
func readerTurn(t *testing.T, pr *os.File) (*recorder, func()) {
	t.Helper()
	br, err := New(Config{Name: "t", Command: "none", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s := &session{uri: "ahp-session:/r", dir: br.cfg.Dir, acpID: "sess-1", applied: map[string]string{},
		files: map[string]*changedFile{}, terms: map[string]*terminal{}}
	br.sessions[s.uri], br.byACP["sess-1"] = s, s
	rec := &recorder{}
	s.setTurn(&turnMap{b: br, s: s, t: agent.Turn{TurnID: "t", Emit: rec.emit}, tools: map[string]*toolMap{},
		waiters: map[string]chan *ahpwire.ChatToolCallConfirmed{}, toolSeen: make(chan struct{})})
	gate := make(chan struct{})
	conn, _ := br.connect(discard{}, pr, gate, nil)
	conn.SetLogger(br.sdkLogger())
	close(gate)
	return rec, func() { <-conn.Done() }
}

// discard is the agent's stdin.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// update is one session/update line.
func update(session string, u sdk.SessionUpdate) string {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "session/update",
		"params": sdk.SessionNotification{SessionId: sdk.SessionId(session), Update: u}})
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// The reader maps text chunks itself and hands everything else to the
// SDK, and the turn still sees every update in the agent's order: text
// around a tool call, a chunk the SDK decodes (with _meta), a thought, a
// chunk of another session, a line longer than the reader's buffer, a
// broken line, a notification the SDK ignores.
func TestReaderKeepsOrder(t *testing.T) {
	meta := strings.Replace(update("sess-1", sdk.UpdateAgentMessageText("M")), `"sessionUpdate"`, `"_meta":{"x":1},"sessionUpdate"`, 1)
	long := strings.Repeat("L", 3*readSize)
	lines := []string{
		update("sess-1", sdk.UpdateAgentMessageText("a")),
		update("sess-1", sdk.UpdateAgentMessageText("b")),
		update("sess-1", sdk.StartToolCall("t1", "Run")),
		update("sess-1", sdk.UpdateAgentMessageText("c")),
		meta,
		update("sess-1", sdk.UpdateAgentMessageText("d")),
		update("sess-1", sdk.UpdateAgentThoughtText("T")),
		update("sess-1", sdk.UpdateAgentMessageText("e")),
		update("other", sdk.UpdateAgentMessageText("X")),
		"not json\n",
		`{"jsonrpc":"2.0","method":"_ahp/ignored","params":{}}` + "\n",
		update("sess-1", sdk.UpdateAgentMessageText("f")),
		update("sess-1", sdk.UpdateAgentMessageText(long)),
		update("sess-1", sdk.UpdateAgentMessageText("g")),
	}
	want := "t.m1=ab|chat/toolCallStart|t.m2=cMd|t.r3=T|t.m4=ef" + long + "g|"
	for i := range 10 { // the SDK handles its lines concurrently: repeat
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		rec, wait := readerTurn(t, pr)
		if _, err := pw.WriteString(strings.Join(lines, "")); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for rec.summary() != want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if got := rec.summary(); got != want {
			t.Fatalf("run %d: the turn saw\n%.300s\nwant\n%.300s", i, got, want)
		}
		_ = pw.Close()
		wait()
		_ = pr.Close()
	}
}

// Text the reader holds while more chunks may come reaches the turn
// without more input (the agent pauses, say to run a tool).
func TestReaderMapsHeldTextWhenTheAgentPauses(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	rec, wait := readerTurn(t, pr)
	defer func() { _ = pw.Close(); wait(); _ = pr.Close() }()
	if _, err := pw.WriteString(update("sess-1", sdk.UpdateAgentMessageText("one")) + update("sess-1", sdk.UpdateAgentMessageText(" two"))); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for rec.summary() != "t.m1=one two|" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := rec.summary(); got != "t.m1=one two|" {
		t.Fatalf("the turn saw %q while the agent paused", got)
	}
}

// A flood of updates far past the SDK's queue of 1024 notifications is
// handled whole: the reader handles each as it reads it.
func TestReaderFloodOfUpdates(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	rec, wait := readerTurn(t, pr)
	var b strings.Builder
	for i := range 3000 {
		b.WriteString(update("sess-1", sdk.StartToolCall(sdk.ToolCallId(fmt.Sprint("t", i)), "Run")))
	}
	go func() { _, _ = pw.WriteString(b.String()) }()
	starts := func() int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		n := 0
		for _, a := range rec.acts {
			if _, ok := a.(*ahpwire.ChatToolCallStart); ok {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(30 * time.Second)
	for starts() < 3000 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := starts(); n != 3000 {
		t.Fatalf("%d of 3000 tool calls arrived", n)
	}
	_ = pw.Close()
	wait()
	_ = pr.Close()
}
