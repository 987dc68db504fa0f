package render

import (
	"image/color"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
)

// palette is the only place in the package that names colours.
type palette struct {
	text, muted, faint    color.Color
	accent, user, link    color.Color
	ok, warn, err, info   color.Color
	add, del, hunk, focus color.Color
}

func darkPalette() palette {
	return palette{
		text: lipgloss.Color("#D0D0D0"), muted: lipgloss.Color("#8A8A8A"), faint: lipgloss.Color("#626262"),
		accent: lipgloss.Color("#AF87FF"), user: lipgloss.Color("#5FAFFF"), link: lipgloss.Color("#00AFAF"),
		ok: lipgloss.Color("#5FD75F"), warn: lipgloss.Color("#FFAF00"), err: lipgloss.Color("#FF5F5F"), info: lipgloss.Color("#5FAFD7"),
		add: lipgloss.Color("#5FD75F"), del: lipgloss.Color("#FF5F5F"), hunk: lipgloss.Color("#5FAFD7"), focus: lipgloss.Color("#FFD75F"),
	}
}

func lightPalette() palette {
	return palette{
		text: lipgloss.Color("#262626"), muted: lipgloss.Color("#6C6C6C"), faint: lipgloss.Color("#9E9E9E"),
		accent: lipgloss.Color("#8700D7"), user: lipgloss.Color("#005FD7"), link: lipgloss.Color("#008787"),
		ok: lipgloss.Color("#008700"), warn: lipgloss.Color("#AF5F00"), err: lipgloss.Color("#D70000"), info: lipgloss.Color("#005F87"),
		add: lipgloss.Color("#008700"), del: lipgloss.Color("#D70000"), hunk: lipgloss.Color("#005F87"), focus: lipgloss.Color("#AF8700"),
	}
}

// Styles holds every colour and text attribute the package uses. Build it
// with [DarkStyles], [LightStyles] or [StylesFor]; a caller may adjust fields
// of the returned value before passing it to [New]. Name identifies the style
// in cache keys, so two different Styles values given to the same process
// must carry different names.
type Styles struct {
	// Name is "dark" or "light" (or a caller's own name for adjusted styles).
	Name string
	// Markdown is the glamour style for completed markdown blocks.
	Markdown ansi.StyleConfig
	// MarkdownPlain is Markdown without syntax highlighting, used for the
	// streaming tail.
	MarkdownPlain ansi.StyleConfig

	// GutterFocused draws the focus mark in the two-column gutter of the
	// focused block (other blocks keep a blank gutter).
	GutterFocused lipgloss.Style

	// User styles user messages: Label is the "› You" line, Text the body.
	User struct {
		Label, Text lipgloss.Style
	}
	// Thinking styles thinking blocks: the one-line Label, the Text of the
	// tail and full views, and the Redacted note.
	Thinking struct {
		Label, Text, Redacted lipgloss.Style
	}
	// Tool styles tool calls: the status icons (Running, Pending, OK,
	// Failed, Cancelled), the pill (Name, Summary, Duration) and the
	// details (Section headings, Body text, exit codes, cancel Reason,
	// resource Link).
	Tool struct {
		Running, Pending, OK, Failed, Cancelled lipgloss.Style
		Name, Summary, Duration, Section, Body  lipgloss.Style
		ExitOK, ExitFailed, Reason, Link        lipgloss.Style
	}
	// Diff styles unified diffs of file edits.
	Diff struct {
		File, Hunk, Add, Del, Context lipgloss.Style
	}
	// Confirm styles confirmation prompts: title, risk levels and the
	// approve and deny choices.
	Confirm struct {
		Title, Risk, RiskLow, RiskHigh, Approve, Deny lipgloss.Style
	}
	// Error styles error blocks: the Label line, the error Text and the
	// resumable Hint.
	Error struct {
		Label, Text, Hint lipgloss.Style
	}
	// Input styles input requests: the Label line, questions, answers and
	// the Missing-answer note.
	Input struct {
		Label, Question, Answer, Missing lipgloss.Style
	}
	// Code styles code lines drawn outside glamour: the open fence of a
	// streaming answer and plain tool output.
	Code lipgloss.Style
	// Notice is a system notification; Usage the token usage line; Muted
	// any secondary text.
	Notice, Usage, Muted lipgloss.Style
}

