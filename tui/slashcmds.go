package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Client slash commands: the commands Claude Code, Codex and crush users
// type without thinking. They are listed in the composer's `/` popup beside
// the host's own commands and run here, never reaching the agent. A host
// command of the same name wins (the host's /compact, say, is the host's).

// clientCommand is one client slash command.
type clientCommand struct {
	name string // "/new"
	desc string
}

// clientCommands lists the client commands in the order the popup shows them.
var clientCommands = []clientCommand{
	{"/new", "ahptui: a new chat (same agent)"},
	{"/clear", "ahptui: a new chat (same agent)"},
	{"/model", "ahptui: the session settings (model)"},
	{"/mode", "ahptui: the next session mode (/mode NAME picks one)"},
	{"/resume", "ahptui: resume a failed turn, else the session picker"},
	{"/sessions", "ahptui: the session picker"},
	{"/rename", "ahptui: rename this session"},
	{"/export", "ahptui: write the chat to a markdown file here"},
	{"/copy", "ahptui: copy the last reply (markdown)"},
	{"/help", "ahptui: every key binding"},
	{"/exit", "ahptui: quit"},
	{"/quit", "ahptui: quit"},
}

// clientCompletionItems are the client commands as completion items.
func clientCompletionItems() []ahpwire.CompletionItem {
	out := make([]ahpwire.CompletionItem, 0, len(clientCommands))
	for _, c := range clientCommands {
		out = append(out, ahpwire.CompletionItem{InsertText: c.name,
			Attachment: ahpwire.MessageAttachment{Type: "simple", Label: c.name, DisplayKind: c.desc}})
	}
	return out
}

// clientCommandMsg asks the root to run a client command.
type clientCommandMsg struct {
	name string // "/model"
	arg  string // the rest of the line, trimmed
}

// parseClientCommand reports whether text is a client command: one line
// starting with a client command's name, unless the host offers a command
// of that name (hostCmds: the insert texts the host completed).
func parseClientCommand(text string, hostCmds []string) (clientCommandMsg, bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") || strings.Contains(text, "\n") {
		return clientCommandMsg{}, false
	}
	name, arg, _ := strings.Cut(text, " ")
	if slices.Contains(hostCmds, name) {
		return clientCommandMsg{}, false
	}
	for _, c := range clientCommands {
		if c.name == name {
			return clientCommandMsg{name: name, arg: strings.TrimSpace(arg)}, true
		}
	}
	return clientCommandMsg{}, false
}

// runClientCommand runs a client command on the chat screen.
func (m *Model) runClientCommand(msg clientCommandMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	c := m.chat
	switch msg.name {
	case "/new", "/clear":
		return m.newSessionLikeThis()
	case "/model":
		return uikit.Emit(openSettingsMsg{})
	case "/mode":
		if msg.arg == "" {
			return m.cycleMode()
		}
		return m.pickMode(msg.arg)
	case "/resume":
		if t := c.resumableTurn(); t != "" {
			return m.c.dispatch(c.chat, &ahpwire.ChatTurnResume{TurnID: t}, "resume turn")
		}
		return uikit.Emit(backToPickerMsg{})
	case "/sessions":
		return uikit.Emit(backToPickerMsg{})
	case "/rename":
		if msg.arg != "" {
			return uikit.Emit(dialog.SessionActionMsg{Session: c.session, Action: &ahpwire.SessionTitleChanged{Title: msg.arg}, What: "rename session"})
		}
		return uikit.Emit(renameRequestMsg{Session: c.session, Title: c.title})
	case "/export":
		return c.wholeChat(wholeExport)
	case "/copy":
		return c.copyLastReply()
	case "/help":
		m.overlays = append(m.overlays, dialog.NewHelp(m.c.km, slashHelpGroup()))
		return nil
	case "/exit", "/quit":
		return m.quitCmd()
	}
	return nil
}

