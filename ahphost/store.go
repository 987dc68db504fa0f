package ahphost

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// store is the host's protocol state. Every method requires h.mu.
type store struct {
	h   *Host
	seq uint64

	// restored is what start-up found in the database (restore.go).
	restored restoredCounts

	// Replay log: a ring of the most recent envelopes (all channels),
	// bounded by count (len(ring)) and by bytes (ringBytes ≤
	// Options.ReplayLogBytes).
	ring      []logEntry
	ringStart int
	ringLen   int
	ringBytes int64
	// evictedUpTo is the highest serverSeq that has left the log (or was
	// never logged: rejected envelopes and envelopes above the byte bound).
	// A reconnect from before it gets snapshots.
	evictedUpTo uint64

	root     ahpwire.RootState
	sessions map[string]*sessionEntry
	chats    map[string]*chatEntry
	// cold are the stored chats not in memory (durable hosts,
	// lazychats.go); sweeps counts the periods of sweepChats.
	cold   coldChats
	sweeps int64
	// lastRun are the stored chats not read since the host started: the
	// background work they list ended with the host that ran it
	// (endLastRunWork, restore.go).
	lastRun map[string]struct{}
	// touch orders sessions by recency (listSessions) deterministically.
	touch int64

	// subs indexes subscribers by channel.
	subs map[string]map[*conn]struct{}
	// clients remembers every clientId seen, for reconnect.
	clients map[string]*clientRecord
	// extra holds the sign-ins and subagent waiters (authenticate.go).
	extra extraState
	// ext holds terminal and changeset channels and resources (channels.go).
	ext extChannels
	// persist writes the state to the database (nil: not durable).
	persist *persister
}

// logEntry is one logged action envelope.
type logEntry struct {
	seq     uint64
	channel string
	env     json.RawMessage
}

// clientRecord is what the host remembers about a clientId across
// connections.
type clientRecord struct {
	version string
	caps    *ahpwire.ChunkingCapability
	views   map[string]subscription
}

func newStore(h *Host, db *durable.DB) (*store, error) {
	s := &store{
		h:        h,
		ring:     make([]logEntry, h.opts.ReplayLog),
		sessions: make(map[string]*sessionEntry),
		chats:    make(map[string]*chatEntry),
		subs:     make(map[string]map[*conn]struct{}),
		clients:  make(map[string]*clientRecord),
	}
	s.root = ahpwire.RootState{Agents: h.agent.Providers(), ActiveSessions: ahpwire.Ptr(int64(0))}
	if db != nil {
		s.persist = newPersister(db)
		s.cold = make(coldChats)
		s.ext.resources.db = db
		if err := s.restore(db); err != nil {
			return nil, err
		}
	}
	s.restoreSessions()
	return s, nil
}

// now returns the host clock as an ISO-8601 millisecond timestamp.
func (s *store) now() string { return isoTime(s.h.opts.Now()) }

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// channelKind classifies a channel URI.
type channelKind int

const (
	chanUnknown channelKind = iota
	chanRoot
	chanSession
	chanChat
)

func kindOf(uri string) channelKind {
	if k := extKind(uri); k != chanUnknown {
		return k // before the session prefix: <session>/annotations
	}
	switch {
	case uri == ahpwire.RootURI:
		return chanRoot
	case strings.HasPrefix(uri, ahpwire.SessionScheme+"/") && len(uri) > len(ahpwire.SessionScheme)+1:
		return chanSession
	case strings.HasPrefix(uri, ahpwire.ChatScheme+"/") && len(uri) > len(ahpwire.ChatScheme)+1:
		return chanChat
	}
	return chanUnknown
}

// exists reports whether a state-bearing channel exists.
func (s *store) exists(uri string) bool {
	switch kindOf(uri) {
	case chanRoot:
		return true
	case chanSession:
		return s.sessions[uri] != nil
	case chanChat:
		return s.chatExists(uri)
	}
	return s.extExists(uri)
}

