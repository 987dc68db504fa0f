package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// ChangeSource is what the changes view reads and asks of the root's
// changeset subscriptions and resource loader (package tui's side channels
// implement it).
type ChangeSource interface {
	// Changeset is uri's subscription: its state (once ready is true) and
	// why it failed ("" fine); ok is false when uri is not subscribed.
	Changeset(uri string) (st ahpwire.ChangesetState, ready bool, failed string, ok bool)
	// AddViewOpts adds the live terminals, fetched contents and loading
	// states to v.
	AddViewOpts(v *render.ViewOpts)
	// Pin keeps uri subscribed while the view shows it; Unpin lets go.
	Pin(uri string, pty bool) tea.Cmd
	Unpin(uri string) tea.Cmd
}

// Changes is the changes view: the files of the chat's (or session's)
// changesets with their status, +/− counts and review state. Enter opens
// a file's whole diff (contents fetched through the resource loader); the
// review key dispatches changeset/filesReviewChanged when the changeset
// advertises review. The overlay keeps its changeset channels subscribed
// while open.
type Changes struct {
	src    ChangeSource
	send   Sender
	diffs  *render.Renderer // lays out the open diff
	km     keymap.Changes
	sets   []ahpwire.Changeset // catalogue entries, in order
	cursor int
	scroll int
	page   int
	diff   *diffPane // the open diff, nil while listing
	// stats caches computed +/− counts of files without host stats, by
	// the pair of content URIs (computing a diff per frame would not do).
	stats map[[2]string][2]int64
	notes ChangesNotes // review comments and the directory watch (changes_notes.go)
}

// changesRow is one file of the list.
type changesRow struct {
	set  ahpwire.Changeset
	file ahpwire.ChangesetFile
}

// diffPane is one file's diff.
type diffPane struct {
	row    changesRow
	scroll int
	// key and lines are the last diff laid out: View lays it out again
	// only when the contents or the width change (a diff of huge contents
	// or lines costs far more than a frame).
	key   diffKey
	lines []string
}

// diffKey is what a laid-out diff depends on. Unchanged contents are the
// same strings, so comparing them costs a pointer comparison.
type diffKey struct {
	width              int
	set, file, path    string
	uris, texts, loads [2]string
	have               [2]bool
}

// NewChanges opens the view on the catalogue sets, subscribing to each
// static changeset (templates with variables are not expanded) through
// src; send dispatches the review changes, diffs lays out a file's diff.
func NewChanges(src ChangeSource, send Sender, diffs *render.Renderer, km keymap.Changes, sets []ahpwire.Changeset) (*Changes, tea.Cmd) {
	o := &Changes{src: src, send: send, diffs: diffs, km: km, page: 10, stats: map[[2]string][2]int64{}}
	var cmds []tea.Cmd
	for _, s := range sets {
		if strings.Contains(s.URITemplate, "{") || !strings.HasPrefix(s.URITemplate, ahpwire.ChangesetScheme) {
			continue
		}
		o.sets = append(o.sets, s)
		cmds = append(cmds, src.Pin(s.URITemplate, false))
	}
	return o, tea.Batch(cmds...)
}

// rows lists the files of every subscribed changeset.
func (o *Changes) rows() []changesRow {
	var out []changesRow
	for _, s := range o.sets {
		st, ready, _, ok := o.src.Changeset(s.URITemplate)
		if !ok || !ready {
			continue
		}
		for _, f := range st.Files {
			out = append(out, changesRow{set: s, file: f})
		}
	}
	return out
}

// ResourceURIs are the contents the open diff needs.
func (o *Changes) ResourceURIs() []string {
	if o.diff == nil {
		return nil
	}
	return render.EditURIs(editOf(o.diff.row.file.Edit))
}

// ResourceSizes are the advertised sizes of the open diff's contents.
func (o *Changes) ResourceSizes() map[string]int64 {
	out := map[string]int64{}
	if o.diff == nil {
		return out
	}
	e := o.diff.row.file.Edit
	for _, s := range []*ahpwire.FileEditSide{e.Before, e.After} {
		if s != nil && s.Content.SizeHint != nil {
			out[s.Content.URI] = *s.Content.SizeHint
		}
	}
	return out
}

// close releases the subscriptions.
func (o *Changes) close() tea.Cmd {
	var cmds []tea.Cmd
	if o.notes.Close != nil {
		cmds = append(cmds, o.notes.Close())
	}
	for _, s := range o.sets {
		cmds = append(cmds, o.src.Unpin(s.URITemplate))
	}
	return tea.Batch(cmds...)
}

