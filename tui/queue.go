package tui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// queueList is the list of queued messages shown above the composer when
// opened: select one to edit, remove or move it before it starts. Every
// change is an AHP pending-message action (chat/pendingMessageSet,
// chat/pendingMessageRemoved, chat/queuedMessagesReordered).
type queueList struct {
	km   keymap.Queue
	open bool
	sel  int
}

// queueIntent is what the user asked the queue list for.
type queueIntent struct {
	action ahpwire.Action // to dispatch on the chat (nil = none)
	edit   *reducer.PendingMessage
	close  bool
}

// Update handles a key while the list is open. steering marks the items
// that are entries of the chat's steering message list (AHP 1.1): they are
// removed with chat/steeringMessageRemoved and never reordered.
func (q *queueList) Update(msg tea.KeyPressMsg, items []reducer.PendingMessage, steering map[string]bool) queueIntent {
	if len(items) == 0 {
		q.open = false
		return queueIntent{close: true}
	}
	q.sel = min(q.sel, len(items)-1)
	move := func(d int) queueIntent {
		j := q.sel + d
		if j < 0 || j >= len(items) || steering[items[q.sel].ID] || steering[items[j].ID] {
			return queueIntent{}
		}
		order := make([]string, 0, len(items))
		for _, it := range items {
			if !steering[it.ID] {
				order = append(order, it.ID)
			}
		}
		off := 0 // the steering entries come first
		for _, it := range items {
			if steering[it.ID] {
				off++
			}
		}
		order[q.sel-off], order[j-off] = order[j-off], order[q.sel-off]
		q.sel = j
		return queueIntent{action: &ahpwire.ChatQueuedMessagesReordered{Order: order}}
	}
	switch {
	case key.Matches(msg, q.km.Up):
		q.sel = max(0, q.sel-1)
	case key.Matches(msg, q.km.Down):
		q.sel = min(len(items)-1, q.sel+1)
	case key.Matches(msg, q.km.MoveUp):
		return move(-1)
	case key.Matches(msg, q.km.MoveDown):
		return move(+1)
	case key.Matches(msg, q.km.Remove):
		id := items[q.sel].ID
		if q.sel == len(items)-1 {
			q.sel = max(0, q.sel-1)
		}
		if steering[id] {
			return queueIntent{action: &ahpwire.ChatSteeringMessageRemoved{ID: id}}
		}
		return queueIntent{action: &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: id}}
	case key.Matches(msg, q.km.Edit):
		it := items[q.sel]
		q.open = false
		return queueIntent{edit: &it, close: true}
	case key.Matches(msg, q.km.Close):
		q.open = false
		return queueIntent{close: true}
	}
	return queueIntent{}
}

// View renders the list (numbered, selected one marked) and its key hints.
func (q *queueList) View(st *uikit.Styles, items []reducer.PendingMessage, steering map[string]bool, width int) []string {
	if !q.open || len(items) == 0 {
		return nil
	}
	out := []string{st.Dialog.Label.Render("Queued messages — run in this order after the current turn")}
	for i, it := range items {
		text := uikit.OneLine(render.Sanitize(render.Head(it.Text, width))) // cut to the width below
		if steering[it.ID] {
			text = "steer: " + text
		}
		line := "  " + strconv.Itoa(i+1) + ". " + text
		if i == q.sel {
			line = st.Dialog.OptionSelected.Render("▸ " + strconv.Itoa(i+1) + ". " + text)
		}
		out = append(out, line)
	}
	out = append(out, st.Dialog.Muted.Render(q.km.Edit.Help().Key+" edit · "+q.km.Remove.Help().Key+" remove · "+
		q.km.MoveUp.Help().Key+"/"+q.km.MoveDown.Help().Key+" reorder · "+q.km.Close.Help().Key+" close"))
	for i, l := range out {
		out[i] = ansi.Truncate(l, max(1, width), "…")
	}
	return out
}

// openQueue opens the list of queued (and steering) messages (F2).
func (m *chatModel) openQueue() tea.Cmd {
	if items, _ := m.pendingItems(); len(items) == 0 {
		return uikit.Notice("no queued messages", false)
	}
	m.x.queue.open, m.x.queue.sel = true, 0
	m.relayout()
	return nil
}

// queueKey: a key in the open queue list edits, removes or moves an entry;
// editing one puts it in the composer (enter saves it in place).
func (m *chatModel) queueKey(k tea.KeyPressMsg) tea.Cmd {
	items, steering := m.pendingItems()
	in := m.x.queue.Update(k, items, steering)
	m.relayout()
	var cmd tea.Cmd
	if in.action != nil {
		cmd = m.c.dispatch(m.chat, in.action, "edit the queue")
	}
	if in.edit != nil {
		m.x.editing = in.edit.ID
		m.comp.SetDraft(in.edit.Text)
		m.relayout()
		cmd = tea.Batch(cmd, m.setFocus(focusComposer), uikit.Notice("editing a queued message — enter saves it in place", false))
	}
	return cmd
}

// pendingItems lists what F2 shows: the chat's steering message list
// (AHP 1.1; marked in steering) and then its queued messages.
func (m *chatModel) pendingItems() ([]reducer.PendingMessage, map[string]bool) {
	if len(m.ahp.SteeringMessages) == 0 {
		return m.state.Queued, nil
	}
	steering := make(map[string]bool, len(m.ahp.SteeringMessages))
	items := make([]reducer.PendingMessage, 0, len(m.ahp.SteeringMessages)+len(m.state.Queued))
	for _, s := range m.ahp.SteeringMessages {
		steering[s.ID] = true
		items = append(items, reducer.PendingMessage{ID: s.ID, Text: s.Message.Text})
	}
	return append(items, m.state.Queued...), steering
}

// isSteeringEntry reports whether id is an entry of the steering list.
func (m *chatModel) isSteeringEntry(id string) bool {
	for _, s := range m.ahp.SteeringMessages {
		if s.ID == id {
			return true
		}
	}
	return false
}

func (m *chatModel) isQueued(id string) bool {
	for _, q := range m.state.Queued {
		if q.ID == id {
			return true
		}
	}
	return false
}
