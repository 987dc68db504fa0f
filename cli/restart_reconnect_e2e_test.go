package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// reconnectClient is an ahpclient on r's host that retries quickly.
func reconnectClient(ctx context.Context, t *testing.T, r *durableRig) *ahpclient.Client {
	t.Helper()
	c, err := ahpclient.New(ahpclient.Options{URL: r.url(), Token: "tok-durable", StateDir: t.TempDir(),
		Backoff: ahpclient.BackoffPolicy{Initial: 50 * time.Millisecond, Max: 200 * time.Millisecond}})
	must(t, err)
	t.Cleanup(func() { _ = c.Close() })
	must(t, c.Start(ctx))
	return c
}

// nextAfterRestart reads c's events until its connection dropped and is
// back, and returns how it recovered and what it was told of chat: its new
// snapshot (nil: none; it comes before the Connected state) and whether
// the channel was lost.
func nextAfterRestart(ctx context.Context, t *testing.T, c *ahpclient.Client, chat string) (rec ahpclient.Recovery, snap *ahpwire.Snapshot, lost bool) {
	t.Helper()
	dropped, connected := false, false // the events of the first connection come first
	for !connected || (snap == nil && !lost) {
		ev, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("after the restart (connected %v, recovery %v): %v", connected, rec, err)
		}
		switch e := ev.(type) {
		case ahpclient.ConnStateEvent:
			switch e.State.Phase {
			case ahpclient.Reconnecting:
				dropped = true
			case ahpclient.Connected:
				connected, rec = dropped, e.State.Recovery
			}
		case ahpclient.SnapshotEvent:
			if dropped && e.Snapshot.Resource == chat {
				s := e.Snapshot
				snap = &s
			}
		case ahpclient.ChannelLostEvent:
			if dropped && e.Channel == chat {
				lost = true
			}
		case ahpclient.EnvelopeEvent:
			if dropped && snap == nil && e.Envelope.Channel == chat {
				t.Fatalf("the chat continued by replay across a restart (serverSeq %d, recovery %v) without a snapshot", e.Envelope.ServerSeq, rec)
			}
		}
	}
	return rec, snap, lost
}

// TestServeRestartReconnectGetsSnapshots: a WebSocket client subscribed
// to a chat of a real `serve` when the host is killed (-9) and started
// again on the same address reconnects and is told the instance changed:
// it initializes again and gets a snapshot holding every turn it had
// (not a replay onto an empty chat), with serverSeq above what it had
// seen. When the host comes back on an empty state directory (the old one
// moved away), the client is told the chat is gone (ChannelLost), not
// handed an empty one.
func TestServeRestartReconnectGetsSnapshots(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	unpackUpgradeFixture(t, r.state)
	r.start()
	ctx, cancel := context.WithTimeout(context.Background(), 2*testTimeout)
	defer cancel()
	c := reconnectClient(ctx, t, r)
	chat := "ahp-chat:/" + upgradeLayout
	before, err := c.Subscribe(ctx, chat, &ahpwire.SubscribeView{Turns: ahpwire.Ptr(100)})
	must(t, err)
	var had ahpwire.ChatState
	must(t, json.Unmarshal(before.State, &had))
	if len(had.Turns) != 3 {
		t.Fatalf("%d turns before the restart", len(had.Turns))
	}

	r.stop(syscall.SIGKILL)
	r.start()
	rec, snap, lost := nextAfterRestart(ctx, t, c, chat)
	if lost || snap == nil || (rec != ahpclient.RecoveryReinitialized && rec != ahpclient.RecoverySnapshot) {
		t.Fatalf("after the restart: recovery %v, snapshot %v, lost %v", rec, snap != nil, lost)
	}
	var got ahpwire.ChatState
	must(t, json.Unmarshal(snap.State, &got))
	if len(got.Turns) != len(had.Turns) || snap.FromSeq < before.FromSeq {
		t.Fatalf("the chat after the restart: %d turns (had %d), fromSeq %d (had %d)", len(got.Turns), len(had.Turns), snap.FromSeq, before.FromSeq)
	}
	for i := range had.Turns {
		a, _ := json.Marshal(had.Turns[i])
		b, _ := json.Marshal(got.Turns[i])
		if string(a) != string(b) {
			t.Fatalf("turn %d changed across the restart:\n%s\n%s", i, a, b)
		}
	}

	// The state directory moved away: the host starts empty, and the
	// client is told its chat is gone.
	r.stop(syscall.SIGTERM)
	must(t, os.Rename(r.state, filepath.Join(filepath.Dir(r.state), "moved")))
	r.start()
	if _, snap, lost := nextAfterRestart(ctx, t, c, chat); !lost {
		t.Fatalf("on a host without the chat the client got a snapshot instead of losing it: %s", snap.State)
	}
}
