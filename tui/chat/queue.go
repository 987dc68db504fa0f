package chat

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

// QueueList is the list of queued messages shown above the composer when
// opened: select one to edit, remove or move it before it starts. Every
// change is an AHP pending-message action (chat/pendingMessageSet,
// chat/pendingMessageRemoved, chat/queuedMessagesReordered).
type QueueList struct {
	KM   keymap.Queue
	Open bool
	Sel  int
}

// queueIntent is what the user asked the queue list for.
type queueIntent struct {
	Action ahpwire.Action // to dispatch on the chat (nil = none)
	Edit   *reducer.PendingMessage
	Close  bool
}

// Update handles a key while the list is open. steering marks the items
// that are entries of the chat's steering message list (AHP 1.1): they are
// removed with chat/steeringMessageRemoved and never reordered.
func (q *QueueList) Update(msg tea.KeyPressMsg, items []reducer.PendingMessage, steering map[string]bool) queueIntent {
	if len(items) == 0 {
		q.Open = false
		return queueIntent{Close: true}
	}
	q.Sel = min(q.Sel, len(items)-1)
	move := func(d int) queueIntent {
		j := q.Sel + d
		if j < 0 || j >= len(items) || steering[items[q.Sel].ID] || steering[items[j].ID] {
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
		order[q.Sel-off], order[j-off] = order[j-off], order[q.Sel-off]
		q.Sel = j
		return queueIntent{Action: &ahpwire.ChatQueuedMessagesReordered{Order: order}}
	}
	if sel, moved := (uikit.ListKeys{Up: q.KM.Up, Down: q.KM.Down}).Move(msg, q.Sel, len(items), 0); moved {
		q.Sel = sel
		return queueIntent{}
	}
	switch {
	case key.Matches(msg, q.KM.MoveUp):
		return move(-1)
	case key.Matches(msg, q.KM.MoveDown):
		return move(+1)
	case key.Matches(msg, q.KM.Remove):
		id := items[q.Sel].ID
		if q.Sel == len(items)-1 {
			q.Sel = max(0, q.Sel-1)
		}
		if steering[id] {
			return queueIntent{Action: &ahpwire.ChatSteeringMessageRemoved{ID: id}}
		}
		return queueIntent{Action: &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: id}}
	case key.Matches(msg, q.KM.Edit):
		it := items[q.Sel]
		q.Open = false
		return queueIntent{Edit: &it, Close: true}
	case key.Matches(msg, q.KM.Close):
		q.Open = false
		return queueIntent{Close: true}
	}
	return queueIntent{}
}

// View renders the list (numbered, selected one marked) and its key hints.
func (q *QueueList) View(st *uikit.Styles, items []reducer.PendingMessage, steering map[string]bool, width int) []string {
	if !q.Open || len(items) == 0 {
		return nil
	}
	out := []string{st.Dialog.Label.Render("Queued messages — run in this order after the current turn")}
	for i, it := range items {
		text := uikit.OneLine(render.Sanitize(render.Head(it.Text, width))) // cut to the width below
		if steering[it.ID] {
			text = "steer: " + text
		}
		line := "  " + strconv.Itoa(i+1) + ". " + text
		if i == q.Sel {
			line = st.Dialog.OptionSelected.Render("▸ " + strconv.Itoa(i+1) + ". " + text)
		}
		out = append(out, line)
	}
	out = append(out, st.Dialog.Muted.Render(q.KM.Edit.Help().Key+" edit · "+q.KM.Remove.Help().Key+" remove · "+
		q.KM.MoveUp.Help().Key+"/"+q.KM.MoveDown.Help().Key+" reorder · "+q.KM.Close.Help().Key+" close"))
	for i, l := range out {
		out[i] = ansi.Truncate(l, max(1, width), "…")
	}
	return out
}

// openQueue opens the list of queued (and steering) messages (F2).
func (m *Model) openQueue() tea.Cmd {
	if items, _ := m.pendingItems(); len(items) == 0 {
		return uikit.Notice("no queued messages", false)
	}
	m.Extras.queue.Open, m.Extras.queue.Sel = true, 0
	m.Relayout()
	return nil
}

// queueKey: a key in the open queue list edits, removes or moves an entry;
// editing one puts it in the composer (enter saves it in place).
func (m *Model) queueKey(k tea.KeyPressMsg) tea.Cmd {
	items, steering := m.pendingItems()
	in := m.Extras.queue.Update(k, items, steering)
	m.Relayout()
	var cmd tea.Cmd
	if in.Action != nil {
		cmd = m.c.Dispatch(m.URI, in.Action, "edit the queue")
	}
	if in.Edit != nil {
		m.Extras.Editing = in.Edit.ID
		m.Composer.SetDraft(in.Edit.Text)
		m.Relayout()
		cmd = tea.Batch(cmd, m.SetFocus(FocusComposer), uikit.Notice("editing a queued message — enter saves it in place", false))
	}
	return cmd
}

// pendingItems lists what F2 shows: the chat's steering message list
// (AHP 1.1; marked in steering) and then its queued messages.
func (m *Model) pendingItems() ([]reducer.PendingMessage, map[string]bool) {
	if len(m.AHP().SteeringMessages) == 0 {
		return m.State.Queued, nil
	}
	steering := make(map[string]bool, len(m.AHP().SteeringMessages))
	items := make([]reducer.PendingMessage, 0, len(m.AHP().SteeringMessages)+len(m.State.Queued))
	for _, s := range m.AHP().SteeringMessages {
		steering[s.ID] = true
		items = append(items, reducer.PendingMessage{ID: s.ID, Text: s.Message.Text})
	}
	return append(items, m.State.Queued...), steering
}

// isSteeringEntry reports whether id is an entry of the steering list.
func (m *Model) isSteeringEntry(id string) bool {
	for _, s := range m.AHP().SteeringMessages {
		if s.ID == id {
			return true
		}
	}
	return false
}

func (m *Model) isQueued(id string) bool {
	for _, q := range m.State.Queued {
		if q.ID == id {
			return true
		}
	}
	return false
}
