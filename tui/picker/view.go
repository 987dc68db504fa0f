package picker

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// visibleOffset is the first list row shown: the stored offset moved just
// enough to keep the cursor visible.
func (p *Model) visibleOffset() int {
	rows, off := p.rows(), p.offset
	if p.Cursor < off {
		off = p.Cursor
	}
	if p.Cursor >= off+rows {
		off = p.Cursor - rows + 1
	}
	return max(0, min(off, len(p.Shown)-rows))
}

// rows is the number of list rows that fit (title, filter, a blank line
// and the key hints take four lines).
func (p *Model) rows() int { return max(1, p.height-4) }

// hints is the picker's key hint line, generated from the keymap.
func (p *Model) hints(st *uikit.Styles) string {
	var parts []string
	for _, b := range []struct {
		k    key.Binding
		what string
	}{{p.KM.Open, "open"}, {p.KM.New, "new session"}, {p.KM.Dispose, "dispose"}} {
		parts = append(parts, b.k.Help().Key+" "+b.what)
	}
	if p.Reconnecting {
		parts = append([]string{p.ReconnectKey + " reconnect now"}, parts...)
	}
	parts = append(parts, p.HelpKey+" help", p.QuitKey+" quit", p.KM.Rename.Help().Key+" rename",
		p.KM.Archive.Help().Key+" archive", p.KM.ShowArchived.Help().Key+" show archived")
	return ansi.Truncate(st.Status.Hint.Render(strings.Join(parts, " · ")), max(1, p.width), "…")
}

// View draws the picker (height lines).
func (p *Model) View(st *uikit.Styles) string {
	var lines []string
	switch p.mode {
	case pickAgent:
		lines = append(lines, ansi.Truncate(st.Picker.Title.Render("New session — choose an agent"), p.width, "…"), "")
		for i, a := range p.Agents {
			lines = append(lines, p.choiceLine(st, i == p.agentIx, render.Sanitize(cmp.Or(a.DisplayName, a.Provider)),
				render.Sanitize(a.Description)))
		}
		lines = append(lines, "", st.Picker.Meta.Render("enter create · esc back"))
		return p.pad(lines)
	case pickChat:
		lines = append(lines, ansi.Truncate(st.Picker.Title.Render("This session has several chats — pick one"), p.width, "…"), "")
		for i, c := range p.chats {
			lines = append(lines, p.choiceLine(st, i == p.chatIx, render.Sanitize(cmp.Or(c.Title, c.Resource)), ""))
		}
		lines = append(lines, "", st.Picker.Meta.Render("enter open · esc back"))
		return p.pad(lines)
	}
	head := st.Picker.Title.Render("Sessions") + st.Picker.Meta.Render(p.countText())
	if n := p.needing(); n > 0 && p.grouped() {
		head += st.Picker.IconBusy.Render(fmt.Sprintf("  · %d need you", n))
	}
	for _, n := range []string{p.Status, p.note} {
		if n != "" {
			head += "  " + st.Picker.Meta.Render(n)
		}
	}
	lines = append(lines, head, p.Filter.View(), "")
	rows := p.rows()
	offset := p.visibleOffset()
	switch {
	case p.grouped():
		if len(p.Shown) == 0 && strings.TrimSpace(p.Filter.Value()) != "" {
			lines = append(lines, st.Picker.Empty.Render("  no session matches the filter"))
			rows--
		}
		lines = append(lines, p.groupedLines(st, rows)...)
		offset = len(p.Shown) // the rows are drawn
	case !p.Loaded:
		lines = append(lines, st.Picker.Empty.Render("  loading sessions…"))
	case len(p.Entries) == 0:
		lines = append(lines, st.Picker.Empty.Render("  no sessions yet — ctrl+n creates one"))
	case len(p.Shown) == 0 && strings.TrimSpace(p.Filter.Value()) == "" && !p.showArchived:
		lines = append(lines, st.Picker.Empty.Render("  every session is archived — "+p.KM.ShowArchived.Help().Key+" shows them"))
	case len(p.Shown) == 0:
		lines = append(lines, st.Picker.Empty.Render("  no session matches the filter"))
	}
	for i := offset; i < len(p.Shown) && i < offset+rows; i++ {
		lines = append(lines, p.row(st, p.Shown[i], i == p.Cursor))
	}
	if p.height < 2 {
		return p.pad(lines)
	}
	body := strings.Split(p.padTo(lines, p.height-1), "\n")
	return strings.Join(append(body, p.hints(st)), "\n")
}

