package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

// Update routes a message (update) and then keeps the terminal
// subscriptions and content fetches in line with what is on screen.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.c.view.reuse = false // viewcache.go
	switch r := msg.(type) {
	case openTerminalMsg:
		cmd := m.openTerminal(r.uri)
		return m, tea.Batch(cmd, m.syncExt())
	case resourceLoadedMsg:
		if m.c.ext.loader.Done(r.res) {
			m.refreshExt()
		}
	case subscribedMsg:
		if isExtChannel(r.channel) {
			// A terminal the host no longer has keeps its result preview;
			// a changeset shows why it is missing. No notice either way.
			if r.err != nil {
				m.c.ext.subscribeFailed(r.channel, r.err)
				m.refreshExt()
			}
			return m, m.syncExt()
		}
	}
	mm, cmd := m.update(msg)
	next, ok := mm.(Model)
	if !ok {
		return mm, cmd
	}
	if next.onlyStreamedText(msg) { // nothing moved on screen before the next frame (stream_batch.go)
		next.c.view.reuse = true // nor is anything drawn anew (viewcache.go)
		return next, cmd
	}
	if next.quick {
		cmd = tea.Batch(cmd, next.quickStart())
	}
	next.dropStaleNotices() // hints.go
	// The hint line's "f6 changes" (hints.go) needs the session's changesets.
	if next.chat != nil {
		next.chat.sessionChanges = next.session != nil && len(next.session.Changesets) > 0
	}
	return next, tea.Batch(cmd, next.syncExt())
}

// syncExt subscribes to the terminals of the tool calls on screen (and
// unsubscribes from those that left it) and loads the content references
// the visible messages and the open changes view need.
func (m *Model) syncExt() tea.Cmd {
	x := m.c.ext
	want := map[string]bool{}
	var uris []string
	sizes := map[string]int64{}
	if m.chat != nil && m.screen == screenChat {
		first, last := m.chat.tr.visibleItems()
		v := m.chat.viewOptsBase()
		near := nearKeys(m.chat.tr.nearSpans())
		for i := max(0, first-1); i <= last+1; i++ {
			msg := m.chat.messageAt(i)
			if msg == nil {
				continue
			}
			for uri, pty := range render.TerminalRefs(msg) {
				want[uri] = pty
			}
			msg = nearPart(msg, near)
			if need := render.NeededResources(msg, v); len(need) > 0 {
				uris = append(uris, need...)
				for u, n := range render.RefSizes(msg) {
					sizes[u] = n
				}
			}
		}
	}
	for _, ov := range m.overlays {
		if o, ok := ov.(*changesOverlay); ok {
			uris = append(uris, o.resourceURIs()...)
			for u, n := range o.resourceSizes() {
				sizes[u] = n
			}
		}
	}
	hint := func(u string) int64 {
		if n, ok := sizes[u]; ok {
			return n
		}
		return -1
	}
	return tea.Batch(x.follow(want), x.load(uris, hint))
}

// refreshExt re-renders the visible messages after a terminal, changeset
// or fetched content changed (the render caches keep unchanged ones).
func (m *Model) refreshExt() {
	if m.chat == nil {
		return
	}
	first, last := m.chat.tr.visibleItems()
	for i := first; i <= last; i++ {
		m.chat.tr.invalidate(i)
	}
	m.chat.tr.layout()
	m.chat.settleSearch() // a search hit in a page that just loaded
}

// onExtSnapshot applies a terminal or changeset snapshot.
func (m *Model) onExtSnapshot(s ahpwire.Snapshot) tea.Cmd {
	m.c.ext.onSnapshot(s)
	m.refreshExt()
	return nil
}

// onExtEnvelope applies a terminal or changeset action.
func (m *Model) onExtEnvelope(env ahpwire.ActionEnvelope) tea.Cmd {
	m.c.ext.onEnvelope(env)
	m.refreshExt()
	return nil
}

// extKey opens the changes view or the terminal viewer from the chat.
func (m *Model) extKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.screen != screenChat || m.chat == nil {
		return nil, false
	}
	km := &m.c.km
	switch {
	case key.Matches(k, km.Chat.Changes):
		o, cmd := newChangesOverlay(m.c.ext, km.Changes, m.changesets())
		m.overlays = append(m.overlays, o)
		return cmd, true
	case key.Matches(k, km.Chat.Terminals):
		v, cmd := newTermViewer(m.c.ext, km.Terminal)
		v.wire(km.TermInput, termSenderFor(m.c.ctx, m.c.backend), clientIDOf(m.c.backend))
		m.overlays = append(m.overlays, v)
		return cmd, true
	}
	return nil, false
}

// changesets is the catalogue of the chat, else of its session.
func (m *Model) changesets() []ahpwire.Changeset {
	if cs := m.c.ext.chatSets; len(cs) > 0 {
		return cs
	}
	if m.session != nil {
		return m.session.Changesets
	}
	return nil
}