// pickMode sets the mode whose value or label starts with name.
func (m *Model) pickMode(name string) tea.Cmd {
	if m.session == nil {
		return nil
	}
	prop, p, ok := modeProperty(m.session.Config)
	if !ok {
		return m.setNotice("this session has no mode to switch", false)
	}
	want := strings.ToLower(name)
	var names []string
	for i, v := range p.Enum {
		label := strings.Trim(string(v), `"`)
		names = append(names, label)
		if strings.HasPrefix(strings.ToLower(label), want) ||
			(i < len(p.EnumLabels) && strings.HasPrefix(strings.ToLower(p.EnumLabels[i]), want)) {
			return m.setMode(prop, p, i)
		}
	}
	return m.setNotice("no mode "+name+" (modes: "+strings.Join(names, ", ")+")", true)
}

// quitCmd quits, asking first while a turn runs (as ctrl+c does).
func (m *Model) quitCmd() tea.Cmd {
	if m.chat != nil && m.chat.state.Current != nil {
		m.overlays = append(m.overlays, dialog.NewConfirm(m.c.km.Confirm, m.quitQuestion(), quitConfirmedMsg{}))
		return nil
	}
	return uikit.Emit(quitConfirmedMsg{})
}

// copyLastReply copies the newest agent reply as markdown (/copy).
func (m *chatModel) copyLastReply() tea.Cmd {
	msgs := m.allMessages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i] != nil && msgs[i].Role != reducer.RoleUser {
			md := messageMarkdown(msgs[i])
			return copyCmd(md, "the last reply as markdown", "/export")
		}
	}
	return uikit.Notice("no reply to copy yet", false)
}

// clientCommandCmd turns a sent text into a client command, or nil when
// it is not one (the text then goes to the agent).
func (m *chatModel) clientCommandCmd(text string) tea.Cmd {
	cmd, ok := parseClientCommand(text, m.x.compl.hostCommands())
	if !ok {
		return nil
	}
	m.x.compl.reset()
	return tea.Batch(m.c.hist.add(text), uikit.Emit(cmd))
}

// merged is the host's items followed by the client commands that fit the
// token (a command at the start of the message), minus those the host
// offers itself.
func (c *completer) merged() []ahpwire.CompletionItem {
	if !strings.HasPrefix(c.token, "/") || c.anchor != 0 || c.line != 0 || strings.Contains(c.token, " ") {
		return c.hostItems
	}
	out := slices.Clone(c.hostItems)
	for _, it := range c.client {
		if !slices.ContainsFunc(c.hostItems, func(h ahpwire.CompletionItem) bool { return h.InsertText == it.InsertText }) {
			out = append(out, it)
		}
	}
	return out
}

// hostTriggered reports whether the token starts with a trigger the host
// asked for (the client's own "/" is not sent to a host that has none).
func (c *completer) hostTriggered() bool {
	for _, t := range c.hostTriggers {
		if t != "" && strings.HasPrefix(c.token, t) {
			return true
		}
	}
	return false
}

// hostCommands are the host's slash commands seen in its completions.
func (c *completer) hostCommands() []string {
	var out []string
	for _, it := range c.hostItems {
		if name, _, _ := strings.Cut(it.InsertText, " "); strings.HasPrefix(name, "/") {
			out = append(out, name)
		}
	}
	return out
}

// prefixFirst moves the items that start with the token ahead of the other
// fuzzy matches (/mo lists /model and /mode before /demo).
func (c *completer) prefixFirst() {
	slices.SortStableFunc(c.shown, func(a, b int) int {
		pa, pb := strings.HasPrefix(c.items[a].InsertText, c.token), strings.HasPrefix(c.items[b].InsertText, c.token)
		switch {
		case pa == pb:
			return 0
		case pa:
			return -1
		}
		return 1
	})
}

// slashHelpGroup lists the client commands in the help overlay (they are
// typed, not bound: each entry is help text only, with no key).
func slashHelpGroup() keymap.Group {
	g := keymap.Group{Title: "Commands (type / in the composer)"}
	for _, c := range clientCommands {
		g.Bindings = append(g.Bindings, key.NewBinding(key.WithHelp(c.name, strings.TrimPrefix(c.desc, "ahptui: "))))
	}
	return g
}
