package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// approvalPrompt asks the user to confirm a tool call (or its result).
// It never dispatches: decisions leave as toolDecisionMsg intents.
type approvalPrompt struct {
	km       keymap.Approval
	turnID   string
	tool     *reducer.ToolCall
	result   bool // pending-result-confirmation rather than pending-confirmation
	scroll   int
	reason   textinput.Model
	asking   bool // typing a denial reason
	bodyRows int
}

// toolDecisionMsg is the user's decision on a pending tool call.
type toolDecisionMsg struct {
	TurnID     string
	ToolCallID string
	Approved   bool
	Result     bool // a result confirmation
	Option     *reducer.ConfirmOption
	Reason     string
}

func newApprovalPrompt(km keymap.Approval, turnID string, tc *reducer.ToolCall) *approvalPrompt {
	ti := newTextInput()
	ti.Placeholder = "why? (optional)"
	ti.Prompt = "reason: "
	p := &approvalPrompt{km: km, turnID: turnID, tool: tc, result: tc.Status == reducer.ToolPendingResultConfirmation, reason: ti}
	p.setAsking(false)
	return p
}

// toolCallID identifies the prompt's tool call.
func (p *approvalPrompt) toolCallID() string { return p.tool.ID }

func (p *approvalPrompt) setAsking(on bool) {
	p.asking = on
	for _, b := range []*key.Binding{&p.km.Approve, &p.km.Deny, &p.km.DenyReason, &p.km.Option, &p.km.Up, &p.km.Down} {
		b.SetEnabled(!on)
	}
	p.km.SubmitReason.SetEnabled(on)
	if on {
		p.reason.Focus()
	} else {
		p.reason.Blur()
	}
}

func (p *approvalPrompt) decide(approved bool, opt *reducer.ConfirmOption, reason string) tea.Cmd {
	d := toolDecisionMsg{TurnID: p.turnID, ToolCallID: p.tool.ID, Approved: approved, Result: p.result, Option: opt, Reason: reason}
	return func() tea.Msg { return d }
}

// Update handles keys: a approve, d deny, r deny with a reason, 1-9 host
// options, esc decide later.
func (p *approvalPrompt) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if p.asking {
			var cmd tea.Cmd
			p.reason, cmd = p.reason.Update(msg)
			return p, cmd, resultNone
		}
		return p, nil, resultNone
	}
	switch {
	case p.asking && key.Matches(k, p.km.SubmitReason):
		return p, p.decide(false, p.denyOption(), strings.TrimSpace(p.reason.Value())), resultClose
	case p.asking && key.Matches(k, p.km.Later):
		p.setAsking(false)
		return p, nil, resultNone
	case p.asking:
		var cmd tea.Cmd
		p.reason, cmd = p.reason.Update(msg)
		return p, cmd, resultNone
	case key.Matches(k, p.km.Approve):
		return p, p.decide(true, p.firstOption("approve"), ""), resultClose
	case key.Matches(k, p.km.Deny):
		return p, p.decide(false, p.denyOption(), ""), resultClose
	case key.Matches(k, p.km.DenyReason):
		p.setAsking(true)
		return p, p.reason.Focus(), resultNone
	case key.Matches(k, p.km.Option):
		n := int(k.Code - '1')
		if !p.result && n >= 0 && n < len(p.tool.Options) {
			o := p.tool.Options[n]
			return p, p.decide(o.Kind != "deny", &o, ""), resultClose
		}
	case key.Matches(k, p.km.Up):
		p.scroll = max(0, p.scroll-1)
	case key.Matches(k, p.km.Down):
		p.scroll++
	case key.Matches(k, p.km.Later):
		return p, nil, resultClose
	}
	return p, nil, resultNone
}

func (p *approvalPrompt) firstOption(kind string) *reducer.ConfirmOption {
	if p.result {
		return nil
	}
	for i := range p.tool.Options {
		if p.tool.Options[i].Kind == kind {
			o := p.tool.Options[i]
			return &o
		}
	}
	return nil
}

func (p *approvalPrompt) denyOption() *reducer.ConfirmOption { return p.firstOption("deny") }

