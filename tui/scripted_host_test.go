package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/picker"
)

// The scripted host speaks raw JSON frames written by hand in AHP 1.0
// shapes (types/channels-terminal, types/channels-changeset,
// types/common/state.ts), independent of this repository's encoders.
const (
	shSession   = "ahp-session:/0f0f0f0f-1111-2222-3333-444444444444"
	shChat      = "ahp-chat:/0f0f0f0f-aaaa-bbbb-cccc-dddddddddddd"
	shTerminal  = "ahp-terminal:/npm-test-1"
	shChangeset = "ahp-changeset:/0f0f0f0f/session"
)

var shSnapshots = map[string]string{
	shSession: `{"provider":"copilot","title":"Scripted","status":1,"lifecycle":"ready","defaultChat":"` + shChat +
		`","chats":[{"resource":"` + shChat + `","title":"main","status":1,"modifiedAt":"2026-01-01T00:00:00.000Z"}],"activeClients":[]}`,
	shChat: `{"resource":"` + shChat + `","title":"Scripted","status":8,"modifiedAt":"2026-01-01T00:00:00.000Z","turns":[],` +
		`"changesets":[{"label":"Session Changes","uriTemplate":"` + shChangeset + `","changeKind":"session","capabilities":{"review":{}}}],` +
		`"activeTurn":{"id":"t1","startedAt":"2026-01-01T00:00:00.000Z","message":{"text":"run the tests","origin":{"kind":"user"}},` +
		`"responseParts":[{"kind":"toolCall","toolCall":{"status":"running","toolCallId":"tc1","toolName":"bash","displayName":"Run Command",` +
		`"invocationMessage":"Running npm test","toolInput":"{\"command\":\"npm test\"}","confirmed":"not-needed",` +
		`"content":[{"type":"terminal","resource":"` + shTerminal + `","title":"npm test","isPty":true}]}}]}}`,
	shTerminal: `{"title":"npm test","cols":80,"rows":24,"content":[{"type":"unclassified","value":"$ "}],` +
		`"claim":{"kind":"session","session":"` + shSession + `","turnId":"t1","toolCallId":"tc1"}}`,
	shChangeset: `{"status":"ready","files":[{"id":"file:///w/src/a.ts","edit":{` +
		`"before":{"uri":"file:///w/src/a.ts","content":{"uri":"content:/a-before","sizeHint":24,"contentType":"text/plain"}},` +
		`"after":{"uri":"file:///w/src/a.ts","content":{"uri":"content:/a-after","sizeHint":24,"contentType":"text/plain"}},` +
		`"diff":{"added":1,"removed":1}}}]}`,
}

var shResources = map[string]string{"content:/a-before": "const a = 1;\nexport {a};\n", "content:/a-after": "const a = 2;\nexport {a};\n"}

// shTerminalActions follow the terminal snapshot (1.0 action shapes).
var shTerminalActions = []string{
	`{"type":"terminal/commandExecuted","commandId":"c1","commandLine":"npm test","timestamp":1700000000000}`,
	`{"type":"terminal/data","data":"npm test\r\n\u001b[32m✓ parses\u001b[0m\r\n\u001b]0;evil title\u0007\u001b[6n"}`,
	`{"type":"terminal/data","data":"\u001b[31m✗ renders\u001b[0m\r\n1 failing\r\n"}`,
	`{"type":"terminal/commandFinished","commandId":"c1","exitCode":1,"durationMs":1234}`,
	`{"type":"terminal/data","data":"$ "}`,
	`{"type":"terminal/exited","exitCode":1}`,
}

