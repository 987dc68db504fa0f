package ahphost

import "github.com/ahptui/ahptui/ahpwire"

// turnIDs remembers which chat each client-started turn id belongs to, so
// that a turn id is never reused across chats: the id names what the agent
// creates for the turn, and another session reusing it must not reach the
// victim's terminals and contents (issue 24 item 4). Every method
// requires h.mu.
type turnIDs map[string]string

// turnIDTaken returns why a turn may not start in chat ce ("" = it may):
// its id already started a turn in another chat.
func (s *store) turnIDTaken(ce *chatEntry, a ahpwire.Action) string {
	ts, ok := a.(*ahpwire.ChatTurnStarted)
	if !ok {
		return ""
	}
	if chat, used := s.turnChats[ts.TurnID]; used && chat != ce.uri {
		return "turn id " + truncate(ts.TurnID, 100) + " is already used in another chat"
	}
	return ""
}

// noteTurnID records the chat of an accepted turn/started.
func (s *store) noteTurnID(ce *chatEntry, a ahpwire.Action) {
	ts, ok := a.(*ahpwire.ChatTurnStarted)
	if !ok {
		return
	}
	if s.turnChats == nil {
		s.turnChats = make(turnIDs)
	}
	if _, used := s.turnChats[ts.TurnID]; !used {
		s.turnChats[ts.TurnID] = ce.uri
	}
}
