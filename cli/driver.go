package cli

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// driver runs a client without the UI (exec, sessions, export): the
// command reads the client's events in order with next, which applies them
// to the driver's ahpstate.Mirror (the sessions and chats it subscribed
// to), so the command reads AHP state from there.
type driver struct {
	c      *ahpclient.Client
	mirror *ahpstate.Mirror
}

// errLinkFailed means the connection failed for good.
var errLinkFailed = errors.New("the connection to the host failed")

// newDriver returns a driver of c keeping sessions and chats.
func newDriver(c *ahpclient.Client) *driver {
	return &driver{c: c, mirror: ahpstate.NewMirror(ahpstate.Reducer{}, ahpstate.ScopeSession, ahpstate.ScopeChat)}
}

// next returns the next event of the client, applied to the mirror, with
// what it changed.
func (d *driver) next(ctx context.Context) (ahpclient.Event, ahpstate.Change, error) {
	ev, err := d.c.Next(ctx)
	if err != nil {
		return nil, ahpstate.Change{}, err //nolint:wrapcheck // the client's or the caller's context's error
	}
	ch, err := d.apply(ev)
	return ev, ch, err
}

// apply applies an event to the mirror and turns a failed connection into
// errLinkFailed.
func (d *driver) apply(ev ahpclient.Event) (ahpstate.Change, error) {
	switch e := ev.(type) {
	case ahpclient.EnvelopeEvent:
		return d.mirror.Apply(e.Envelope), nil
	case ahpclient.SnapshotEvent:
		ch, _ := d.mirror.Load(e.Snapshot) // a bad snapshot leaves the channel unknown: waiting on it times out
		return ch, nil
	case ahpclient.ChannelLostEvent:
		d.mirror.Drop(e.Channel)
	case ahpclient.ConnStateEvent:
		if e.State.Phase == ahpclient.Failed {
			return ahpstate.Change{}, fmt.Errorf("%w: %v", errLinkFailed, e.State.Err)
		}
	}
	return ahpstate.Change{}, nil
}

// await runs call (a request that waits for the host's answer) while it
// applies the client's events to the mirror, so that the client's event
// queue never fills and stops the reading of that answer. The events read
// meanwhile are not returned by next: what they changed is in the mirror.
func (d *driver) await(ctx context.Context, call func(context.Context) error) error {
	done := make(chan error, 1)
	drain, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		err := call(ctx)
		done <- err
		stop()
	}()
	for {
		_, _, err := d.next(drain)
		if err == nil {
			continue
		}
		if drain.Err() != nil && ctx.Err() == nil {
			return <-done // the call ended
		}
		return err
	}
}

// subscribe subscribes to a channel and waits until its snapshot is in
// the mirror.
func (d *driver) subscribe(ctx context.Context, uri string) error {
	d.mirror.Drop(uri) // held again from the snapshot this subscribe delivers
	var snap ahpwire.Snapshot
	err := d.await(ctx, func(ctx context.Context) error {
		var err error
		snap, err = d.c.Subscribe(ctx, uri, nil)
		return err //nolint:wrapcheck // wrapped below
	})
	if err == nil && snap.Resource == "" {
		err = errors.New("the host sent no snapshot")
	}
	if err == nil {
		err = sameResource(uri, snap)
	}
	if err != nil {
		return fmt.Errorf("subscribe to %s: %w", uri, err)
	}
	for !d.mirror.Holds(uri) { // the snapshot's event is queued before Subscribe returns
		if _, _, err := d.next(ctx); err != nil {
			return err
		}
	}
	return nil
}

// subscribeSession subscribes to a session and keeps its state.
// Its URI may be of another dialect ("<provider>:/<id>"): it is kept as the
// session it was subscribed as.
func (d *driver) subscribeSession(ctx context.Context, uri string) error {
	d.mirror.Expect(uri, ahpstate.ScopeSession)
	err := d.subscribe(ctx, uri)
	if rpc, ok := errors.AsType[*ahpwire.RPCError](err); ok && rpc.Code == ahpwire.CodeSessionNotFound {
		return fmt.Errorf("the host has no session %s (disposed, or of another host: `ahptui sessions` lists this host's): %w", uri, err)
	}
	return err
}

// subscribeChat subscribes to a chat and keeps its state (as a chat,
// whatever its URI's scheme).
func (d *driver) subscribeChat(ctx context.Context, uri string) error {
	d.mirror.Expect(uri, ahpstate.ScopeChat)
	return d.subscribe(ctx, uri)
}

// session returns a kept session's state.
func (d *driver) session(uri string) ahpwire.SessionState { s, _ := d.mirror.Session(uri); return s }

// chat returns a kept chat's state.
func (d *driver) chat(uri string) ahpwire.ChatState { s, _ := d.mirror.Chat(uri); return s }

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
		s := d.session(session)
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
		if _, _, err := d.next(ctx); err != nil {
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
