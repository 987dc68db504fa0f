package resload

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// The loader over a real client and host: the contents of /demo edit's
// large file arrive through resourceRead and are cached.
func TestLoaderOverRealHost(t *testing.T) {
	h, err := ahphost.New(ahphost.Options{NoToken: true, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	url, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	c, err := ahpclient.New(ahpclient.Options{URL: url, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() { // drain events
		for {
			ev, err := c.Next(ctx)
			if err != nil {
				return
			}
			if e, ok := ev.(ahpclient.EnvelopeEvent); ok {
				c.Ack(e.Envelope.ServerSeq)
			}
		}
	}()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	const session = "ahp-session:/11111111-2222-3333-4444-555555555555"
	if err := c.CreateSession(ctx, ahpwire.CreateSessionParams{Channel: session, Provider: "demo"}); err != nil {
		t.Fatal(err)
	}
	var chat string
	for chat == "" {
		snap, err := c.Subscribe(ctx, session, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ss struct {
			Lifecycle   string `json:"lifecycle"`
			DefaultChat string `json:"defaultChat"`
		}
		_ = json.Unmarshal(snap.State, &ss)
		if ss.Lifecycle == "ready" {
			chat = ss.DefaultChat
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if _, err := c.Subscribe(ctx, chat, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Dispatch(ctx, chat, &ahpwire.ChatTurnStarted{TurnID: "t1", StartedAt: "2026-11-22T00:00:00.000Z", Message: ahpwire.UserMessage("/demo edit")}); err != nil {
		t.Fatal(err)
	}
	var refs []ahpwire.ContentRef
	for len(refs) == 0 {
		snap, err := c.Subscribe(ctx, chat, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := ahpwire.DecodeChatState(snap.State)
		for _, turn := range st.Turns {
			for _, p := range turn.ResponseParts {
				if p.ToolCall != nil && p.ToolCall.Status == ahpwire.ToolCompleted {
					for _, ct := range p.ToolCall.Result().Content {
						if ct.After != nil {
							refs = append(refs, ct.After.Content)
						}
					}
				}
			}
		}
		if len(refs) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	read := func(ctx context.Context, uri string) (Content, error) {
		r, err := c.ResourceRead(ctx, uri, "")
		return Content{Data: r.Data, ContentType: r.ContentType}, err
	}
	l := New(0, read)
	var uris []string
	hints := map[string]int64{}
	for _, r := range refs {
		uris = append(uris, r.URI)
		hints[r.URI] = *r.SizeHint
	}
	for len(l.Texts()) < len(uris) {
		fs := l.Want(uris, func(u string) int64 { return hints[u] })
		if len(fs) == 0 && l.Inflight() == 0 {
			t.Fatalf("stuck: %v", l.Loading())
		}
		for _, f := range fs {
			l.Done(f())
		}
	}
	for _, u := range uris {
		if int64(len(l.Texts()[u])) != hints[u] {
			t.Fatalf("%s: %d bytes, hint %d", u, len(l.Texts()[u]), hints[u])
		}
	}
}
