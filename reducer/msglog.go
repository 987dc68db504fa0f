package reducer

import "sync/atomic"

// msgLog is the append-only backing array behind State.Messages, shared by
// successive states. Like textBuf it lets exactly one state (the one whose
// length equals claimed) append in place; any other state copies. Slots
// below claimed are never rewritten, so every state's Messages slice stays
// valid and finished messages are never copied on append.
type msgLog struct {
	claimed atomic.Int64
	items   []*Message // len(items) == cap(items)
}

// minLogCap is the first allocation for a message log.
const minLogCap = 16

// appendMessage returns s with m appended to s.Messages. The public slice is
// always capped (len == cap) so that a caller's own append never writes into
// the shared array.
func (s State) appendMessage(m *Message) State {
	n := len(s.Messages)
	l := s.log
	if l != nil && n < len(l.items) && (n == 0 || &l.items[0] == &s.Messages[0]) &&
		l.claimed.CompareAndSwap(int64(n), int64(n+1)) {
		l.items[n] = m
		s.Messages = l.items[: n+1 : n+1]
		return s
	}
	c := 2 * (n + 1)
	if c < minLogCap {
		c = minLogCap
	}
	nl := &msgLog{items: make([]*Message, c)}
	copy(nl.items, s.Messages)
	nl.items[n] = m
	nl.claimed.Store(int64(n + 1))
	s.log = nl
	s.Messages = nl.items[: n+1 : n+1]
	return s
}

// setMessages replaces the finished messages with a fresh copy of ms.
func (s State) setMessages(ms []*Message) State {
	s.log = nil
	s.Messages = nil
	if len(ms) == 0 {
		return s
	}
	c := 2 * len(ms)
	if c < minLogCap {
		c = minLogCap
	}
	nl := &msgLog{items: make([]*Message, c)}
	copy(nl.items, ms)
	nl.claimed.Store(int64(len(ms)))
	s.log = nl
	s.Messages = nl.items[:len(ms):len(ms)]
	return s
}

// truncateMessages keeps the first n finished messages. The log is kept: a
// later append from this state fails the claim and copies, leaving the
// longer states intact.
func (s State) truncateMessages(n int) State {
	if n >= len(s.Messages) {
		return s
	}
	s.Messages = s.Messages[:n:n]
	return s
}