// emit stamps an action with the next serverSeq, logs it and queues it to
// every subscriber of channel. The caller has already applied it to the
// state (or decided to reject it). It returns the serverSeq.
//
// A rejected envelope is delivered live but never logged (a rejected action
// changed no state, and its payload — up to the message limit — must not
// be retained): a client that missed it reconnects with snapshots.
func (s *store) emit(channel string, a ahpwire.Action, origin *ahpwire.ActionOrigin, rejection string) uint64 {
	return s.emitRaw(channel, a, nil, origin, rejection)
}

// emitRaw is emit with the action already encoded (raw, when not nil):
// client actions are encoded before the host lock is taken.
func (s *store) emitRaw(channel string, a ahpwire.Action, raw json.RawMessage, origin *ahpwire.ActionOrigin, rejection string) uint64 {
	s.seq++
	env, frame, err := envelopeFrame(channel, s.seq, a, raw, origin, rejection)
	if err != nil {
		s.h.log.Error("cannot encode action; dropped", "type", a.ActionType(), "err", err)
		return s.seq
	}
	if rejection == "" {
		s.appendLog(logEntry{seq: s.seq, channel: channel, env: env})
		s.persistLogged(channel, s.seq, a, env)
	} else {
		s.evictedUpTo = s.seq
		s.persistSeq()
	}
	m := outMsg{data: frame, kind: kindAction, seq: s.seq, method: ahpwire.MethodAction}
	for c := range s.subs[channel] {
		c.enqueue(m)
	}
	return s.seq
}

// emitTo stamps an action and sends it to one connection only, without
// logging it (chat/turnsLoaded answers one client's fetchTurns).
func (s *store) emitTo(c *conn, channel string, a ahpwire.Action) {
	s.seq++
	_, frame, err := envelopeFrame(channel, s.seq, a, nil, nil, "")
	if err != nil {
		s.h.log.Error("cannot encode action; dropped", "type", a.ActionType(), "err", err)
		return
	}
	s.persistSeq()
	c.enqueue(outMsg{data: frame, kind: kindAction, seq: s.seq, method: ahpwire.MethodAction})
}

// envelopeFrame encodes an envelope and its `action` notification frame
// (the same JSON as ahpwire.ActionEnvelope). raw is the encoded action, or
// nil to encode a here.
func envelopeFrame(channel string, seq uint64, a ahpwire.Action, raw json.RawMessage, origin *ahpwire.ActionOrigin, rejection string) (env, frame []byte, err error) {
	if raw == nil {
		if raw, err = ahpwire.MarshalAction(a); err != nil {
			return nil, nil, fmt.Errorf("encode envelope: %w", err)
		}
	}
	ch, _ := json.Marshal(channel)
	const head = `{"jsonrpc":"2.0","method":"action","params":`
	frame = make([]byte, 0, len(head)+len(raw)+len(ch)+len(rejection)+128)
	frame = append(frame, head...)
	start := len(frame)
	frame = append(frame, `{"channel":`...)
	frame = append(frame, ch...)
	frame = append(frame, `,"action":`...)
	frame = append(frame, raw...)
	frame = append(frame, `,"serverSeq":`...)
	frame = strconv.AppendUint(frame, seq, 10)
	if origin != nil {
		o, _ := json.Marshal(origin)
		frame = append(frame, `,"origin":`...)
		frame = append(frame, o...)
	}
	if rejection != "" {
		r, _ := json.Marshal(rejection)
		frame = append(frame, `,"rejectionReason":`...)
		frame = append(frame, r...)
	}
	frame = append(frame, '}')
	env = frame[start:]
	frame = append(frame, '}')
	return env, frame, nil
}

