package ahpwire

import "strings"

// lastingWords mark a confirmation option that outlives this one call
// (ACP's allow_always / reject_always, "for this session", …).
var lastingWords = []string{"always", "session", "forever", "remember", "don't ask", "dont ask", "never ask", "all "}

// OnceOption returns the option of kind ("approve" or "deny") that decides
// this call only: the first of that kind whose id and label name nothing
// lasting (always, session, …), else the first of that kind; nil when
// there is none. The `a`/`d` keys and `exec --approve` answer with it, so
// an agent's "allow always" is never chosen by a single key press.
func OnceOption(opts []ConfirmationOption, kind string) *ConfirmationOption {
	var first *ConfirmationOption
	for i := range opts {
		o := &opts[i]
		if o.Kind != kind {
			continue
		}
		if first == nil {
			first = o
		}
		if !lasting(o) {
			c := *o
			return &c
		}
	}
	if first == nil {
		return nil
	}
	c := *first
	return &c
}

func lasting(o *ConfirmationOption) bool {
	s := strings.ToLower(strings.ReplaceAll(o.ID, "_", " ") + " " + o.Label)
	for _, w := range lastingWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
