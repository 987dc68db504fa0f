package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles are the TUI's chrome styles (status line, picker, dialogs, help).
// Transcript content is styled by render.Styles. Built by newStyles.
type Styles struct {
	Status struct {
		Bar, Connected, Reconnecting, Failed, Host, Title, Model, Usage, Pending, Sep, Hint lipgloss.Style
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
}

type chromePalette struct {
	text, muted, faint, accent, ok, warn, err, barBg, match, border color.Color
}

func newStyles(isDark bool) Styles {
	p := chromePalette{
		text: lipgloss.Color("#D0D0D0"), muted: lipgloss.Color("#8A8A8A"), faint: lipgloss.Color("#626262"),
		accent: lipgloss.Color("#AF87FF"), ok: lipgloss.Color("#5FD75F"), warn: lipgloss.Color("#FFAF00"),
		err: lipgloss.Color("#FF5F5F"), barBg: lipgloss.Color("#262626"), match: lipgloss.Color("#FFD75F"),
		border: lipgloss.Color("#5F5F87"),
	}
	if !isDark {
		p = chromePalette{
			text: lipgloss.Color("#262626"), muted: lipgloss.Color("#6C6C6C"), faint: lipgloss.Color("#9E9E9E"),
			accent: lipgloss.Color("#8700D7"), ok: lipgloss.Color("#008700"), warn: lipgloss.Color("#AF5F00"),
			err: lipgloss.Color("#D70000"), barBg: lipgloss.Color("#E4E4E4"), match: lipgloss.Color("#AF5F00"),
			border: lipgloss.Color("#8787AF"),
		}
	}
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	var s Styles
	s.Status.Bar = lipgloss.NewStyle().Background(p.barBg).Foreground(p.text)
	s.Status.Connected = fg(p.ok).Bold(true)
	s.Status.Reconnecting = fg(p.warn).Bold(true)
	s.Status.Failed = fg(p.err).Bold(true)
	s.Status.Host = fg(p.muted)
	s.Status.Title = fg(p.text).Bold(true)
	s.Status.Model = fg(p.accent)
	s.Status.Usage = fg(p.muted)
	s.Status.Pending = fg(p.warn).Bold(true)
	s.Status.Sep = fg(p.faint)
	s.Status.Hint = fg(p.faint)

	s.Picker.Title = fg(p.accent).Bold(true)
	s.Picker.Item = fg(p.text)
	s.Picker.Selected = fg(p.accent).Bold(true)
	s.Picker.Match = fg(p.match).Underline(true)
	s.Picker.Meta = fg(p.muted)
	s.Picker.Filter = fg(p.text)
	s.Picker.Empty = fg(p.faint).Italic(true)
	s.Picker.Icon = fg(p.ok)
	s.Picker.IconBusy = fg(p.warn)
	s.Picker.IconError = fg(p.err)

	s.Dialog.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.border).Padding(0, 1)
	s.Dialog.Title = fg(p.warn).Bold(true)
	s.Dialog.Label = fg(p.muted).Bold(true)
	s.Dialog.Text = fg(p.text)
	s.Dialog.Key = fg(p.accent).Bold(true)
	s.Dialog.Option = fg(p.text)
	s.Dialog.OptionSelected = fg(p.accent).Bold(true)
	s.Dialog.Muted = fg(p.muted)
	s.Dialog.Warn = fg(p.warn)
	s.Dialog.Error = fg(p.err).Bold(true)

	s.Help.Box = s.Dialog.Box
	s.Help.Title = fg(p.accent).Bold(true)
	s.Help.Section = fg(p.warn).Bold(true)
	s.Help.Key = fg(p.accent)
	s.Help.Desc = fg(p.muted)

	s.Chat.Queue = fg(p.muted).Italic(true)
	s.Chat.Outbox = fg(p.warn)
	s.Chat.Uncertain = fg(p.err).Bold(true)
	s.Chat.Marker = lipgloss.NewStyle().Background(p.warn).Foreground(lipgloss.Color("#000000")).Bold(true)
	s.Chat.Notice = fg(p.muted).Italic(true)
	s.Chat.Error = fg(p.err)
	return s
}
