package ahpclient

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// mirror is a test consumer's state: every channel's state reduced from
// snapshots and applied envelopes (with AHP's reducer semantics), plus the
// log of applied envelopes.
type mirror struct {
	root     map[string]ahpwire.RootState
	sessions map[string]ahpwire.SessionState
	chats    map[string]ahpwire.ChatState
	applied  []appliedEnvelope
	lastSeq  map[string]uint64
	problems []string
}

// appliedEnvelope is one envelope as the consumer applied it.
type appliedEnvelope struct {
	Channel string
	Seq     uint64
	Type    string
	Action  string // JSON of the action
}

func newMirror() *mirror {
	return &mirror{
		root: map[string]ahpwire.RootState{}, sessions: map[string]ahpwire.SessionState{},
		chats: map[string]ahpwire.ChatState{}, lastSeq: map[string]uint64{},
	}
}

// apply takes one event.
func (m *mirror) apply(ev Event) {
	switch e := ev.(type) {
	case SnapshotEvent:
		s := e.Snapshot
		var err error
		switch ahpstate.ChannelKind(s.Resource) {
		case ahpstate.ScopeRoot:
			var st ahpwire.RootState
			st, err = ahpwire.DecodeRootState(s.State)
			m.root[s.Resource] = st
		case ahpstate.ScopeSession:
			var st ahpwire.SessionState
			st, err = ahpwire.DecodeSessionState(s.State)
			m.sessions[s.Resource] = st
		case ahpstate.ScopeChat:
			var st ahpwire.ChatState
			st, err = ahpwire.DecodeChatState(s.State)
			m.chats[s.Resource] = st
		}
		if err != nil {
			m.problems = append(m.problems, fmt.Sprintf("snapshot %s: %v", s.Resource, err))
		}
		m.lastSeq[s.Resource] = s.FromSeq
	case EnvelopeEvent:
		env := e.Envelope
		if env.RejectionReason != "" {
			m.problems = append(m.problems, fmt.Sprintf("rejected envelope delivered: #%d", env.ServerSeq))
		}
		if last, ok := m.lastSeq[env.Channel]; ok && env.ServerSeq <= last {
			m.problems = append(m.problems, fmt.Sprintf("envelope %s #%d not after #%d (duplicate or reordered)", env.Channel, env.ServerSeq, last))
		}
		m.lastSeq[env.Channel] = env.ServerSeq
		b, _ := ahpwire.MarshalAction(env.Action)
		m.applied = append(m.applied, appliedEnvelope{env.Channel, env.ServerSeq, env.Action.ActionType(), string(b)})
		switch ahpstate.ChannelKind(env.Channel) {
		case ahpstate.ScopeRoot:
			m.root[env.Channel] = ahpstate.ReduceRoot(m.root[env.Channel], env.Action)
		case ahpstate.ScopeSession:
			m.sessions[env.Channel] = ahpstate.ReduceSession(m.sessions[env.Channel], env.Action)
		case ahpstate.ScopeChat:
			m.chats[env.Channel] = ahpstate.ReduceChat(m.chats[env.Channel], env.Action)
		}
	case ChannelLostEvent:
		delete(m.sessions, e.Channel)
		delete(m.chats, e.Channel)
	}
}

// stateJSON renders every channel's state deterministically.
func (m *mirror) stateJSON() string {
	var parts []string
	add := func(k string, v any) {
		b, _ := json.Marshal(v)
		parts = append(parts, k+"="+string(b))
	}
	for k, v := range m.root {
		add(k, v)
	}
	for k, v := range m.sessions {
		add(k, v)
	}
	for k, v := range m.chats {
		add(k, v)
	}
	sort.Strings(parts)
	return strings.Join(parts, "\n")
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
