package render

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// Terminal view sizes: a collapsed terminal shows its last
// TermCollapsedLines lines, an expanded one a window of TermExpandedLines
// lines that scrolls (ViewOpts.TermScroll).
const (
	// TerminalOutputCapMiB is ahpstate.MaxTerminalOutputBytes in MiB,
	// named by the viewer when a terminal's oldest output was dropped.
	TerminalOutputCapMiB = 4
	TermCollapsedLines   = 6
	TermExpandedLines    = 20
)

// termOf returns the live terminal of a tool call's first terminal content
// and that content, or nil.
func termOf(tc *ahpwire.ToolCallState, v ViewOpts) (*LiveTerminal, *ahpwire.ToolResultContent) {
	if tc == nil || len(v.Terminals) == 0 {
		return nil, nil
	}
	for i := range tc.Content {
		c := &tc.Content[i]
		if c.Type == ahpwire.ContentTerminal {
			if lt := v.Terminals[c.Resource]; lt != nil {
				return lt, c
			}
		}
	}
	return nil, nil
}

// TerminalRefs lists the ahp-terminal: channels the tool calls of m refer
// to, with whether each is a pty (the TUI subscribes to those of visible
// messages).
func TerminalRefs(m *reducer.Message) map[string]bool {
	if m == nil {
		return nil
	}
	var out map[string]bool
	for _, b := range m.Blocks.All() {
		if b.Kind != reducer.KindToolCall || b.Tool == nil {
			continue
		}
		for _, c := range b.Tool.Content {
			if c.Type == ahpwire.ContentTerminal && strings.HasPrefix(c.Resource, ahpwire.TerminalScheme) {
				if out == nil {
					out = map[string]bool{}
				}
				out[c.Resource] = c.IsPty == nil || *c.IsPty // unknown: a pty
			}
		}
	}
	return out
}

// termFingerprint describes the live terminals a block shows (revision,
// scroll) for the render caches.
func termFingerprint(b *reducer.Block, v ViewOpts) string {
	if b.Kind != reducer.KindToolCall || b.Tool == nil || len(v.Terminals) == 0 {
		return ""
	}
	var sb strings.Builder
	for _, c := range b.Tool.Content {
		if c.Type != ahpwire.ContentTerminal {
			continue
		}
		if lt := v.Terminals[c.Resource]; lt != nil {
			sb.WriteString(",t")
			sb.WriteString(strconv.FormatUint(lt.Rev(), 36))
			sb.WriteString(":")
			sb.WriteString(strconv.Itoa(v.TermScroll[c.Resource]))
		}
	}
	return sb.String()
}

// liveTerminal renders a subscribed terminal: its status line, its
// detected commands with their own status, and its output — the last
// TermCollapsedLines lines, or when expanded a TermExpandedLines window
// scrolled up by v.TermScroll lines from the end.
func (r *Renderer) liveTerminal(lt *LiveTerminal, t *ahpwire.ToolResultContent, expanded bool, width int, v ViewOpts) []string {
	st := r.styles.Tool
	state := lt.State()
	title := oneLine(state.Title)
	if title == "" {
		title = oneLine(t.Title)
	}
	if title == "" {
		title = "Terminal"
	}
	head := detailIndent + st.Section.Render(truncatePlain("$ "+title, max(width-len(detailIndent)-16, 8)))
	exit := state.ExitCode
	if exit == nil && t.Result != nil && t.Result.ExitCode != nil {
		x := int64(*t.Result.ExitCode)
		exit = &x
	}
	switch {
	case exit == nil:
		head += "  " + st.Running.Render("● running")
	case *exit == 0:
		head += "  " + st.ExitOK.Render("exit 0")
	default:
		head += "  " + st.ExitFailed.Render("exit "+strconv.FormatInt(*exit, 10))
	}
	if d, ok := commandsDuration(state); ok && exit != nil {
		head += "  " + st.Duration.Render(fmtDuration(d))
	}
	out := []string{head}
	if state.SupportsCommandDetection != nil && *state.SupportsCommandDetection {
		out = append(out, r.terminalCommands(state, width)...)
	}
	if state.OutputDropped() {
		out = append(out, detailIndent+"  "+r.styles.Muted.Render(truncatePlain("… earlier output dropped (more than "+
			strconv.Itoa(TerminalOutputCapMiB)+" MiB)", max(width-len(detailIndent)-2, 8))))
	}
	inner := max(width-len(detailIndent)-2, 1)
	total := lt.LineCount()
	n := TermCollapsedLines
	scroll := 0
	if expanded {
		n = TermExpandedLines
		scroll = max(0, min(v.TermScroll[t.Resource], total-n))
	}
	end := total - scroll
	start := max(0, end-n)
	if start > 0 {
		out = append(out, r.omitted(start, "earlier", width))
	}
	for _, l := range lt.Lines(start, end-start, inner, true) {
		out = append(out, detailIndent+"  "+l)
	}
	if scroll > 0 {
		out = append(out, r.omitted(scroll, "later", width))
	}
	return out
}

// commandsDuration sums the durations of completed detected commands.
func commandsDuration(st ahpwire.TerminalState) (time.Duration, bool) {
	var ms int64
	seen := false
	for _, p := range st.Content {
		if p.Type == ahpwire.TerminalPartCommand && p.DurationMs != nil {
			ms += *p.DurationMs
			seen = true
		}
	}
	return time.Duration(ms) * time.Millisecond, seen
}

// terminalCommands lists each detected command with its own status.
func (r *Renderer) terminalCommands(st ahpwire.TerminalState, width int) []string {
	ts := r.styles.Tool
	var out []string
	for _, p := range st.Content {
		if p.Type != ahpwire.TerminalPartCommand {
			continue
		}
		icon, style, tail := "●", ts.Running, "running"
		if p.IsComplete {
			switch {
			case p.ExitCode == nil:
				icon, style, tail = "✓", ts.ExitOK, "done"
			case *p.ExitCode == 0:
				icon, style, tail = "✓", ts.ExitOK, "exit 0"
			default:
				icon, style, tail = "✗", ts.ExitFailed, fmt.Sprintf("exit %d", *p.ExitCode)
			}
			if p.DurationMs != nil {
				tail += " · " + fmtDuration(time.Duration(*p.DurationMs)*time.Millisecond)
			}
		}
		line := truncatePlain(oneLine(p.CommandLine), max(width-len(detailIndent)-len(tail)-6, 4))
		out = append(out, detailIndent+"  "+style.Render(icon)+" "+line+"  "+r.styles.Muted.Render(tail))
	}
	return out
}
