package picker

// The picker as the inbox across hosts: a key jumps to the next session
// that needs the user, and another asks the root for a peek at the
// selected session (its last lines, and its pending approval or question,
// answered from there without opening the chat).

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