func (p *Model) choiceLine(st *uikit.Styles, sel bool, label, desc string) string {
	cur, sty := "  ", st.Picker.Item
	if sel {
		cur, sty = "› ", st.Picker.Selected
	}
	l := cur + sty.Render(uikit.OneLine(label))
	if desc != "" {
		l += st.Picker.Meta.Render("  " + uikit.OneLine(desc))
	}
	return ansi.Truncate(l, p.width, "…")
}

func (p *Model) row(st *uikit.Styles, m fuzzy.Match, sel bool) string {
	e := p.Entries[m.Index]
	icon, isty := statusIcon(st, e.Summary.Status)
	cur, tsty := "  ", st.Picker.Item
	if sel {
		cur, tsty = "› ", st.Picker.Selected
	}
	title := highlight(e.title, m.MatchedIndexes, tsty, st.Picker.Match)
	meta := "  " + uikit.OneLine(render.Sanitize(e.Summary.Provider)) + " · " + p.stateWord(e) + " · " + relTime(p.now(), parseTime(e.Summary.ModifiedAt))
	if len(e.Summary.WorkingDirectories) > 0 {
		meta += " · " + uikit.OneLine(render.Sanitize(app.DisplayDir(e.Summary.WorkingDirectories[0])))
	}
	return ansi.Truncate(cur+markers(st, e.Summary.Status)+isty.Render(icon)+" "+title+archivedTag(st, e.Summary.Status)+st.Picker.Meta.Render(meta), p.width, "…")
}

func (p *Model) pad(lines []string) string { return p.padTo(lines, p.height) }

// padTo returns exactly h lines (at least one).
func (p *Model) padTo(lines []string, h int) string {
	h = max(h, 1)
	for i, l := range lines { // a narrow terminal must not wrap a line
		lines[i] = ansi.Truncate(l, max(1, p.width), "…")
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}

// highlight styles the matched byte offsets of s (offsets beyond s, from the
// agent or directory part of the search text, are ignored).
func highlight(s string, idx []int, base, match interface{ Render(...string) string }) string {
	if len(idx) == 0 {
		return base.Render(s)
	}
	set := make(map[int]bool, len(idx))
	for _, i := range idx {
		set[i] = true
	}
	var b strings.Builder
	run, runMatch := strings.Builder{}, false
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if runMatch {
			b.WriteString(match.Render(run.String()))
		} else {
			b.WriteString(base.Render(run.String()))
		}
		run.Reset()
	}
	for i, r := range s {
		if set[i] != runMatch {
			flush()
			runMatch = set[i]
		}
		run.WriteRune(r)
	}
	flush()
	return b.String()
}

func statusIcon(st *uikit.Styles, s ahpwire.SessionStatus) (string, interface{ Render(...string) string }) {
	switch {
	case s.Activity() == ahpwire.StatusInputNeeded:
		return "?", st.Picker.IconBusy
	case s.Activity() == ahpwire.StatusInProgress:
		return "●", st.Picker.IconBusy
	case s.Activity() == ahpwire.StatusError:
		return "✗", st.Picker.IconError
	}
	return "○", st.Picker.Icon
}

// parseTime reads an ISO-8601 or epoch-millisecond timestamp (zero if neither).
func parseTime(ts ahpwire.Timestamp) time.Time {
	s := string(ts)
	if s == "" {
		return time.Time{}
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.UnixMilli(ms)
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	return time.Time{}
}

// relTime formats how long ago t was ("just now", "5m ago", "3d ago").
func relTime(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Format("2006-01-02")
}
