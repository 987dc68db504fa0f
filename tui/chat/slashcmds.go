package chat

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Client slash commands: the commands Claude Code, Codex and crush users
// type without thinking. They are listed in the composer's `/` popup beside
// the host's own commands and run here, never reaching the agent. A host
// command of the same name wins (the host's /compact, say, is the host's).

// clientCommand is one client slash command.
type clientCommand struct {
	Name string // "/new"
	Desc string
}

// ClientCommands lists the client commands in the order the popup shows them.
var ClientCommands = []clientCommand{
	{"/new", "ahptui: a new chat (same agent)"},
	{"/clear", "ahptui: a new chat (same agent)"},
	{"/model", "ahptui: the session settings (model)"},
	{"/mode", "ahptui: the next session mode (/mode NAME picks one)"},
	{"/resume", "ahptui: resume a failed turn, else the session picker"},
	{"/sessions", "ahptui: the session picker"},
	{"/rename", "ahptui: rename this session"},
	{"/export", "ahptui: write the chat to a markdown file here"},
	{"/copy", "ahptui: pick a code block of the last reply (or all of it) to copy; /copy N its Nth code block"},
	{"/login", "ahptui: sign the agent in (a token for what it declares)"},
	{"/logout", "ahptui: sign the agent out on the host"},
	{"/help", "ahptui: every key binding"},
	{"/exit", "ahptui: quit"},
	{"/quit", "ahptui: quit"},
}

// clientCompletionItems are the client commands as completion items.
func clientCompletionItems() []ahpwire.CompletionItem {
	out := make([]ahpwire.CompletionItem, 0, len(ClientCommands))
	for _, c := range ClientCommands {
		out = append(out, ahpwire.CompletionItem{InsertText: c.Name,
			Attachment: ahpwire.MessageAttachment{Type: "simple", Label: c.Name, DisplayKind: c.Desc}})
	}
	return out
}

// ClientCommandMsg asks the root to run a client command.
type ClientCommandMsg struct {
	Name string // "/model"
	Arg  string // the rest of the line, trimmed
}

// ParseClientCommand reports whether text is a client command: one line
// starting with a client command's name, unless the host offers a command
// of that name (hostCmds: the insert texts the host completed).
func ParseClientCommand(text string, hostCmds []string) (ClientCommandMsg, bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") || strings.Contains(text, "\n") {
		return ClientCommandMsg{}, false
	}
	name, arg, _ := strings.Cut(text, " ")
	if slices.Contains(hostCmds, name) {
		return ClientCommandMsg{}, false
	}
	for _, c := range ClientCommands {
		if c.Name == name {
			return ClientCommandMsg{Name: name, Arg: strings.TrimSpace(arg)}, true
		}
	}
	return ClientCommandMsg{}, false
}

// clientCommandCmd turns a sent text into a client command, or nil when
// it is not one (the text then goes to the agent).
func (m *Model) clientCommandCmd(text string) tea.Cmd {
	cmd, ok := ParseClientCommand(text, m.Extras.Completer.hostCommands())
	if !ok {
		return nil
	}
	m.Extras.Completer.Reset()
	return tea.Batch(m.c.History.Add(text), uikit.Emit(cmd))
}

// merged is the host's items followed by the client commands that fit the
// token (a command at the start of the message), minus those the host
// offers itself.
func (c *Completer) merged() []ahpwire.CompletionItem {
	if !strings.HasPrefix(c.Token, "/") || c.anchor != 0 || c.line != 0 || strings.Contains(c.Token, " ") {
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
func (c *Completer) hostTriggered() bool {
	for _, t := range c.hostTriggers {
		if t != "" && strings.HasPrefix(c.Token, t) {
			return true
		}
	}
	return false
}

// hostCommands are the host's slash commands seen in its completions.
func (c *Completer) hostCommands() []string {
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
func (c *Completer) prefixFirst() {
	slices.SortStableFunc(c.Shown, func(a, b int) int {
		pa, pb := strings.HasPrefix(c.Items[a].InsertText, c.Token), strings.HasPrefix(c.Items[b].InsertText, c.Token)
		switch {
		case pa == pb:
			return 0
		case pa:
			return -1
		}
		return 1
	})
}
