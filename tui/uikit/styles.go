package uikit

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/ahptui/ahptui/render"
)

// Styles are the TUI's chrome styles (status line, picker, dialogs, help).
// Transcript content is styled by render.Styles. Built by newStyles.
type Styles struct {
	Status struct {
		// Bar and every segment drawn on it (Connected … Notice) carry the
		// bar's background: an inner reset would otherwise punch holes
		// into it. Hint is the key hint line above the bar (no background).
		Bar, Connected, Reconnecting, Failed, Host, Title, Model, Usage, Pending, Sep, Notice, Hint lipgloss.Style
	}
	Picker struct {
		Title, Item, Selected, Match, Meta, Filter, Empty, Icon, IconBusy, IconError lipgloss.Style
	}
	Dialog struct {
		Box, Title, Label, Text, Key, Option, OptionSelected, Muted, Warn, Error lipgloss.Style
	}
	Help struct {
		Box, Title, Section, Key, Desc lipgloss.Style
	}
	Chat struct {
		Queue, Outbox, Uncertain, Marker, Notice, Error lipgloss.Style
	}
	// Input styles the text inputs and the composer (the bubbles defaults
	// name their own colours and ignore the theme).
	Input struct {
		Prompt, Text, Placeholder, Blurred lipgloss.Style
		Cursor                             color.Color
	}
}

// NewStyles derives the chrome styles from the palette of the transcript
// styles, so that every colour of the application comes from render.Styles.
func NewStyles(rs render.Styles) Styles {
	p := rs.Palette
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	var s Styles
	bar := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Background(p.BarBg).Foreground(c) }
	s.Status.Bar = bar(p.Text)
	s.Status.Connected = bar(p.OK).Bold(true)
	s.Status.Reconnecting = bar(p.Warn).Bold(true)
	s.Status.Failed = bar(p.Err).Bold(true)
	s.Status.Host = bar(p.Muted)
	s.Status.Title = bar(p.Text).Bold(true)
	s.Status.Model = bar(p.Accent)
	s.Status.Usage = bar(p.Muted)
	s.Status.Pending = bar(p.Warn).Bold(true)
	s.Status.Sep = bar(p.Faint)
	s.Status.Notice = bar(p.Muted)
	s.Status.Hint = fg(p.Faint)

	s.Picker.Title = fg(p.Accent).Bold(true)
	s.Picker.Item = fg(p.Text)
	s.Picker.Selected = fg(p.Accent).Bold(true)
	s.Picker.Match = fg(p.Match).Underline(true)
	s.Picker.Meta = fg(p.Muted)
	s.Picker.Filter = fg(p.Text)
	s.Picker.Empty = fg(p.Faint).Italic(true)
	s.Picker.Icon = fg(p.OK)
	s.Picker.IconBusy = fg(p.Warn)
	s.Picker.IconError = fg(p.Err)

	s.Dialog.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border).Padding(0, 1)
	s.Dialog.Title = fg(p.Warn).Bold(true)
	s.Dialog.Label = fg(p.Muted).Bold(true)
	s.Dialog.Text = fg(p.Text)
	s.Dialog.Key = fg(p.Accent).Bold(true)
	s.Dialog.Option = fg(p.Text)
	s.Dialog.OptionSelected = fg(p.Accent).Bold(true)
	s.Dialog.Muted = fg(p.Muted)
	s.Dialog.Warn = fg(p.Warn)
	s.Dialog.Error = fg(p.Err).Bold(true)

	s.Help.Box = s.Dialog.Box
	s.Help.Title = fg(p.Accent).Bold(true)
	s.Help.Section = fg(p.Warn).Bold(true)
	s.Help.Key = fg(p.Accent)
	s.Help.Desc = fg(p.Muted)

	s.Chat.Queue = fg(p.Muted).Italic(true)
	s.Chat.Outbox = fg(p.Warn)
	s.Chat.Uncertain = fg(p.Err).Bold(true)
	s.Chat.Marker = lipgloss.NewStyle().Background(p.Warn).Foreground(p.OnWarn).Bold(true)
	s.Chat.Notice = fg(p.Muted).Italic(true)
	s.Chat.Error = fg(p.Err)

	s.Input.Prompt = fg(p.Accent)
	s.Input.Text = lipgloss.NewStyle()
	s.Input.Placeholder = fg(p.Faint)
	s.Input.Blurred = fg(p.Muted)
	s.Input.Cursor = p.Text
	return s
}
