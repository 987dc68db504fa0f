package reducer

// State is what the TUI renders: finished Messages, at most one streaming
// Current message, and what the UI needs around them. It is a value: Reduce
// returns a new State and never changes the old one or anything reachable
// from it.
type State struct {
	// Messages are finished messages, oldest first (user and assistant
	// messages interleaved). The slice and the messages are shared between
	// states; never modify them. The slice is capped (len == cap), so an
	// append by a caller copies.
	Messages []*Message
	// Current is the streaming assistant message, nil when idle.
	Current *Message

	// Steering is the pending steering message, nil if none.
	Steering *PendingMessage
	// Queued are messages queued to run as the next turns.
	Queued []PendingMessage
	// Activity is the agent's current activity line ("" if none).
	Activity string
	// Totals sums the usage of the finished messages.
	Totals Usage

	// Ended is set by SessionEnd: the session is gone (disposed, removed or
	// failed) and no more actions are expected.
	Ended bool
	// EndReason says why the session ended.
	EndReason string
	// Failed marks an ended session that failed; LastError says why.
	Failed bool
	// LastError is the most recent error that could not be attached to a
	// turn (session failures, Error actions without a current message).
	LastError *ErrorInfo

	// Seq counts the actions that changed this state's lineage. Every block
	// and message changed by an action gets Rev = Seq, so within one
	// lineage (Message.ID, Block.Index, Block.Rev) identifies content.
	// Across lineages (a fresh Project) compare *Block pointers instead:
	// blocks are immutable, so an unchanged pointer means unchanged content.
	Seq uint64

	// Stats counts what the reducer tolerated. Diagnostic only: two states
	// with the same transcript may differ here.
	Stats Stats

	log *msgLog // backing array of Messages, see msglog.go
}

// Stats counts actions the reducer ignored or repaired.
type Stats struct {
	// IgnoredDeltas counts BlockDelta actions for unknown, finished or
	// mismatched blocks or messages.
	IgnoredDeltas int
	// IgnoredActions counts other actions that did not apply (wrong
	// message, unknown block, invalid payload).
	IgnoredActions int
	// ForcedFinalizations counts messages finalised without MessageEnd.
	ForcedFinalizations int
	// ForcedBlockEnds counts blocks closed by MessageEnd or a forced
	// finalisation rather than by their own BlockEnd.
	ForcedBlockEnds int
	// RejectedRestores counts Restore/HistoryLoaded actions rejected for
	// invalid message shapes.
	RejectedRestores int
}

// Pending message kinds (PendingMessage.Kind).
const (
	PendingSteering = "steering"
	PendingQueued   = "queued"
)

// PendingMessage is a steering or queued user message not yet turned into
// a turn.
type PendingMessage struct {
	ID   string
	Text string
}

// Streaming reports whether an assistant message is in progress.
func (s State) Streaming() bool { return s.Current != nil }

// ActiveTurnID returns the turn id of Current, "" when idle.
func (s State) ActiveTurnID() string {
	if s.Current == nil {
		return ""
	}
	return s.Current.TurnID
}

// PendingApprovals returns Current's tool-call blocks waiting for the user
// (pending-confirmation, pending-result-confirmation, auth-required), in
// order.
func (s State) PendingApprovals() []*Block {
	if s.Current == nil || s.Current.Blocks.waiting == 0 {
		return nil
	}
	var out []*Block
	for _, b := range s.Current.Blocks.All() {
		if b.Kind == KindToolCall && b.Tool.WaitsForClient() {
			out = append(out, b)
		}
	}
	return out
}

// PendingInputs returns Current's unanswered input-request blocks in order.
func (s State) PendingInputs() []*Block {
	if s.Current == nil || s.Current.Blocks.waiting == 0 {
		return nil
	}
	var out []*Block
	for _, b := range s.Current.Blocks.All() {
		if b.InputOpen() {
			out = append(out, b)
		}
	}
	return out
}

// Message returns the finished or current message with the given id, or nil.
func (s State) Message(id string) *Message {
	if s.Current != nil && s.Current.ID == id {
		return s.Current
	}
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].ID == id {
			return s.Messages[i]
		}
	}
	return nil
}