// DarkStyles returns the styles for a dark terminal background.
func DarkStyles() Styles {
	return buildStyles("dark", darkPalette(), styles.DarkStyleConfig, chromaDark)
}

// LightStyles returns the styles for a light terminal background.
func LightStyles() Styles {
	return buildStyles("light", lightPalette(), styles.LightStyleConfig, chromaLight)
}

// StylesFor picks [DarkStyles] or [LightStyles]; the TUI passes
// tea.BackgroundColorMsg.IsDark().
func StylesFor(isDark bool) Styles {
	if isDark {
		return DarkStyles()
	}
	return LightStyles()
}

func buildStyles(name string, p palette, md ansi.StyleConfig, chromaTheme string) Styles {
	s := Styles{Name: name}
	s.Markdown = markdownConfig(md)
	s.Markdown.CodeBlock.Chroma = nil // see chroma.go: our own registered theme
	s.Markdown.CodeBlock.Theme = chromaTheme
	s.MarkdownPlain = s.Markdown
	s.MarkdownPlain.CodeBlock.Chroma = nil
	s.MarkdownPlain.CodeBlock.Theme = ""

	base := lipgloss.NewStyle()
	fg := func(c color.Color) lipgloss.Style { return base.Foreground(c) }

	s.GutterFocused = fg(p.focus).Bold(true)

	s.User.Label = fg(p.user).Bold(true)
	s.User.Text = fg(p.text)

	s.Thinking.Label = fg(p.muted).Italic(true)
	s.Thinking.Text = fg(p.muted).Italic(true)
	s.Thinking.Redacted = fg(p.faint).Italic(true)

	s.Tool.Running = fg(p.info).Bold(true)
	s.Tool.Pending = fg(p.warn).Bold(true)
	s.Tool.OK = fg(p.ok).Bold(true)
	s.Tool.Failed = fg(p.err).Bold(true)
	s.Tool.Cancelled = fg(p.faint).Bold(true)
	s.Tool.Name = fg(p.accent).Bold(true)
	s.Tool.Summary = fg(p.text)
	s.Tool.Duration = fg(p.faint)
	s.Tool.Section = fg(p.muted).Bold(true)
	s.Tool.Body = fg(p.text)
	s.Tool.ExitOK = fg(p.ok)
	s.Tool.ExitFailed = fg(p.err).Bold(true)
	s.Tool.Reason = fg(p.warn)
	s.Tool.Link = fg(p.link).Underline(true)

	s.Diff.File = fg(p.text).Bold(true)
	s.Diff.Hunk = fg(p.hunk)
	s.Diff.Add = fg(p.add)
	s.Diff.Del = fg(p.del)
	s.Diff.Context = fg(p.muted)

	s.Confirm.Title = fg(p.warn).Bold(true)
	s.Confirm.Risk = fg(p.muted)
	s.Confirm.RiskLow = fg(p.ok)
	s.Confirm.RiskHigh = fg(p.err).Bold(true)
	s.Confirm.Approve = fg(p.ok)
	s.Confirm.Deny = fg(p.err)

	s.Error.Label = fg(p.err).Bold(true)
	s.Error.Text = fg(p.err)
	s.Error.Hint = fg(p.muted).Italic(true)

	s.Input.Label = fg(p.warn).Bold(true)
	s.Input.Question = fg(p.text).Bold(true)
	s.Input.Answer = fg(p.ok)
	s.Input.Missing = fg(p.faint).Italic(true)

	s.Code = fg(p.text)
	s.Notice = fg(p.info).Italic(true)
	s.Usage = fg(p.faint)
	s.Muted = fg(p.muted)
	return s
}

// markdownConfig adapts a glamour style to a transcript: no blank lines
// around the document, a two-column margin matching the gutter of the other
// blocks, and body text in the terminal's default foreground. The last point
// respects the user's terminal theme and is also the largest speed-up
// available: with a document colour glamour wraps every padding cell in its
// own SGR sequence, and rendering a paragraph costs ~3× more (measured,
// docs/bench/render.md).
func markdownConfig(md ansi.StyleConfig) ansi.StyleConfig {
	margin := uint(2)
	md.Document.BlockPrefix = ""
	md.Document.BlockSuffix = ""
	md.Document.Margin = &margin
	md.Document.Color = nil
	return md
}