// Update moves, opens, toggles review and closes.
func (o *Changes) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return o, nil, uikit.ResultNone
	}
	rows := o.rows()
	if o.diff != nil {
		d := o.diff
		switch {
		case key.Matches(k, o.km.Close):
			o.diff = nil
		case key.Matches(k, o.km.Down):
			d.scroll++
		case key.Matches(k, o.km.Up):
			d.scroll = max(0, d.scroll-1)
		case key.Matches(k, o.km.PageDown):
			d.scroll += max(1, o.page-1)
		case key.Matches(k, o.km.PageUp):
			d.scroll = max(0, d.scroll-max(1, o.page-1))
		case key.Matches(k, o.km.Review):
			return o, o.toggleReview(d.row), uikit.ResultNone
		case o.notes.Comment != nil && key.Matches(k, o.notes.Key):
			return o, o.notes.Comment(fileOf(d.row)), uikit.ResultNone
		}
		return o, nil, uikit.ResultNone
	}
	if cur, moved := (uikit.ListKeys{Up: o.km.Up, Down: o.km.Down, PageUp: o.km.PageUp, PageDown: o.km.PageDown}).Move(k, o.cursor, len(rows), o.page); moved {
		o.cursor = cur
		return o, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, o.km.Close):
		return o, o.close(), uikit.ResultClose
	case key.Matches(k, o.km.Open):
		if o.cursor < len(rows) {
			o.diff = &diffPane{row: rows[o.cursor]}
		}
	case key.Matches(k, o.km.Review):
		if o.cursor < len(rows) {
			return o, o.toggleReview(rows[o.cursor]), uikit.ResultNone
		}
	case o.notes.Comment != nil && key.Matches(k, o.notes.Key):
		if o.cursor < len(rows) {
			return o, o.notes.Comment(fileOf(rows[o.cursor])), uikit.ResultNone
		}
	}
	return o, nil, uikit.ResultNone
}

// toggleReview dispatches changeset/filesReviewChanged for one file; the
// change shows when the host's echo arrives.
func (o *Changes) toggleReview(r changesRow) tea.Cmd {
	if r.set.Capabilities == nil || r.set.Capabilities.Review == nil {
		return uikit.Notice("this changeset does not support review", true)
	}
	a := &ahpwire.ChangesetFilesReviewChanged{Files: []string{r.file.ID}, Reviewed: !r.file.IsReviewed()}
	what := "mark reviewed"
	if !a.Reviewed {
		what = "mark not reviewed"
	}
	return o.send(r.set.URITemplate, a, what)
}