// scriptedHost serves the frames above over a real WebSocket.
func scriptedHost(t *testing.T) string {
	var mu sync.Mutex
	seq := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ws.SetReadLimit(-1)
		ctx := r.Context()
		write := func(s string) bool { return ws.Write(ctx, websocket.MessageText, []byte(s)) == nil }
		action := func(channel, a, origin string) bool {
			mu.Lock()
			seq++
			n := seq
			mu.Unlock()
			o := ""
			if origin != "" {
				o = `,"origin":` + origin
			}
			return write(fmt.Sprintf(`{"jsonrpc":"2.0","method":"action","params":{"channel":%q,"serverSeq":%d,"action":%s%s}}`, channel, n, a, o))
		}
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m struct {
				ID     *uint64         `json:"id"`
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			if json.Unmarshal(b, &m) != nil {
				return
			}
			var p struct {
				Channel   string          `json:"channel"`
				URI       string          `json:"uri"`
				ClientSeq uint64          `json:"clientSeq"`
				Action    json.RawMessage `json:"action"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if m.ID == nil {
				if m.Method == "dispatchAction" && strings.HasPrefix(p.Channel, "ahp-changeset:") {
					action(p.Channel, string(p.Action), fmt.Sprintf(`{"clientId":"c","clientSeq":%d}`, p.ClientSeq))
				}
				continue
			}
			id := *m.ID
			var result string
			switch m.Method {
			case "initialize":
				result = `{"protocolVersion":"1.0.0","serverSeq":0,"snapshots":[]}`
			case "subscribe":
				state, ok := shSnapshots[p.Channel]
				if !ok {
					write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32008,"message":"not found"}}`, id))
					continue
				}
				mu.Lock()
				from := seq
				mu.Unlock()
				result = fmt.Sprintf(`{"snapshot":{"resource":%q,"state":%s,"fromSeq":%d}}`, p.Channel, state, from)
			case "resourceRead":
				data, ok := shResources[p.URI]
				if !ok {
					write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32008,"message":"not found"}}`, id))
					continue
				}
				d, _ := json.Marshal(data)
				result = fmt.Sprintf(`{"data":%s,"encoding":"utf-8","contentType":"text/plain"}`, d)
			default:
				result = `{}`
			}
			if !write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, id, result)) {
				return
			}
			if m.Method == "subscribe" && p.Channel == shTerminal {
				for _, a := range shTerminalActions {
					if !action(shTerminal, a, "") {
						return
					}
				}
			}
		}
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// Against a host scripted in raw AHP 1.0 frames: the terminal referenced by
// the running tool call is subscribed and rendered with its command's
// status (nothing raw from its stream reaches the frame), and the changes
// view shows the changeset, fetches the diff with resourceRead and marks
// the file reviewed through changeset/filesReviewChanged.
func TestScriptedHostTerminalAndChangeset(t *testing.T) {
	url := scriptedHost(t)
	c, err := ahpclient.New(ahpclient.Options{URL: url, StateDir: t.TempDir(), ExplicitAck: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	r := &liveRig{t: t, client: c}
	r.m = newModel(Options{Backend: liveBackend{c}, Host: "scripted", Dark: true, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	r.m = send(t, r.m, teaSize(100, 30))
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: shSession})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	r.pump("terminal done", func(m Model) bool {
		v := viewText(m)
		return strings.Contains(v, "✗ npm test  exit 1 · 1.2s") && strings.Contains(v, "1 failing") &&
			strings.Contains(v, "$ npm test  exit 1")
	})
	checkHostileFrame(t, "scripted terminal", r.m, 100, 30)

	r.m = send(t, r.m, f6())
	r.pump("changes", func(m Model) bool { return strings.Contains(viewText(m), "[ ] M /w/src/a.ts  +1 −1") })
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("diff", func(m Model) bool { return strings.Contains(viewText(m), "+const a = 2;") })
	if !strings.Contains(viewText(r.m), "-const a = 1;") {
		t.Fatalf("diff:\n%s", viewText(r.m))
	}
	r.m = send(t, r.m, tea.KeyPressMsg{Code: ' ', Text: " "})
	r.pump("reviewed", func(m Model) bool {
		st, held := m.c.Mirror.Changeset(shChangeset)
		return m.c.Channels.Changesets[shChangeset] != nil && held && len(st.Files) == 1 && st.Files[0].IsReviewed()
	})
}
