package picker

// The picker as the inbox across hosts: a key jumps to the next session
// that needs the user, and another asks the root for a peek at the
// selected session (its last lines, and its pending approval or question,
// answered from there without opening the chat).

import "github.com/ahptui/ahptui/ahpwire"

// PeekMsg asks the root for a peek at a session; Host names the configured
// host it lives on ("" = the attached host).
type PeekMsg struct{ Session, Host string }

// nextNeeding moves the cursor to the next listed session (after it, then
// from the top) that needs the user; it says so when none does.
func (p *Model) nextNeeding() {
	n := len(p.Shown)
	for i := 1; i <= n; i++ {
		j := (p.Cursor + i) % n
		if p.Entries[p.Shown[j].Index].Summary.NeedsUser() {
			p.Cursor, p.moved = j, true
			return
		}
	}
	p.note = "no session needs you"
}

// What a session that needs the user waits for (SetWaiting), learnt by
// the root from its chat: a tool call's approval or a question.
const (
	WaitApproval = "approval"
	WaitQuestion = "question"
)

// HostSession names one session of one host.
type HostSession struct{ Host, Session string }

// SetWaiting records what a session waits for (the row says it).
func (p *Model) SetWaiting(host, session, kind string) {
	if p.waiting == nil {
		p.waiting = map[HostSession]string{}
	}
	p.waiting[HostSession{host, session}] = kind
}

// Waiting is what a session waits for as far as the root learnt it
// (WaitApproval, WaitQuestion; "" when not known).
func (p *Model) Waiting(host, session string) string {
	return p.waiting[HostSession{host, session}]
}

// Unprobed lists the sessions that need an answer and whose kind is not
// known yet; it forgets the kind of those that moved on.
func (p *Model) Unprobed() []HostSession {
	var out []HostSession
	for _, e := range p.Entries {
		k := HostSession{e.Host, e.Summary.Resource}
		_, known := p.waiting[k]
		switch asks := e.Summary.Status.Activity() == ahpwire.StatusInputNeeded; {
		case asks && !known:
			out = append(out, k)
		case !asks && known:
			delete(p.waiting, k)
		}
	}
	return out
}

// stateWord names a row's state: needs approval, needs input (needs you
// until the root learnt which), working, error, done.
func (p *Model) stateWord(e pickerEntry) string {
	switch e.Summary.Status.Activity() {
	case ahpwire.StatusInputNeeded:
		switch p.waiting[HostSession{e.Host, e.Summary.Resource}] {
		case WaitApproval:
			return "needs approval"
		case WaitQuestion:
			return "needs input"
		}
		return "needs you"
	case ahpwire.StatusInProgress:
		return "working"
	case ahpwire.StatusError:
		return "error"
	}
	return "done"
}
