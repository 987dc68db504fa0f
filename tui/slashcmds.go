package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Client slash commands: chat/slashcmds.go lists and parses them; the root
// runs them here.

// runClientCommand runs a client command on the chat screen.
func (m *Model) runClientCommand(msg chat.ClientCommandMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	c := m.chat
	switch msg.Name {
	case "/new", "/clear":
		return m.newSessionLikeThis()
	case "/model":
		return uikit.Emit(app.OpenSettingsMsg{})
	case "/mode":
		if msg.Arg == "" {
			return m.cycleMode()
		}
		return m.pickMode(msg.Arg)
	case "/resume":
		if t := c.ResumableTurn(); t != "" {
			return m.c.Dispatch(c.URI, &ahpwire.ChatTurnResume{TurnID: t}, "resume turn")
		}
		return uikit.Emit(app.BackToPickerMsg{})
	case "/sessions":
		return uikit.Emit(app.BackToPickerMsg{})
	case "/rename":
		if msg.Arg != "" {
			return uikit.Emit(dialog.SessionActionMsg{Session: c.Session, Action: &ahpwire.SessionTitleChanged{Title: msg.Arg}, What: "rename session"})
		}
		return uikit.Emit(picker.RenameRequestMsg{Session: c.Session, Title: c.Title})
	case "/export":
		return c.WholeChat(chat.WholeExport)
	case "/copy":
		if msg.Arg == "" {
			if code, whole, ok := c.LastReplyCode(); ok && len(code) > 0 {
				m.overlays = append(m.overlays, dialog.NewCopyPick(m.c.KM.CopyPick, copyChoices(code, whole)))
				return nil
			}
		}
		return c.CopyReply(msg.Arg)
	case "/login":
		return m.login() // signout.go
	case "/logout":
		return m.logout()
	case "/help":
		m.overlays = append(m.overlays, dialog.NewHelp(m.c.KM, slashHelpGroup()))
		return nil
	case "/exit", "/quit":
		return m.quitCmd()
	}
	return nil
}

// copyChoices are /copy's choices: each code block, then the whole reply.
func copyChoices(code []chat.CodeBlock, whole string) []dialog.CopyChoice {
	out := make([]dialog.CopyChoice, 0, len(code)+1)
	for i, c := range code {
		out = append(out, dialog.CodeChoice(i+1, len(code), c.Lang, c.Code))
	}
	return append(out, dialog.CopyChoice{Label: "the whole reply (markdown)", Text: whole, What: "the last reply as markdown"})
}

// pickMode sets the mode whose value or label starts with name.
func (m *Model) pickMode(name string) tea.Cmd {
	ss := m.sessionState()
	if ss == nil {
		return nil
	}
	prop, p, ok := modeProperty(ss.Config)
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
	if m.chat != nil && m.chat.State.Current != nil {
		m.overlays = append(m.overlays, dialog.NewConfirm(m.c.KM.Confirm, m.quitQuestion(), app.QuitConfirmedMsg{}))
		return nil
	}
	return uikit.Emit(app.QuitConfirmedMsg{})
}

// slashHelpGroup lists the client commands in the help overlay (they are
// typed, not bound: each entry is help text only, with no key).
func slashHelpGroup() keymap.Group {
	g := keymap.Group{Title: "Commands (type / in the composer)"}
	for _, c := range chat.ClientCommands {
		g.Bindings = append(g.Bindings, key.NewBinding(key.WithHelp(c.Name, strings.TrimPrefix(c.Desc, "ahptui: "))))
	}
	return g
}
