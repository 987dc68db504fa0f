package render

import (
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// Review comments (the session's annotations, AHP annotations channel) are
// drawn under the reply of the turn they are anchored to
// (ViewOpts.Notes): per thread a header — its place (file and lines) and
// whether it is resolved — then its entries, each "author: text".

// noteLines draws the threads anchored to m's turn ("" for none).
func (r *Renderer) noteLines(m *reducer.Message, width int, v ViewOpts) []string {
	if m.Role != reducer.RoleAssistant || m.TurnID == "" {
		return nil
	}
	list := v.Notes[m.TurnID]
	if len(list) == 0 {
		return nil
	}
	st := r.styles.Note
	inner := max(10, width-len(gutter)-2)
	var out []string
	for _, a := range list {
		head := "💬 " + Sanitize(ahpwire.AnnotationPlace(a))
		state := st.Open.Render(" · open")
		if a.Resolved {
			state = st.Resolved.Render(" · resolved")
		}
		out = append(out, gutter+st.Label.Render(truncatePlain(head, inner-12))+state)
		for _, e := range a.Entries {
			who := e.Author()
			if who == "" {
				who = "comment"
			}
			text := Sanitize(oneLine(e.Text.Text))
			for i, l := range wrapText(who+": "+text, inner) {
				if i == 0 && strings.HasPrefix(l, who+":") {
					l = st.Author.Render(who+":") + st.Text.Render(l[len(who)+1:])
				} else {
					l = st.Text.Render(l)
				}
				out = append(out, gutter+"  "+l)
			}
		}
	}
	return out
}

// notesFingerprint is what the threads of m's turn add to its cache key.
func (v ViewOpts) notesFingerprint(m *reducer.Message) string {
	list := v.Notes[m.TurnID]
	if len(list) == 0 {
		return ""
	}
	h := fnv.New64a()
	for _, a := range list {
		h.Write([]byte(a.ID))
		h.Write([]byte(ahpwire.AnnotationPlace(a)))
		if a.Resolved {
			h.Write([]byte{1})
		}
		for _, e := range a.Entries {
			h.Write([]byte(e.ID))
			h.Write([]byte(e.Text.Text))
			h.Write([]byte(e.Author()))
		}
		h.Write([]byte{0})
	}
	return ",n" + strconv.FormatUint(h.Sum64(), 36)
}
