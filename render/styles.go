package render

import (
	"image/color"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
)

// Palette is every colour of the application: the only place in the code
// base that names colours (a test in the root package enforces it). The
// transcript styles below and the TUI's chrome (status bar, picker, dialogs,
// help) are both derived from it, so dark and light themes stay consistent.
type Palette struct {
	// Text is body text; Muted secondary text; Faint tertiary text.
	Text, Muted, Faint color.Color
	// Accent marks names and selections; User the user's messages; Link
	// links and resources.
	Accent, User, Link color.Color
	// OK, Warn, Err and Info are the status colours.
	OK, Warn, Err, Info color.Color
	// Add, Del and Hunk colour diffs; Focus the focused-block gutter.
	Add, Del, Hunk, Focus color.Color
	// Match highlights fuzzy-filter matches.
	Match color.Color
	// BarBg is the status bar background; Border the dialog border.
	BarBg, Border color.Color
	// OnWarn is text drawn on a Warn background (the "new output" marker).
	OnWarn color.Color
}

// DarkPalette returns the colours for a dark terminal background.
func DarkPalette() Palette {
	return Palette{
		Text: lipgloss.Color("#D0D0D0"), Muted: lipgloss.Color("#8A8A8A"), Faint: lipgloss.Color("#626262"),
		Accent: lipgloss.Color("#AF87FF"), User: lipgloss.Color("#5FAFFF"), Link: lipgloss.Color("#00AFAF"),
		OK: lipgloss.Color("#5FD75F"), Warn: lipgloss.Color("#FFAF00"), Err: lipgloss.Color("#FF5F5F"), Info: lipgloss.Color("#5FAFD7"),
		Add: lipgloss.Color("#5FD75F"), Del: lipgloss.Color("#FF5F5F"), Hunk: lipgloss.Color("#5FAFD7"), Focus: lipgloss.Color("#FFD75F"),
		Match: lipgloss.Color("#FFD75F"), BarBg: lipgloss.Color("#262626"), Border: lipgloss.Color("#5F5F87"),
		OnWarn: lipgloss.Color("#000000"),
	}
}

