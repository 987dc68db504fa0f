package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
)

// onResourceLoaded re-renders the visible messages once a content
// reference they show has loaded.
func (m *Model) onResourceLoaded(msg app.ResourceLoadedMsg) tea.Cmd {
	if m.c.Channels.Loader.Done(msg.Res) {
		m.refreshExt()
	}
	return nil
}

// onSideChannelSubscribed: a terminal the host no longer has keeps its
// result preview; a changeset shows why it is missing. No notice either way.
func (m *Model) onSideChannelSubscribed(msg app.SubscribedMsg) tea.Cmd {
	if msg.Err != nil {
		m.c.Channels.SubscribeFailed(msg.Channel, msg.Err)
		m.refreshExt()
	}
	return nil
}

// syncExt subscribes to the terminals of the tool calls on screen (and
// unsubscribes from those that left it) and loads the content references
// the visible messages and the open changes view need.
func (m *Model) syncExt() tea.Cmd {
	x := m.c.Channels
	want := map[string]bool{}
	var uris []string
	sizes := map[string]int64{}
	if m.chat != nil && m.screen == screenChat {
		first, last := m.chat.Transcript.VisibleItems()
		v := m.chat.ViewOptsBase()
		near := chat.NearKeys(m.chat.Transcript.NearSpans())
		for i := max(0, first-1); i <= last+1; i++ {
			msg := m.chat.MessageAt(i)
			if msg == nil {
				continue
			}
			for uri, pty := range render.TerminalRefs(msg) {
				want[uri] = pty
			}
			msg = chat.NearPart(msg, near)
			if need := render.NeededResources(msg, v); len(need) > 0 {
				uris = append(uris, need...)
				for u, n := range render.RefSizes(msg) {
					sizes[u] = n
				}
			}
		}
	}
	for _, ov := range m.overlays {
		if o, ok := ov.(*dialog.Changes); ok {
			uris = append(uris, o.ResourceURIs()...)
			for u, n := range o.ResourceSizes() {
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
	return tea.Batch(x.Follow(want), x.Load(uris, hint))
}

// refreshExt re-renders the visible messages after a terminal, changeset
// or fetched content changed (the render caches keep unchanged ones).
func (m *Model) refreshExt() {
	if m.chat == nil {
		return
	}
	first, last := m.chat.Transcript.VisibleItems()
	for i := first; i <= last; i++ {
		m.chat.Transcript.Invalidate(i)
	}
	m.chat.Transcript.Layout()
	m.chat.SettleSearch() // a search hit in a page that just loaded
}
