// The state database's size budget (issue 28): past Options.StateBudget,
// the chats of the oldest archived sessions lose their turns first, and
// each says so; so does what those turns made (budget_bodies.go).

package ahphost

import (
	"sort"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// budgetEvery is how often (at most) the database's size is checked;
// budgetBytes is the bytes committed that make a check due sooner.
const (
	budgetEvery = 10 * time.Second
	budgetBytes = 4 << 20
)

// minDropBytes is the stored size under which a chat on disk is not read
// to drop its turns (lazychats.go): a dropped chat is smaller.
const minDropBytes = 8 << 10

// evictedNote is the text of the turn that replaces a dropped history.
const evictedNote = "_This chat's history was removed to keep the host's saved state within its size budget " +
	"(the oldest archived sessions go first; `ahptui serve --state-budget` sets it)._"

// budgetState is when the size was last checked (commit goroutine only).
type budgetState struct {
	last    time.Time
	written int64
	warned  bool
	// due makes the next check run whatever the time and the bytes since
	// the last one: a session was just archived, which may be what the
	// budget waits for (set under h.mu, read by the commit goroutine).
	due atomic.Bool
}

// archivedForBudget makes the commit of a session's archiving check the
// budget (an idle host may commit nothing else for long). h.mu is held.
func (s *store) archivedForBudget(a ahpwire.Action) {
	if ar, ok := a.(*ahpwire.SessionIsArchivedChanged); ok && ar.IsArchived && s.persist != nil {
		s.persist.budget.due.Store(true)
	}
}

// checkBudget runs after a successful commit of n bytes, on the commit
// goroutine, outside h.mu.
func (h *Host) checkBudget(n int64) {
	p := h.st.persist
	b := &p.budget
	b.written += n
	now := h.opts.Now()
	if due := b.due.Swap(false); !due && b.written < budgetBytes && now.Sub(b.last) < budgetEvery {
		return
	}
	b.last, b.written = now, 0
	size := p.db.Size()
	if size <= h.opts.StateBudget {
		b.warned = false
		return
	}
	h.mu.Lock()
	freed := h.st.evictBodies(size - h.opts.StateBudget)
	h.mu.Unlock()
	if freed == 0 && !b.warned {
		b.warned = true
		h.log.Warn("the state database is over its budget and has no archived session left to shorten: "+
			"archive or dispose of sessions, or give the host a larger --state-budget (nothing is dropped meanwhile)",
			"path", p.db.Path(), "bytes", size, "budget", h.opts.StateBudget)
	}
}

// evictBodies drops the turns of archived sessions' chats, oldest session
// first, until about over bytes were freed; it returns the bytes freed.
// h.mu is held.
func (s *store) evictBodies(over int64) int64 {
	if s.h.closed {
		return 0
	}
	var archived []*sessionEntry
	for _, se := range s.sessions {
		if se.state.Status.Has(ahpwire.StatusIsArchived) {
			archived = append(archived, se)
		}
	}
	sort.Slice(archived, func(i, j int) bool {
		a, b := s.summary(archived[i]).ModifiedAt, s.summary(archived[j]).ModifiedAt
		return a < b || a == b && archived[i].uri < archived[j].uri
	})
	var freed int64
	for _, se := range archived {
		if freed >= over {
			break
		}
		var n int64
		for _, cs := range se.state.Chats {
			if _, cold := s.cold[cs.Resource]; cold && s.chatBytes(cs.Resource) < minDropBytes {
				continue // on disk and small (already dropped, or nothing to free): not read
			}
			n += s.dropBody(s.chat(cs.Resource))
		}
		n += s.dropSideBodies(se) // budget_bodies.go
		if n > 0 {
			freed += n
			s.h.log.Warn("state database over its budget: dropped the turns of an archived session and what they made "+
				"(changes, terminal output, stored contents, artifacts' contents)",
				"session", se.uri, "title", truncate(se.state.Title, 80), "bytes", n)
		}
	}
	return freed
}

// dropBody replaces a finished chat's turns with one note saying why
// (chat/truncated, then chat/turnsLoaded, so every client's copy changes
// the same way) and returns about how many stored bytes it freed. h.mu is
// held.
func (s *store) dropBody(ce *chatEntry) int64 {
	if ce == nil || ce.state.ActiveTurn != nil || len(ce.state.Turns) == 0 ||
		(len(ce.state.Turns) == 1 && ce.state.Turns[0].ID == "evicted") {
		return 0
	}
	n := int64(1)
	if cp := s.persist.chans[ce.uri]; cp != nil {
		n = max(1, cp.snap+cp.tail)
	}
	s.applyServerChat(ce, &ahpwire.ChatTruncated{})
	note := ahpwire.Turn{
		ID:            "evicted",
		StartedAt:     s.now(),
		Message:       ahpwire.UserMessage(""),
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart("evicted-"+strconv.FormatUint(s.seq, 10), evictedNote)},
		State:         ahpwire.TurnComplete,
	}
	s.applyServerChat(ce, &ahpwire.ChatTurnsLoaded{Turns: []ahpwire.Turn{note}})
	ce.refTurns, ce.lastLarge = 0, 0
	s.persistChanged(ce.uri)
	pages := largePartURIPrefix + ce.uri[len(ahpwire.ChatScheme)+1:] + "/"
	_, size := s.persist.db.ResourcesUnder(pages)
	s.ext.resources.removePrefix(pages)
	s.persist.batch.DeleteResources(pages)
	return n + size
}
