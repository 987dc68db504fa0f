// Subagents: the agent asks for a child chat (origin "tool", read-only,
// parentChat set) that runs its own turn while the parent's turn waits.

package ahphost

import (
	"context"
	"errors"
	"strconv"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// errParentGone is returned when the parent chat or session disappeared.
var errParentGone = errors.New("the parent chat is gone")

// subagentFunc returns the Turn.Subagent hook for a chat's run.
func (h *Host) subagentFunc(parent string) agent.SubagentFunc {
	return func(ctx context.Context, req agent.SubagentRequest) (agent.SubagentHandle, error) {
		if err := ctx.Err(); err != nil {
			return agent.SubagentHandle{}, err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.st.startSubagent(parent, req)
	}
}

// startSubagent creates the child chat, starts its turn and returns the
// channel closed when that turn ends. h.mu is held.
func (s *store) startSubagent(parent string, req agent.SubagentRequest) (agent.SubagentHandle, error) {
	pe := s.chat(parent)
	if pe == nil {
		return agent.SubagentHandle{}, errParentGone
	}
	se := s.sessions[pe.session]
	if se == nil {
		return agent.SubagentHandle{}, errParentGone
	}
	s.touch++
	uri := parent + "-sub-" + strconv.FormatInt(s.touch, 10)
	ce := &chatEntry{uri: uri, session: se.uri, usedAt: s.sweeps}
	ce.state = ahpwire.ChatState{
		Resource:      uri,
		Title:         req.Title,
		Status:        ahpwire.StatusIdle,
		ModifiedAt:    s.now(),
		Origin:        &ahpwire.ChatOrigin{Kind: ahpwire.ChatOriginTool, Chat: parent, ToolCallID: req.ToolCallID},
		ParentChat:    parent,
		Interactivity: ahpwire.InteractivityReadOnly,
	}
	s.chats[uri] = ce
	s.persistChanged(uri)
	s.applySession(se, &ahpwire.SessionChatAdded{Summary: ce.state.Summary()}, nil)
	s.publishSummary(se)
	done := make(chan struct{})
	if s.extra.childDone == nil {
		s.extra.childDone = map[string]chan struct{}{}
	}
	s.extra.childDone[uri] = done
	msg := ahpwire.ChatMessage{Text: req.Prompt, Origin: ahpwire.MessageOrigin{Kind: ahpwire.MessageKindAgent}}
	s.startServerTurn(ce, msg, "")
	s.childSettled(ce)
	return agent.SubagentHandle{Chat: uri, Done: done}, nil
}

// childSettled closes a subagent's done channel once its chat is idle or
// gone. h.mu is held.
func (s *store) childSettled(ce *chatEntry) {
	done, ok := s.extra.childDone[ce.uri]
	if !ok {
		return
	}
	if s.chats[ce.uri] == ce && ce.state.ActiveTurn != nil {
		return
	}
	delete(s.extra.childDone, ce.uri)
	close(done)
}

// closeChildren releases every waiting parent (host shutdown).
func (s *store) closeChildren() {
	for uri, done := range s.extra.childDone {
		delete(s.extra.childDone, uri)
		close(done)
	}
}
