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
}

func newFakeHost(t *testing.T) *fakeHost {
	f := &fakeHost{replies: make(chan ahpwire.Message, 4)}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
			if m.Method == ahpwire.MethodInitialize {
				req, _ := ahpwire.NewRequest(77, "resourceRead", map[string]string{"channel": ahpwire.RootURI, "uri": "file:///etc/passwd"})
				out, _ := json.Marshal(req)
				_ = ws.Write(ctx, websocket.MessageText, out)
			}
		}
	}))
	t.Cleanup(func() {
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
	return f
}

func (f *fakeHost) url() string { return "ws" + strings.TrimPrefix(f.srv.URL, "http") }

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
	seq, err := c.Dispatch(context.Background(), ahpwire.RootURI, &ahpwire.ChatTurnStarted{TurnID: "x", Message: ahpwire.UserMessage(strings.Repeat("z", 100<<10))})
	if !errors.Is(err, segment.ErrMessageTooLarge) {
		t.Fatalf("oversized dispatch = %d, %v", seq, err)
	}
	if _, ok := c.ob.get(seq); ok {
		t.Fatal("failed dispatch left in the outbox")
	}
}
