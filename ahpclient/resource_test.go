package ahpclient

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// /demo edit on the real host: the file-edit contents are read back with
// ResourceRead, the changeset channel is subscribed like any other channel
// and a review dispatch is echoed, and an unknown URI is NotFound.
func TestResourceReadAndChangesetChannel(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, url)
	// The reads are what this test is about, not the heartbeat: under
	// -race on a loaded machine the host's answer to a ping could wait
	// behind a large read longer than testOptions' 400 ms, and the link
	// was given up in the middle of a read.
	o.PingInterval, o.PingTimeout = time.Second, 10*time.Second
	c, a := startClient(t, o)
	chat := scriptedSession(t, c, a, sessionURI(71), "/demo edit")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	snap, err := c.Subscribe(ctx, chat, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ahpwire.DecodeChatState(snap.State)
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, p := range st.Turns[0].ResponseParts {
		if p.ToolCall == nil || p.ToolCall.Status != ahpwire.ToolCompleted {
			continue
		}
		for _, content := range p.ToolCall.Result().Content {
			for _, side := range []*ahpwire.FileEditSide{content.Before, content.After} {
				if side == nil {
					continue
				}
				res, err := c.ResourceRead(ctx, side.Content.URI, "")
				if err != nil {
					t.Fatal(err)
				}
				if int64(len(res.Data)) != *side.Content.SizeHint || res.ContentType != side.Content.ContentType {
					t.Fatalf("%s: %d bytes (hint %d), type %q", side.Content.URI, len(res.Data), *side.Content.SizeHint, res.ContentType)
				}
				b64, err := c.ResourceRead(ctx, side.Content.URI, ahpwire.EncodingBase64)
				if err != nil || string(b64.Data) != string(res.Data) {
					t.Fatalf("base64 read differs (err %v)", err)
				}
				read++
			}
		}
	}
	if read < 8 {
		t.Fatalf("read %d sides", read)
	}
	_, err = c.ResourceRead(ctx, "ahp-content:/missing", "")
	if code, ok := ErrorCode(err); !ok || code != ahpwire.CodeNotFound || !strings.Contains(err.Error(), "resourceRead") {
		t.Fatalf("missing resource: %v", err)
	}

	cs := st.Changesets[0].URITemplate
	csSnap, err := c.Subscribe(ctx, cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	state, err := ahpwire.DecodeChangesetState(csSnap.State)
	if err != nil || len(state.Files) != 5 {
		t.Fatalf("changeset: %v, %d files", err, len(state.Files))
	}
	if _, err := c.Dispatch(ctx, cs, &ahpwire.ChangesetFilesReviewChanged{Files: []string{state.Files[1].ID}, Reviewed: true}); err != nil {
		t.Fatal(err)
	}
	a.waitFor("review echo", 5*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e EnvelopeEvent) bool {
			_, ok := e.Envelope.Action.(*ahpwire.ChangesetFilesReviewChanged)
			return ok && e.Envelope.Channel == cs && e.Envelope.RejectionReason == ""
		})
	})
	if err := c.Unsubscribe(ctx, cs); err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Subscriptions() {
		if s == cs {
			t.Fatal("still subscribed after Unsubscribe")
		}
	}
}
