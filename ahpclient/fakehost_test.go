package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// fakeHost is a minimal scripted AHP peer for behaviour the real host never
// shows: it does not advertise chunking and it sends a server→client
// request after initialize. replies receives every response the client sends.
type fakeHost struct {
	srv     *httptest.Server
	replies chan ahpwire.Message
	// afterInit, when set, is sent instead of the resourceRead request.
	afterInit []byte
	// closes receives the close status of each connection the client ends.
	closes chan websocket.StatusCode
	// onSubscribe, when set, returns the frames sent for a subscribe
	// request (instead of a null result).
	onSubscribe func(id uint64) [][]byte
}

func newFakeHost(t *testing.T) *fakeHost { return newFakeHostWith(t, nil, nil) }

func newFakeHostSending(t *testing.T, afterInit []byte) *fakeHost {
	return newFakeHostWith(t, afterInit, nil)
}

func newFakeHostWith(t *testing.T, afterInit []byte, onSubscribe func(id uint64) [][]byte) *fakeHost {
	f := &fakeHost{replies: make(chan ahpwire.Message, 4), afterInit: afterInit, closes: make(chan websocket.StatusCode, 8),
		onSubscribe: onSubscribe}
	f.srv = serveWS(t, func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ws.SetReadLimit(-1)
		ctx := r.Context()
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				select {
				case f.closes <- websocket.CloseStatus(err):
				default:
				}
				return
			}
			var m ahpwire.Message
			if json.Unmarshal(b, &m) != nil {
				return
			}
			if m.IsResponse() {
				f.replies <- m
				continue
			}
			if !m.IsRequest() {
				continue
			}
			if m.Method == ahpwire.MethodSubscribe && f.onSubscribe != nil {
				for _, fr := range f.onSubscribe(*m.ID) {
					if ws.Write(ctx, websocket.MessageText, fr) != nil {
						return
					}
				}
				continue
			}
			var resp *ahpwire.Message
			switch m.Method {
			case ahpwire.MethodInitialize:
				resp, _ = ahpwire.NewResult(*m.ID, ahpwire.InitializeResult{ProtocolVersion: "1.0.0", ServerSeq: 0})
			default:
				resp, _ = ahpwire.NewResult(*m.ID, nil)
			}
			out, _ := json.Marshal(resp)
			if ws.Write(ctx, websocket.MessageText, out) != nil {
				return
			}
			if m.Method == ahpwire.MethodInitialize && f.afterInit != nil {
				_ = ws.Write(ctx, websocket.MessageText, f.afterInit)
			} else if m.Method == ahpwire.MethodInitialize {
				req, _ := ahpwire.NewRequest(77, "resourceRead", map[string]string{"channel": ahpwire.RootURI, "uri": "file:///etc/passwd"})
				out, _ := json.Marshal(req)
				_ = ws.Write(ctx, websocket.MessageText, out)
			}
		}
	})
	return f
}

func (f *fakeHost) url() string { return wsURL(f.srv) }

func (f *fakeHost) reply(t *testing.T) ahpwire.Message {
	t.Helper()
	select {
	case m := <-f.replies:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("client never answered the server request")
		return ahpwire.Message{}
	}
}

func TestServerRequestAnsweredMethodNotFound(t *testing.T) {
	f := newFakeHost(t)
	o := testOptions(t, f.url())
	o.SessionsLimit = -1
	startClient(t, o)
	m := f.reply(t)
	if m.ID == nil || *m.ID != 77 || m.Error == nil || m.Error.Code != ahpwire.CodeMethodNotFound {
		t.Fatalf("reply = %+v, want -32601 for id 77", m)
	}
}

func TestServerRequestHandler(t *testing.T) {
	f := newFakeHost(t)
	o := testOptions(t, f.url())
	o.SessionsLimit = -1
	o.RequestHandler = func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		if method != "resourceRead" {
			return nil, &ahpwire.RPCError{Code: ahpwire.CodeMethodNotFound, Message: method}
		}
		return nil, &ahpwire.RPCError{Code: ahpwire.CodePermissionDenied, Message: "no files served"}
	}
	startClient(t, o)
	m := f.reply(t)
	if m.Error == nil || m.Error.Code != ahpwire.CodePermissionDenied {
		t.Fatalf("reply = %+v, want the handler's -32009", m)
	}
}

func TestFailClosedRequestWithoutHostChunking(t *testing.T) {
	f := newFakeHost(t)
	o := testOptions(t, f.url())
	o.SessionsLimit = -1
	o.MaxFrameBytes = 64 << 10
	c, _ := startClient(t, o)
	if c.State().HostChunking {
		t.Fatal("fake host advertised chunking")
	}
	big := ahpwire.Meta{"blob": json.RawMessage(`"` + strings.Repeat("y", 100<<10) + `"`)}
	err := c.CreateSession(context.Background(), ahpwire.CreateSessionParams{Channel: sessionURI(10), Meta: big})
	var nn *segment.NotNegotiatedError
	if !errors.As(err, &nn) || !errors.Is(err, segment.ErrMessageTooLarge) {
		t.Fatalf("oversized request = %v, want a local *segment.NotNegotiatedError", err)
	}
	// The connection is untouched and a big dispatch fails the same way.
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("Ping after local failure: %v", err)
	}
	seq, err := c.Dispatch(context.Background(), ahpwire.RootURI, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "x", Message: ahpwire.UserMessage(strings.Repeat("z", 100<<10))})
	if !errors.Is(err, segment.ErrMessageTooLarge) {
		t.Fatalf("oversized dispatch = %d, %v", seq, err)
	}
	if _, ok := c.ob.get(seq); ok {
		t.Fatal("failed dispatch left in the outbox")
	}
}

func TestInvalidSegmentClosesWith4400AndReconnects(t *testing.T) {
	bad := []byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g1","index":1,"total":2,"data":"eyJh"}}`)
	f := newFakeHostSending(t, bad)
	o := testOptions(t, f.url())
	o.SessionsLimit = -1
	_, a := startClient(t, o)
	select {
	case st := <-f.closes:
		if st != segment.CloseCode {
			t.Fatalf("client closed with %d, want %d", st, segment.CloseCode)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("client did not close the connection after an invalid segment")
	}
	evs := a.waitFor("reconnecting", 15*time.Second, func(evs []Event) bool { return countState(evs, Reconnecting) > 0 })
	for _, e := range evs {
		if s, ok := e.(ConnStateEvent); ok && s.State.Phase == Reconnecting {
			if _, ok := segment.RuleOf(s.State.Err); !ok {
				t.Fatalf("reconnect cause %v is not the segment violation", s.State.Err)
			}
			return
		}
	}
}