// View draws the prompt as a bordered box.
func (p *approvalPrompt) View(st *Styles, width, height int) string {
	inner := max(20, min(width, 110)-4)
	tc := p.tool
	name := render.Sanitize(firstNonEmpty(tc.DisplayName, tc.ToolName, "tool"))
	var head []string
	switch {
	case p.result:
		head = append(head, st.Dialog.Title.Render("Review the result of "+name+"?"))
	case tc.ConfirmationTitle != nil && tc.ConfirmationTitle.Text != "":
		head = append(head, st.Dialog.Title.Render(render.Sanitize(tc.ConfirmationTitle.Text)))
	default:
		head = append(head, st.Dialog.Title.Render("Allow "+name+"?"))
	}
	if tc.InvocationMessage != nil && tc.InvocationMessage.Text != "" {
		head = append(head, st.Dialog.Text.Render(render.Sanitize(tc.InvocationMessage.Text)))
	}
	if tc.Intention != "" {
		head = append(head, st.Dialog.Muted.Render("intention: "+render.Sanitize(tc.Intention)))
	}
	if r := riskLine(st, tc.Risk); r != "" {
		head = append(head, r)
	}

	var body []string
	if tc.Input != nil {
		body = append(body, st.Dialog.Label.Render("input"))
		if tc.Input.Ref != nil {
			body = append(body, st.Dialog.Muted.Render("(stored at "+render.Sanitize(tc.Input.Ref.URI)+")"))
		} else {
			body = append(body, wrapLines(prettyJSON(tc.Input.Text), inner)...)
		}
	}
	if len(tc.Edits) > 0 {
		body = append(body, st.Dialog.Label.Render("edits"))
		for _, e := range tc.Edits {
			body = append(body, fmt.Sprintf("  %s  %s", render.Sanitize(e.Path()), diffStat(e.Added, e.Removed)))
		}
	}
	if p.result {
		body = append(body, resultLines(st, tc, inner)...)
	}

	var foot []string
	if !p.result && len(tc.Options) > 0 {
		for i, o := range tc.Options {
			if i >= 9 {
				break
			}
			sty := st.Dialog.Option
			foot = append(foot, st.Dialog.Key.Render(fmt.Sprintf("%d", i+1))+" "+sty.Render(render.Sanitize(o.Label)))
		}
	}
	hints := []string{"a", "approve", "d", "deny", "r", "deny with reason", "esc", "later"}
	if len(body) > 0 {
		hints = append(hints, "↑/↓", "scroll")
	}
	foot = append(foot, keyHints(st, inner, hints...)...)
	if p.asking {
		foot = append(foot, p.reason.View()+"  "+st.Dialog.Muted.Render("(enter deny · esc back)"))
	}

	avail := max(1, height-2-len(head)-len(foot)-2)
	p.bodyRows = avail
	p.scroll = min(p.scroll, max(0, len(body)-avail))
	shown := body[p.scroll:min(len(body), p.scroll+avail)]
	lines := append(append(append([]string{}, head...), ""), shown...)
	if len(body) > len(shown) {
		lines = append(lines, st.Dialog.Muted.Render(fmt.Sprintf("… %d more lines (↑/↓)", len(body)-len(shown))))
	}
	lines = append(append(lines, ""), foot...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

func riskLine(st *Styles, r *reducer.Risk) string {
	if r == nil {
		return ""
	}
	if r.Status == "loading" {
		return st.Dialog.Muted.Render("risk: assessing…")
	}
	s := "risk: "
	sty := st.Dialog.Warn
	if r.Safety != nil {
		switch {
		case *r.Safety >= 0.8:
			s += "low"
			sty = st.Dialog.Muted
		case *r.Safety >= 0.4:
			s += "medium"
		default:
			s += "HIGH"
			sty = st.Dialog.Error
		}
		s += fmt.Sprintf(" (safety %.0f%%)", *r.Safety*100)
	} else {
		s += "assessed"
	}
	if r.Reason != nil && r.Reason.Text != "" {
		s += " — " + render.Sanitize(r.Reason.Text)
	}
	return sty.Render(s)
}

func resultLines(st *Styles, tc *reducer.ToolCall, width int) []string {
	var out []string
	if tc.Result != nil {
		status := "succeeded"
		if !tc.Result.Success {
			status = "failed: " + render.Sanitize(tc.Result.ErrorMessage)
		}
		out = append(out, st.Dialog.Label.Render("result ")+st.Dialog.Text.Render(status))
		if tc.Result.PastTenseMessage.Text != "" {
			out = append(out, render.Sanitize(tc.Result.PastTenseMessage.Text))
		}
	}
	for _, c := range tc.Content {
		switch {
		case c.Type == reducer.ContentText:
			out = append(out, wrapLines(c.Text, width)...)
		case c.Terminal != nil:
			out = append(out, wrapLines(c.Terminal.Output, width)...)
		case c.Edit != nil:
			out = append(out, "  "+render.Sanitize(c.Edit.Path())+"  "+diffStat(c.Edit.Added, c.Edit.Removed))
		case c.URI != "":
			out = append(out, "  "+render.Sanitize(c.URI))
		}
	}
	return out
}

func diffStat(added, removed int64) string {
	if added < 0 && removed < 0 {
		return ""
	}
	return fmt.Sprintf("+%d −%d", max(added, 0), max(removed, 0))
}

// prettyJSON indents JSON input; other text is returned as is.
func prettyJSON(s string) string {
	var buf bytes.Buffer
	if json.Valid([]byte(s)) && json.Indent(&buf, []byte(s), "", "  ") == nil {
		return buf.String()
	}
	return s
}

// wrapLines sanitises and hard-wraps text to width.
func wrapLines(s string, width int) []string {
	s = render.Sanitize(s)
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		out = append(out, strings.Split(ansi.Hardwrap(l, max(1, width), true), "\n")...)
	}
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
