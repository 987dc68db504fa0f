package ahpclient

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestHostileHostSegmentsBounded: a host that opens eight groups with ~750
// byte first segments declaring total 65535 (and never finishes them) makes
// the client hold what arrived, not 8 × 32 MiB; when the connection drops
// every byte goes back to the client's reassembly budget.
func TestHostileHostSegmentsBounded(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := r.Context()
		_, b, err := ws.Read(ctx)
		var m ahpwire.Message
		if err != nil || json.Unmarshal(b, &m) != nil || m.ID == nil {
			return
		}
		resp, _ := ahpwire.NewResult(*m.ID, ahpwire.InitializeResult{ProtocolVersion: "1.0.0"})
		out, _ := json.Marshal(resp)
		if ws.Write(ctx, websocket.MessageText, out) != nil {
			return
		}
		if conns.Add(1) > 1 {
			<-ctx.Done() // later connections stay quiet
			return
		}
		data := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 480)))
		for g := range 8 {
			f := fmt.Sprintf(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g%d","index":0,"total":65535,"data":%q}}`, g, data)
			if ws.Write(ctx, websocket.MessageText, []byte(f)) != nil {
				return
			}
		}
		// A server request the client answers (-32601) after it has read
		// every segment; then the link drops.
		_ = ws.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":5,"method":"x/probe"}`))
		_, _, _ = ws.Read(ctx)
	}))
	t.Cleanup(srv.Close)
	o := testOptions(t, wsURL(srv))
	o.SessionsLimit = -1
	c, _ := startClient(t, o)
	budget := c.cfg.recvLim.Budget
	deadline := time.Now().Add(10 * time.Second)
	for conns.Load() < 2 || budget.Used() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after the hostile connection ended: %d connections, budget holds %d", conns.Load(), budget.Used())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if p := budget.Peak(); p == 0 || p > 8*1024 {
		t.Fatalf("eight hostile groups peaked at %d bytes (want 0 < peak ≤ 8 KiB)", p)
	}
}
