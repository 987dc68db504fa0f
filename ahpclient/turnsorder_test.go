package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// TestFetchTurnsEventFollowsItsPage: FetchTurns' completion reaches the
// consumer through the event stream after the chat/turnsLoaded page, so a
// pager that sees TurnsFetchedEvent has the page (the race that made the
// TUI wait pageSettle for it is gone). The consumer reads nothing while
// each call runs (a busy UI: the call returns with the page still queued),
// and every page is segmented, with the answer able to slip between
// segments on the wire if the host let it. A failing call produces its
// event too, with the error, and every call exactly one.
func TestFetchTurnsEventFollowsItsPage(t *testing.T) {
	h, u := startHost(t, ahphost.Options{NoToken: true})
	chat, err := h.SeedSession("ahp-session:/paged", ahphost.SyntheticTurns(40, 24<<10)) // pages of 2 turns ≈ 50 KB: 4+ segments
	if err != nil {
		t.Fatal(err)
	}
	o := testOptions(t, u)
	o.Chunking = &segment.ChunkingCapability{MaxIncomingFrameBytes: 16 << 10, MaxIncomingMessageBytes: 32 << 20}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	snap, err := c.Subscribe(ctx, chat, &ahpwire.SubscribeView{Turns: ahpwire.Ptr(2)})
	if err != nil {
		t.Fatal(err)
	}
	var st ahpwire.ChatState
	if err := json.Unmarshal(snap.State, &st); err != nil {
		t.Fatal(err)
	}
	loaded := len(st.Turns)
	// next reads the stream up to the TurnsFetchedEvent and returns it and
	// the pages seen before it.
	next := func() (TurnsFetchedEvent, []*ahpwire.ChatTurnsLoaded) {
		t.Helper()
		var pages []*ahpwire.ChatTurnsLoaded
		for {
			ev, err := c.Next(ctx)
			if err != nil {
				t.Fatalf("next: %v", err)
			}
			switch ev := ev.(type) {
			case TurnsFetchedEvent:
				return ev, pages
			case EnvelopeEvent:
				if p, ok := ev.Envelope.Action.(*ahpwire.ChatTurnsLoaded); ok && ev.Envelope.Channel == chat {
					pages = append(pages, p)
				}
			}
		}
	}
	for cursor, calls := st.TurnsNextCursor, 0; cursor != ""; calls++ {
		if calls > 40 {
			t.Fatal("paging does not end")
		}
		if err := c.FetchTurns(ctx, chat, cursor); err != nil {
			t.Fatalf("fetchTurns %q: %v", cursor, err)
		}
		done, pages := next()
		if done.Channel != chat || done.Cursor != cursor || done.Err != nil {
			t.Fatalf("event %+v for the call with cursor %q", done, cursor)
		}
		if len(pages) != 1 {
			t.Fatalf("%d pages before the TurnsFetchedEvent of cursor %q, want its page", len(pages), cursor)
		}
		loaded += len(pages[0].Turns)
		cursor = pages[0].TurnsNextCursor
	}
	if loaded != 40 {
		t.Fatalf("paged in %d turns of 40", loaded)
	}
	// A failing call: its error, in the stream too.
	ferr := c.FetchTurns(ctx, chat, "no-such-cursor")
	var rpc *ahpwire.RPCError
	if !errors.As(ferr, &rpc) {
		t.Fatalf("bad cursor: %v", ferr)
	}
	if done, pages := next(); done.Cursor != "no-such-cursor" || !errors.As(done.Err, &rpc) || len(pages) != 0 {
		t.Fatalf("failed call's event %+v after %d pages", done, len(pages))
	}
	// Exactly one event per call: nothing else is queued.
	short, stop := context.WithTimeout(ctx, 200*time.Millisecond)
	defer stop()
	for {
		ev, err := c.Next(short)
		if err != nil {
			break
		}
		if _, ok := ev.(TurnsFetchedEvent); ok {
			t.Fatalf("a second TurnsFetchedEvent: %+v", ev)
		}
	}
}