// appendLog adds e to the replay log, evicting the oldest entries beyond
// the count or byte bound. An envelope larger than the byte bound is not
// kept at all.
func (s *store) appendLog(e logEntry) {
	size := int64(len(e.env))
	if size > s.h.opts.ReplayLogBytes {
		for s.ringLen > 0 {
			s.evictOldest()
		}
		s.evictedUpTo = e.seq
		return
	}
	for s.ringLen > 0 && (s.ringLen == len(s.ring) || s.ringBytes+size > s.h.opts.ReplayLogBytes) {
		s.evictOldest()
	}
	s.ring[(s.ringStart+s.ringLen)%len(s.ring)] = e
	s.ringLen++
	s.ringBytes += size
}

// evictOldest drops the oldest logged envelope; the log must not be empty.
func (s *store) evictOldest() {
	old := s.ring[s.ringStart]
	s.ring[s.ringStart] = logEntry{}
	s.ringStart = (s.ringStart + 1) % len(s.ring)
	s.ringLen--
	s.ringBytes -= int64(len(old.env))
	s.evictedUpTo = max(s.evictedUpTo, old.seq)
}

// trimLogBefore drops the logged envelopes with a serverSeq below seq: a
// reconnect from before seq gets snapshots.
func (s *store) trimLogBefore(seq uint64) {
	for s.ringLen > 0 && s.ring[s.ringStart].seq < seq {
		s.evictOldest()
	}
	if seq > 0 {
		s.evictedUpTo = max(s.evictedUpTo, seq-1)
	}
}

// replay returns the logged envelopes after seq for the given channels, or
// false when envelopes after seq have already left the log.
func (s *store) replay(after uint64, channels map[string]bool) ([]json.RawMessage, bool) {
	if after < s.evictedUpTo {
		return nil, false
	}
	var out []json.RawMessage
	for i := 0; i < s.ringLen; i++ {
		e := s.ring[(s.ringStart+i)%len(s.ring)]
		if e.seq > after && channels[e.channel] {
			out = append(out, e.env)
		}
	}
	return out, true
}

// notifyRoot sends a protocol notification to every root subscriber. It is
// neither logged nor replayed.
func (s *store) notifyRoot(method string, params any) {
	subs := s.subs[ahpwire.RootURI]
	if len(subs) == 0 {
		return
	}
	n, err := ahpwire.NewNotification(method, params)
	if err != nil {
		s.h.log.Error("cannot encode notification", "method", method, "err", err)
		return
	}
	b, err := json.Marshal(n)
	if err != nil {
		s.h.log.Error("cannot encode notification", "method", method, "err", err)
		return
	}
	m := outMsg{data: b, kind: kindNotification, method: method}
	for c := range subs {
		c.enqueue(m)
	}
}

// subscribe records that c follows channel.
func (s *store) subscribe(c *conn, channel string, sub subscription) {
	c.subs[channel] = sub
	m := s.subs[channel]
	if m == nil {
		m = make(map[*conn]struct{})
		s.subs[channel] = m
	}
	m[c] = struct{}{}
	if rec := s.clients[c.clientID]; rec != nil {
		rec.views[channel] = sub
	}
}

// unsubscribe removes c's subscription to channel.
func (s *store) unsubscribe(c *conn, channel string) {
	delete(c.subs, channel)
	if m := s.subs[channel]; m != nil {
		delete(m, c)
		if len(m) == 0 {
			delete(s.subs, channel)
		}
	}
	if rec := s.clients[c.clientID]; rec != nil {
		delete(rec.views, channel)
	}
	s.watchesIdle(channel)
}

// dropChannel removes every subscription to a disposed channel.
func (s *store) dropChannel(channel string) {
	for c := range s.subs[channel] {
		delete(c.subs, channel)
	}
	delete(s.subs, channel)
}

// connGone forgets a closed connection's subscriptions (the clientRecord
// keeps them for reconnect).
func (s *store) connGone(c *conn) {
	for ch := range c.subs {
		if m := s.subs[ch]; m != nil {
			delete(m, c)
			if len(m) == 0 {
				delete(s.subs, ch)
			}
		}
		s.watchesIdle(ch)
	}
}
