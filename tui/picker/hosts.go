package picker

import (
	"cmp"
	"slices"

	"github.com/sahilm/fuzzy"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// The picker as the inbox: with several configured hosts it lists the
// sessions of every host together, grouped by host (config order), each
// group under a header with the host's own connection state, and in each
// group the sessions that need the user first.

// HostHeader is one host's group header, set by the root (hosts.go).
type HostHeader struct {
	Name  string // config name ("" for a host attached by URL)
	Label string // what the header shows
	State string // connecting…, connected, down: why · retrying in 3s
	Bad   bool   // the host is down
}

// grouped reports whether the list is grouped by host.
func (p *Model) grouped() bool { return len(p.hosts) > 1 }

// hostIndex is a host's display position (unknown hosts last).
func (p *Model) hostIndex(name string) int {
	for i, h := range p.hosts {
		if h.Name == name {
			return i
		}
	}
	return len(p.hosts)
}

// hostOf is the host to name in an intent: "" for the attached one.
func (p *Model) hostOf(host string) string {
	if host == p.Here {
		return ""
	}
	return host
}

// SetHosts sets the group headers (nil: one host, no grouping).
func (p *Model) SetHosts(hs []HostHeader) {
	regroup := len(hs) != len(p.hosts)
	for i := 0; !regroup && i < len(hs); i++ {
		regroup = hs[i].Name != p.hosts[i].Name
	}
	p.hosts = hs
	if regroup {
		p.sortAndFilter()
	}
}

// needRank puts sessions that need the user (a question, an approval, an
// error) before the rest.
func needRank(s ahpwire.SessionSummary) int {
	if s.NeedsUser() {
		return 0
	}
	return 1
}

// Needing counts the sessions, of every host, that need the user (the
// window title shows it).
func (p *Model) Needing() int { return p.needing() }

// needing counts the listed sessions, of every host, that need the user.
func (p *Model) needing() int {
	n := 0
	for _, e := range p.Entries {
		if p.visible(e) && e.Summary.NeedsUser() {
			n++
		}
	}
	return n
}

// groupShown orders a filtered list by host, keeping the match order in
// each host, so that the cursor moves through the groups as drawn.
func (p *Model) groupShown() {
	if !p.grouped() {
		return
	}
	slices.SortStableFunc(p.Shown, func(a, b fuzzy.Match) int {
		return cmp.Compare(p.hostIndex(p.Entries[a.Index].Host), p.hostIndex(p.Entries[b.Index].Host))
	})
}

// otherHost reports whether the selected session lives on another host
// than the attached one (its actions need that host attached first), and
// sets the note saying so.
func (p *Model) otherHost() bool {
	h, r := p.Selected()
	if r == "" || h == p.Here {
		return false
	}
	p.note = "open it first: that session is on @" + h
	return true
}

// groupedLines draws the grouped list in at most rows lines: each host's
// header, then its sessions; the window keeps the cursor visible. Only the
// lines in the window are rendered (the inbox may list thousands).
func (p *Model) groupedLines(st *uikit.Styles, rows int) []string {
	// The layout first: a header is -1-i (host i), a session its index in
	// p.Shown.
	layout := make([]int, 0, len(p.Shown)+len(p.hosts))
	cur, k := -1, 0
	for i, h := range p.hosts {
		layout = append(layout, -1-i)
		for ; k < len(p.Shown) && p.Entries[p.Shown[k].Index].Host == h.Name; k++ {
			if k == p.Cursor {
				cur = len(layout)
			}
			layout = append(layout, k)
		}
	}
	for ; k < len(p.Shown); k++ { // a host no longer configured
		if k == p.Cursor {
			cur = len(layout)
		}
		layout = append(layout, k)
	}
	off := 0
	if len(layout) > rows {
		if cur >= rows {
			off = cur - rows + 1
		}
		off = min(off, len(layout)-rows)
		layout = layout[off : off+rows]
	}
	lines := make([]string, 0, len(layout))
	for _, l := range layout {
		if l >= 0 {
			lines = append(lines, p.row(st, p.Shown[l], l == p.Cursor))
			continue
		}
		h := p.hosts[-1-l]
		head := st.Picker.Item.Bold(true).Render("@"+uikit.OneLine(render.Sanitize(h.Label))) + "  "
		sty := st.Picker.Meta
		if h.Bad {
			sty = st.Picker.IconError
		}
		lines = append(lines, head+sty.Render(uikit.OneLine(render.Sanitize(h.State))))
	}
	return lines
}