// View draws the list or the open diff.
func (o *Changes) View(st *uikit.Styles, width, height int) string {
	inner := max(20, width-4)
	avail := max(1, height-4)
	o.page = avail
	var title string
	var body []string
	if o.diff != nil {
		title, body = o.diffView(st, inner, avail)
	} else {
		title, body = o.listView(st, inner, avail)
	}
	out := append([]string{title, ""}, body...)
	for i, l := range out {
		out[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Help.Box.Width(min(width, inner+4)).Render(strings.Join(out, "\n"))
}

func (o *Changes) listView(st *uikit.Styles, inner, avail int) (string, []string) {
	rows := o.rows()
	var added, removed int64
	reviewed := 0
	v := o.viewOpts()
	for _, r := range rows {
		a, d := o.diffStats(r.file.Edit, v)
		added, removed = added+max(a, 0), removed+max(d, 0)
		if r.file.IsReviewed() {
			reviewed++
		}
	}
	title := st.Help.Title.Render("Changes") + "  " + st.Help.Desc.Render(
		fmt.Sprintf("%s  +%d −%d  %d reviewed · enter diff · space reviewed · esc close", uikit.Plural(len(rows), "file"), added, removed, reviewed))
	if len(rows) == 0 {
		msg := "No changes in this chat yet."
		if o.loading() {
			msg = "Loading changes…"
		}
		for _, s := range o.sets {
			cs, ready, failed, ok := o.src.Changeset(s.URITemplate)
			switch {
			case ok && failed != "":
				msg = "Could not load " + uikit.OneLine(render.Sanitize(s.Label)) + ": " + failed
			case ok && ready && cs.Status == ahpwire.ChangesetError && cs.Error != nil && cs.Error.Message != "":
				// The host says why it has no files (a budget that dropped them).
				msg = uikit.OneLine(render.Sanitize(s.Label)) + ": " + uikit.OneLine(render.Sanitize(cs.Error.Message))
			}
		}
		var lines []string
		for _, l := range strings.Split(ansi.Wordwrap(msg, max(1, inner), ""), "\n") {
			lines = append(lines, st.Dialog.Muted.Render(l))
		}
		return title, o.withStatus(st, lines, avail)
	}
	o.cursor = min(o.cursor, len(rows)-1)
	if o.cursor < o.scroll {
		o.scroll = o.cursor
	}
	if o.cursor >= o.scroll+avail {
		o.scroll = o.cursor - avail + 1
	}
	var paths []string
	for _, r := range rows {
		paths = append(paths, displayPath(editOf(r.file.Edit).Path()))
	}
	root := commonDir(paths)
	var body []string
	for i := o.scroll; i < len(rows) && i < o.scroll+avail; i++ {
		r := rows[i]
		e := editOf(r.file.Edit)
		a, d := o.diffStats(r.file.Edit, v)
		box := "[ ]"
		if r.file.IsReviewed() {
			box = "[✓]"
		}
		counts := "      "
		if a >= 0 && d >= 0 {
			counts = fmt.Sprintf("+%d −%d", a, d)
		}
		kind := map[string]string{"created": "A", "deleted": "D", "renamed": "R", "modified": "M"}[r.file.Edit.Kind()]
		line := fmt.Sprintf("%s %s %s  %s%s", box, kind, uikit.OneLine(render.Sanitize(strings.TrimPrefix(displayPath(e.Path()), root))), counts,
			o.notesMark(fileOf(r)))
		if i == o.cursor {
			line = st.Dialog.OptionSelected.Render("› " + line)
		} else {
			line = st.Dialog.Option.Render("  " + line)
		}
		body = append(body, line)
	}
	return title, o.withStatus(st, body, avail)
}

func (o *Changes) diffView(st *uikit.Styles, inner, avail int) (string, []string) {
	r := o.diff.row
	e := editOf(r.file.Edit)
	state := "not reviewed"
	if r.file.IsReviewed() {
		state = "reviewed"
	}
	// The row may have changed (review echo): show the current file.
	for _, cur := range o.rows() {
		if cur.set.URITemplate == r.set.URITemplate && cur.file.ID == r.file.ID {
			o.diff.row = cur
			if cur.file.IsReviewed() {
				state = "reviewed"
			} else {
				state = "not reviewed"
			}
		}
	}
	title := st.Help.Title.Render(uikit.OneLine(render.Sanitize(displayPath(e.Path())))) + "  " +
		st.Help.Desc.Render(state+" · space toggles · ↑/↓ scroll · esc back")
	v := o.viewOpts()
	k := diffKey{width: inner, set: r.set.URITemplate, file: r.file.ID, path: e.Path()}
	for i, side := range []*ahpwire.FileEditSide{e.Before, e.After} {
		if side != nil {
			u := side.Content.URI
			k.uris[i], k.loads[i] = u, v.Loading[u]
			k.texts[i], k.have[i] = v.Resources[u]
		}
	}
	if o.diff.lines == nil || o.diff.key != k {
		o.diff.key, o.diff.lines = k, o.diffs.FileDiff(e, inner, v)
		if o.diff.lines == nil {
			o.diff.lines = []string{}
		}
	}
	lines := o.diff.lines
	o.diff.scroll = min(o.diff.scroll, max(0, len(lines)-avail))
	end := min(len(lines), o.diff.scroll+avail)
	return title, lines[o.diff.scroll:end]
}

// diffStats returns a file's +/− counts: the host's, else computed once
// from fetched contents and cached; -1 while unknown.
func (o *Changes) diffStats(e ahpwire.FileEdit, v render.ViewOpts) (int64, int64) {
	if d := e.Diff; d != nil && d.Added != nil && d.Removed != nil {
		return render.DiffStats(&e, v)
	}
	var key [2]string
	if e.Before != nil {
		key[0] = e.Before.Content.URI
	}
	if e.After != nil {
		key[1] = e.After.Content.URI
	}
	if st, ok := o.stats[key]; ok {
		return st[0], st[1]
	}
	a, d := render.DiffStats(&e, v)
	if a >= 0 {
		o.stats[key] = [2]int64{a, d}
	}
	return a, d
}

// viewOpts are the render options with the loader's contents.
func (o *Changes) viewOpts() render.ViewOpts {
	var v render.ViewOpts
	o.src.AddViewOpts(&v)
	return v
}

// loading reports whether a changeset snapshot is still awaited.
func (o *Changes) loading() bool {
	for _, s := range o.sets {
		if _, ready, failed, ok := o.src.Changeset(s.URITemplate); !ok || (!ready && failed == "") {
			return true
		}
	}
	return false
}

// editOf returns the file edit of a changeset file (the renderer takes the
// wire type).
func editOf(e ahpwire.FileEdit) *ahpwire.FileEdit { return &e }

// displayPath shows a file: URI as its path.
func displayPath(uri string) string {
	if p, ok := strings.CutPrefix(uri, "file://"); ok {
		return p
	}
	return uri
}

// commonDir is the longest directory prefix (ending in "/") shared by
// every path of a list with more than one entry.
func commonDir(paths []string) string {
	if len(paths) < 2 {
		return ""
	}
	p := paths[0]
	for _, q := range paths[1:] {
		for !strings.HasPrefix(q, p) {
			p = p[:len(p)-1]
		}
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i+1]
	}
	return ""
}
