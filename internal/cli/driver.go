package cli

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// driver runs a client without the UI (exec, sessions, export): one pump
// goroutine drains the client's events into a queue, and the command reads
// them in order with next while it keeps the AHP state it needs with
// ahpstate's reducers.
type driver struct {
	c      *ahpclient.Client
	mu     sync.Mutex
	queue  []ahpclient.Event
	err    error
	notify chan struct{}

	sessions map[string]ahpwire.SessionState
	chats    map[string]ahpwire.ChatState
}

// errLinkFailed means the connection failed for good.
var errLinkFailed = errors.New("the connection to the host failed")

// startDriver starts the pump; it ends when ctx ends or the client closes.
func startDriver(ctx context.Context, c *ahpclient.Client) *driver {
	d := &driver{c: c, notify: make(chan struct{}, 1),
		sessions: map[string]ahpwire.SessionState{}, chats: map[string]ahpwire.ChatState{}}
	go func() {
		for {
			ev, err := c.Next(ctx)
			d.mu.Lock()
			if err != nil {
				d.err = err
			} else {
				d.queue = append(d.queue, ev)
			}
			d.mu.Unlock()
			select {
			case d.notify <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return d
}

// next returns the next event, applied to the states the driver keeps.
func (d *driver) next(ctx context.Context) (ahpclient.Event, error) {
	for {
		d.mu.Lock()
		if len(d.queue) > 0 {
			ev := d.queue[0]
			d.queue[0] = nil
			d.queue = d.queue[1:]
			d.mu.Unlock()
			return ev, d.apply(ev)
		}
		err := d.err
		d.mu.Unlock()
		if err != nil {
			return nil, err
		}
		select {
		case <-d.notify:
		case <-ctx.Done():
			return nil, ctx.Err() //nolint:wrapcheck // the caller's context
		}
	}
}

// apply reduces an envelope into the state of its channel and turns a
// failed connection into errLinkFailed.
func (d *driver) apply(ev ahpclient.Event) error {
	switch e := ev.(type) {
	case ahpclient.EnvelopeEvent:
		ch, a := e.Envelope.Channel, e.Envelope.Action
		if e.Envelope.RejectionReason != "" {
			return nil
		}
		if s, ok := d.sessions[ch]; ok {
			d.sessions[ch] = ahpstate.ReduceSession(s, a)
		}
		if s, ok := d.chats[ch]; ok {
			d.chats[ch] = ahpstate.ReduceChat(s, a)
		}
	case ahpclient.SnapshotEvent:
		d.load(e.Snapshot)
	case ahpclient.ConnStateEvent:
		if e.State.Phase == ahpclient.Failed {
			return fmt.Errorf("%w: %v", errLinkFailed, e.State.Err)
		}
	}
	return nil
}

// load replaces a kept channel's state with a snapshot.
func (d *driver) load(s ahpwire.Snapshot) {
	if _, ok := d.sessions[s.Resource]; ok {
		var st ahpwire.SessionState
		if json.Unmarshal(s.State, &st) == nil {
			d.sessions[s.Resource] = st
		}
	}
	if _, ok := d.chats[s.Resource]; ok {
		var st ahpwire.ChatState
		if json.Unmarshal(s.State, &st) == nil {
			d.chats[s.Resource] = st
		}
	}
}

// subscribeSession subscribes to a session and keeps its state.
func (d *driver) subscribeSession(ctx context.Context, uri string) error {
	d.sessions[uri] = ahpwire.SessionState{}
	snap, err := d.c.Subscribe(ctx, uri, nil)
	if err == nil {
		err = sameResource(uri, snap)
	}
	if err != nil {
		delete(d.sessions, uri)
		return fmt.Errorf("subscribe to %s: %w", uri, err)
	}
	d.load(snap)
	return nil
}

// subscribeChat subscribes to a chat and keeps its state.
func (d *driver) subscribeChat(ctx context.Context, uri string) error {
	d.chats[uri] = ahpwire.ChatState{}
	snap, err := d.c.Subscribe(ctx, uri, nil)
	if err == nil {
		err = sameResource(uri, snap)
	}
	if err != nil {
		delete(d.chats, uri)
		return fmt.Errorf("subscribe to %s: %w", uri, err)
	}
	d.load(snap)
	return nil
}

// sameResource refuses a subscribe answered with a snapshot of another
// resource (a host seen to do it): waiting for that channel to become
// ready would wait forever.
func sameResource(uri string, snap ahpwire.Snapshot) error {
	if snap.Resource != uri {
		return fmt.Errorf("the host answered with a snapshot of %q instead", snap.Resource)
	}
	return nil
}

// waitChat waits until session is ready and returns its default chat.
func (d *driver) waitChat(ctx context.Context, session string) (string, error) {
	for {
		s := d.sessions[session]
		switch s.Lifecycle {
		case ahpwire.LifecycleFailed, ahpwire.LifecycleCreationFailed:
			msg := "session creation failed"
			if s.CreationError != nil {
				msg += ": " + s.CreationError.Message
			}
			return "", errors.New(msg)
		case ahpwire.LifecycleReady:
			if s.DefaultChat != "" {
				return s.DefaultChat, nil
			}
			if len(s.Chats) > 0 {
				return s.Chats[0].Resource, nil
			}
		}
		if _, err := d.next(ctx); err != nil {
			return "", err
		}
	}
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// sessionURI turns a session id or URI into the URI: anything that already
// has a URI scheme (ahp-session:/…, or a VS Code-dialect host's
// <provider>:/<id>) passes through unchanged; a bare id gets ahp-session:/.
func sessionURI(id string) string {
	if hasURIScheme(id) {
		return id
	}
	return "ahp-session:/" + id
}

// hasURIScheme reports whether s starts with an RFC 3986 scheme and a colon.
func hasURIScheme(s string) bool {
	for i, r := range s {
		switch {
		case r == ':':
			return i > 0
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return false
}

// nowStamp is the current time in AHP's format.
func nowStamp() string { return ahpstate.FormatTime(time.Now()) }
