package ahphost

import (
	"fmt"

	"github.com/ahptui/ahptui/ahpwire"
)

// A terminal keeps at most ahpstate.MaxTerminalOutputBytes of output, but
// an agent makes as many terminals as it likes: three hundred finished
// terminals of 4 MiB each held 1.08 GB. The host therefore bounds the
// output of terminals whose command exited, all together
// (Options.TerminalRetainBytes): past it the oldest exited terminal's
// output is cleared and replaced by a line saying so, which its viewers
// see. Running terminals are bounded per session by the agent bridge.

// termRetention lists the exited terminals whose output is kept, oldest
// first, and their bytes.
type termRetention struct {
	order []string
	bytes map[string]int64
	total int64
}

// retainDroppedNote replaces an exited terminal's dropped output.
func retainDroppedNote(limit int64) string {
	return fmt.Sprintf("[output dropped: the host keeps the output of finished terminals up to %d MiB in all, the newest first]\r\n", limit>>20)
}

// retainExited counts an exited terminal's output and drops the oldest
// exited terminals' output past the host-wide bound. h.mu is held.
func (s *store) retainExited(uri string) {
	t := s.ext.terminals[uri]
	r := &s.ext.retained
	if t == nil {
		return
	}
	if r.bytes == nil {
		r.bytes = map[string]int64{}
	}
	if _, seen := r.bytes[uri]; seen {
		return
	}
	var n int64
	for _, p := range t.Content {
		n += int64(len(p.Text()))
	}
	r.order = append(r.order, uri)
	r.bytes[uri] = n
	r.total += n
	limit := s.h.opts.TerminalRetainBytes
	for r.total > limit && len(r.order) > 0 {
		old := r.order[0]
		r.order = r.order[1:]
		r.total -= r.bytes[old]
		delete(r.bytes, old)
		if s.ext.terminals[old] == nil {
			continue
		}
		s.applyTerminal(old, &ahpwire.TerminalCleared{}, nil)
		s.applyTerminal(old, &ahpwire.TerminalData{Data: retainDroppedNote(limit)}, nil)
		s.h.log.Info("dropped a finished terminal's output (host-wide bound)", "terminal", old, "bound", limit)
	}
	if len(r.order) == 0 {
		r.order = nil // (the backing array of dropped entries is freed)
	}
}

// forget stops counting uri's output (a terminal removed, or its output
// dropped by the state budget).
func (r *termRetention) forget(uri string) {
	if n, ok := r.bytes[uri]; ok {
		r.total -= n
		delete(r.bytes, uri)
		r.order = removeURI(r.order, uri)
	}
}