// LightPalette returns the colours for a light terminal background.
func LightPalette() Palette {
	return Palette{
		Text: lipgloss.Color("#262626"), Muted: lipgloss.Color("#6C6C6C"), Faint: lipgloss.Color("#9E9E9E"),
		Accent: lipgloss.Color("#8700D7"), User: lipgloss.Color("#005FD7"), Link: lipgloss.Color("#008787"),
		OK: lipgloss.Color("#008700"), Warn: lipgloss.Color("#AF5F00"), Err: lipgloss.Color("#D70000"), Info: lipgloss.Color("#005F87"),
		Add: lipgloss.Color("#008700"), Del: lipgloss.Color("#D70000"), Hunk: lipgloss.Color("#005F87"), Focus: lipgloss.Color("#AF8700"),
		Match: lipgloss.Color("#AF5F00"), BarBg: lipgloss.Color("#E4E4E4"), Border: lipgloss.Color("#8787AF"),
		OnWarn: lipgloss.Color("#000000"),
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
	// Palette is the colours the styles were built from; other packages
	// derive their own styles from it instead of naming colours.
	Palette Palette
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
	// InlineCode styles code spans of inline markdown in one-line places
	// (tool pills, confirmation titles); it is drawn on the surrounding
	// style, whose unset attributes it inherits.
	InlineCode lipgloss.Style
	// Code styles code lines drawn outside glamour: the open fence of a
	// streaming answer and plain tool output.
	Code lipgloss.Style
	// Notice is a system notification; Usage the token usage line; Muted
	// any secondary text.
	Notice, Usage, Muted lipgloss.Style
	// Note styles review comments under a reply: the thread's Label
	// (place), its Open and Resolved state, an entry's Author and Text.
	Note struct {
		Label, Open, Resolved, Author, Text lipgloss.Style
	}
}

// DarkStyles returns the styles for a dark terminal background.
func DarkStyles() Styles {
	return buildStyles("dark", DarkPalette(), styles.DarkStyleConfig, chromaDark)
}

// LightStyles returns the styles for a light terminal background.
func LightStyles() Styles {
	return buildStyles("light", LightPalette(), styles.LightStyleConfig, chromaLight)
}

// StylesFor picks [DarkStyles] or [LightStyles]; the TUI passes
// tea.BackgroundColorMsg.IsDark().
func StylesFor(isDark bool) Styles {
	if isDark {
		return DarkStyles()
	}
	return LightStyles()
}

func buildStyles(name string, p Palette, md ansi.StyleConfig, chromaTheme string) Styles {
	s := Styles{Name: name, Palette: p}
	s.Markdown = markdownConfig(md)
	s.Markdown.CodeBlock.Chroma = nil // see chroma.go: our own registered theme
	s.Markdown.CodeBlock.Theme = chromaTheme
	s.MarkdownPlain = s.Markdown
	s.MarkdownPlain.CodeBlock.Chroma = nil
	s.MarkdownPlain.CodeBlock.Theme = ""

	base := lipgloss.NewStyle()
	fg := func(c color.Color) lipgloss.Style { return base.Foreground(c) }

	s.GutterFocused = fg(p.Focus).Bold(true)

	s.User.Label = fg(p.User).Bold(true)
	s.User.Text = fg(p.Text)

	s.Thinking.Label = fg(p.Muted).Italic(true)
	s.Thinking.Text = fg(p.Muted).Italic(true)
	s.Thinking.Redacted = fg(p.Faint).Italic(true)

	s.Tool.Running = fg(p.Info).Bold(true)
	s.Tool.Pending = fg(p.Warn).Bold(true)
	s.Tool.OK = fg(p.OK).Bold(true)
	s.Tool.Failed = fg(p.Err).Bold(true)
	s.Tool.Cancelled = fg(p.Faint).Bold(true)
	s.Tool.Name = fg(p.Accent).Bold(true)
	s.Tool.Summary = fg(p.Text)
	s.Tool.Duration = fg(p.Faint)
	s.Tool.Section = fg(p.Muted).Bold(true)
	s.Tool.Body = fg(p.Text)
	s.Tool.ExitOK = fg(p.OK)
	s.Tool.ExitFailed = fg(p.Err).Bold(true)
	s.Tool.Reason = fg(p.Warn)
	s.Tool.Link = fg(p.Link).Underline(true)

	s.Diff.File = fg(p.Text).Bold(true)
	s.Diff.Hunk = fg(p.Hunk)
	s.Diff.Add = fg(p.Add)
	s.Diff.Del = fg(p.Del)
	s.Diff.Context = fg(p.Muted)

	s.Confirm.Title = fg(p.Warn).Bold(true)
	s.Confirm.Risk = fg(p.Muted)
	s.Confirm.RiskLow = fg(p.OK)
	s.Confirm.RiskHigh = fg(p.Err).Bold(true)
	s.Confirm.Approve = fg(p.OK)
	s.Confirm.Deny = fg(p.Err)

	s.Error.Label = fg(p.Err).Bold(true)
	s.Error.Text = fg(p.Err)
	s.Error.Hint = fg(p.Muted).Italic(true)

	s.Input.Label = fg(p.Warn).Bold(true)
	s.Input.Question = fg(p.Text).Bold(true)
	s.Input.Answer = fg(p.OK)
	s.Input.Missing = fg(p.Faint).Italic(true)

	s.Code = fg(p.Text)
	s.InlineCode = fg(p.Text).Background(p.BarBg)
	s.Notice = fg(p.Info).Italic(true)
	s.Usage = fg(p.Faint)
	s.Muted = fg(p.Muted)

	s.Note.Label = fg(p.Accent).Bold(true)
	s.Note.Open = fg(p.Warn)
	s.Note.Resolved = fg(p.OK)
	s.Note.Author = fg(p.Muted).Bold(true)
	s.Note.Text = fg(p.Text)
	return s
}

// markdownConfig adapts a glamour style to a transcript: no blank lines
// around the document, a two-column margin matching the gutter of the other
// blocks, and body text in the terminal's default foreground. The last point
// respects the user's terminal theme and is also the largest speed-up
// available: with a document colour glamour wraps every padding cell in its
// own SGR sequence, and rendering a paragraph costs ~3× more (measured,
// docs/benchmarks/rounds-2026-11.md (render section)).
func markdownConfig(md ansi.StyleConfig) ansi.StyleConfig {
	margin := uint(2)
	md.Document.BlockPrefix = ""
	md.Document.BlockSuffix = ""
	md.Document.Margin = &margin
	md.Document.Color = nil
	return md
}
