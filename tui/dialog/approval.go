package dialog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Approval asks the user to confirm a tool call (or its result).
// It never dispatches: decisions leave as ToolDecisionMsg intents. Its body
// is the tool call as the transcript renders it (render.RenderBlock): title,
// invocation, risk, input, coloured diffs of proposed edits, options, or the
// result under review, so the prompt and the transcript never disagree.
type Approval struct {
	km       keymap.Approval
	turnID   string
	tool     *ahpwire.ToolCallState
	result   bool // pending-result-confirmation rather than pending-confirmation
	scroll   int
	reason   textinput.Model
	asking   bool // typing a denial reason
	bodyRows int

	// live returns the tool call's current block rendering at a width and
	// the current tool call (nil when it is gone); nil in tests that build
	// a bare prompt, which then draw a plain summary.
	live func(width int) ([]string, *ahpwire.ToolCallState)
	// guardUntil holds the decision keys back while the user was typing
	// when the prompt opened (see guardPrompt); now is the clock.
	guardUntil time.Time
	now        func() time.Time
	cache      struct {
		tool  *ahpwire.ToolCallState
		width int
		raw   []string // the rendering out was made from
		lines []string
	}
}

// ToolDecisionMsg is the user's decision on a pending tool call.
type ToolDecisionMsg struct {
	TurnID     string
	ToolCallID string
	Approved   bool
	Result     bool // a result confirmation
	Option     *ahpwire.ConfirmationOption
	Reason     string
}

// NewApproval asks to confirm tool call tc of turn turnID (or its result);
// SetLive gives it the transcript's rendering of the call.
func NewApproval(km keymap.Approval, turnID string, tc *ahpwire.ToolCallState, st *uikit.Styles) *Approval {
	ti := uikit.NewTextInput(st)
	ti.Placeholder = "why? (optional)"
	ti.Prompt = "reason: "
	p := &Approval{km: km, turnID: turnID, tool: tc, result: tc.Status == ahpwire.ToolPendingResultConfirmation, reason: ti}
	p.setAsking(false)
	return p
}

// PromptHints are the prompt's keys, from the keymap, for render to draw
// under the confirmation (as data: render does not import keymap).
func (p *Approval) PromptHints() render.PromptHints {
	h := func(b key.Binding, kind render.HintKind) render.KeyHint {
		return render.KeyHint{Keys: b.Help().Key, Action: b.Help().Desc, Kind: kind}
	}
	return render.PromptHints{
		Confirm: []render.KeyHint{h(p.km.Approve, render.HintApprove), h(p.km.Deny, render.HintDeny), h(p.km.DenyReason, render.HintOther)},
		Review: []render.KeyHint{{Keys: p.km.Approve.Help().Key, Action: "accept", Kind: render.HintApprove},
			{Keys: p.km.Deny.Help().Key, Action: "reject", Kind: render.HintDeny}},
	}
}

// Guard holds the decision keys back until until (the user was typing
// when the prompt opened); now is the clock.
func (p *Approval) Guard(until time.Time, now func() time.Time) {
	p.guardUntil, p.now = until, now
}

// Guarded reports whether decision keys are still held back.
func (p *Approval) Guarded() bool { return p.now != nil && p.now().Before(p.guardUntil) }

// SetLive gives the prompt the tool call's current rendering at a width
// and the current tool call (nil when it is gone).
func (p *Approval) SetLive(live func(width int) ([]string, *ahpwire.ToolCallState)) { p.live = live }

// Tool is the tool call the prompt decides.
func (p *Approval) Tool() *ahpwire.ToolCallState { return p.tool }

// Asking reports whether the user is typing a denial reason.
func (p *Approval) Asking() bool { return p.asking }

func (p *Approval) setAsking(on bool) {
	p.asking = on
	for _, b := range []*key.Binding{&p.km.Approve, &p.km.Deny, &p.km.DenyReason, &p.km.Option, &p.km.Up, &p.km.Down} {
		b.SetEnabled(!on)
	}
	if p.result {
		// A result review is accepted or rejected; the wire has no reason
		// or options for it.
		p.km.DenyReason.SetEnabled(false)
		p.km.Option.SetEnabled(false)
	}
	p.km.SubmitReason.SetEnabled(on)
	if on {
		p.reason.Focus()
	} else {
		p.reason.Blur()
	}
}

func (p *Approval) decide(approved bool, opt *ahpwire.ConfirmationOption, reason string) tea.Cmd {
	d := ToolDecisionMsg{TurnID: p.turnID, ToolCallID: p.tool.ToolCallID, Approved: approved, Result: p.result, Option: opt, Reason: reason}
	return func() tea.Msg { return d }
}

// Update handles keys: a approve, d deny, r deny with a reason, 1-9 host
// options, esc decide later.
func (p *Approval) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if p.asking {
			var cmd tea.Cmd
			p.reason, cmd = p.reason.Update(msg)
			return p, cmd, uikit.ResultNone
		}
		return p, nil, uikit.ResultNone
	}
	switch {
	case p.asking && key.Matches(k, p.km.SubmitReason):
		return p, p.decide(false, p.denyOption(), strings.TrimSpace(p.reason.Value())), uikit.ResultClose
	case p.asking && key.Matches(k, p.km.Later):
		p.setAsking(false)
		return p, nil, uikit.ResultNone
	case p.asking:
		var cmd tea.Cmd
		p.reason, cmd = p.reason.Update(msg)
		return p, cmd, uikit.ResultNone
	case p.Guarded() && key.Matches(k, p.km.Approve, p.km.Deny, p.km.DenyReason, p.km.Option):
		return p, nil, uikit.ResultNone // typed while the prompt appeared: not a decision
	case key.Matches(k, p.km.Approve):
		return p, p.decide(true, p.firstOption("approve"), ""), uikit.ResultClose
	case key.Matches(k, p.km.Deny):
		return p, p.decide(false, p.denyOption(), ""), uikit.ResultClose
	case key.Matches(k, p.km.DenyReason):
		p.setAsking(true)
		return p, p.reason.Focus(), uikit.ResultNone
	case key.Matches(k, p.km.Option):
		n := int(k.Code - '1')
		if !p.result && n >= 0 && n < len(p.tool.Options) {
			o := p.tool.Options[n]
			return p, p.decide(o.Kind != "deny", &o, ""), uikit.ResultClose
		}
	case key.Matches(k, p.km.Up):
		p.scroll = max(0, p.scroll-1)
	case key.Matches(k, p.km.Down):
		p.scroll++
	case key.Matches(k, p.km.Later):
		return p, nil, uikit.ResultClose
	}
	return p, nil, uikit.ResultNone
}

// firstOption is the host's option of kind that decides this call only
// (the agent's allow-once / reject-once, not "always"): what a and d send.
func (p *Approval) firstOption(kind string) *ahpwire.ConfirmationOption {
	if p.result {
		return nil
	}
	return ahpwire.OnceOption(p.tool.Options, kind)
}

func (p *Approval) denyOption() *ahpwire.ConfirmationOption { return p.firstOption("deny") }

// bodyLines is the rendered tool call at width (cached per tool call
// revision and width), without the transcript's two-column gutter.
func (p *Approval) bodyLines(st *uikit.Styles, width int) []string {
	if p.live == nil {
		return p.plainBody(st, width)
	}
	lines, tc := p.live(width + 2)
	if tc == nil {
		return p.cache.lines
	}
	if tc == p.cache.tool && width == p.cache.width && slices.Equal(lines, p.cache.raw) {
		return p.cache.lines // (the lines change without the call when a diff's contents arrive)
	}
	p.tool = tc
	out := make([]string, 0, len(lines)+1)
	for i, l := range lines {
		out = append(out, strings.TrimPrefix(l, "  "))
		if i == 0 && tc.Intention != "" && tc.Status == ahpwire.ToolPendingConfirmation {
			// render shows the intention with the details of other states.
			out = append(out, st.Dialog.Muted.Render(ansi.Truncate("  intention: "+render.Sanitize(tc.Intention), width, "…")))
		}
	}
	p.cache.tool, p.cache.width, p.cache.raw, p.cache.lines = tc, width, lines, out
	return out
}

// plainBody is the prompt body without a renderer (bare prompts in tests).
func (p *Approval) plainBody(st *uikit.Styles, width int) []string {
	tc := p.tool
	out := []string{st.Dialog.Title.Render(toolName(tc))}
	if tc.InvocationMessage != nil {
		out = append(out, wrapLines(render.RichPlain(*tc.InvocationMessage), width)...)
	}
	if tc.ToolInput != nil && tc.ToolInput.Ref == nil {
		out = append(out, wrapLines(prettyJSON(tc.ToolInput.Text), width)...)
	}
	return out
}

// View draws the prompt as a bordered box: a heading, the scrollable body
// and the key hints, which always stay on screen.
func (p *Approval) View(st *uikit.Styles, width, height int) string {
	inner := max(20, min(width, 110)-4)
	body := p.bodyLines(st, inner)
	heading := "Approval needed"
	if p.result {
		heading = "Result review"
	}
	if p.Guarded() {
		// The decision keys are held back: the heading says so and the
		// body (with its key hints) is drawn dimmed, visibly disabled.
		heading += " · keys paused"
		body = dimmed(st, body)
	}
	head := []string{st.Dialog.Title.Render(heading)}

	// The body ends with the approve/deny keys (drawn by render, as in the
	// transcript). While they are scrolled out of sight, the footer repeats
	// them, so the way out is always on screen.
	later := []string{"esc", "later (ctrl+p reopens)"}
	if !p.result && len(p.tool.Options) > 0 {
		later = append([]string{fmt.Sprintf("1-%d", min(len(p.tool.Options), 9)), "choose option"}, later...)
	}
	full := []string{"a/y", "approve", "d/n", "deny", "r", "deny with reason"}
	if p.result {
		full = []string{"a/y", "accept", "d/n", "reject"}
	}
	if p.live == nil {
		later = append(full, later...)
	}
	footFor := func(bodyHidden bool) []string {
		if p.Guarded() {
			return []string{st.Dialog.Warn.Render(fmt.Sprintf("you were typing: decision keys are off for %s", guardLeft(p.guardUntil, p.now())))}
		}
		if p.asking {
			// At width 0 the input shows one rune of its placeholder: size a copy.
			reason := p.reason
			reason.SetWidth(max(1, inner-ansi.StringWidth(reason.Prompt)-1))
			return []string{reason.View(), st.Dialog.Muted.Render("enter deny with this reason · esc back")}
		}
		if bodyHidden {
			return uikit.KeyHints(st, inner, append(append([]string{}, full...), later...)...)
		}
		return uikit.KeyHints(st, inner, later...)
	}
	foot := footFor(false)
	avail := max(1, height-2-len(head)-len(foot)-2)
	if len(body) > avail {
		foot = footFor(true)
		avail = max(1, height-2-len(head)-len(foot)-2)
	}
	p.bodyRows = avail
	p.scroll = min(p.scroll, max(0, len(body)-avail))
	end := min(len(body), p.scroll+avail)
	if end < len(body) && avail > 1 {
		end-- // room for the "more" line
	}
	shown := body[p.scroll:end]
	lines := append(append([]string{}, head...), shown...)
	if end < len(body) || p.scroll > 0 {
		lines = append(lines, st.Dialog.Muted.Render(fmt.Sprintf("  ↑/↓ scroll · lines %d–%d of %d", p.scroll+1, end, len(body))))
	}
	lines = append(append(lines, ""), foot...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

// dimmed draws lines in the muted dialog style, without their own colours:
// what is drawn this way cannot be acted on right now.
func dimmed(st *uikit.Styles, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = st.Dialog.Muted.Render(ansi.Strip(l))
	}
	return out
}

// guardLeft says how long a prompt guard still holds ("0.6s").
func guardLeft(until, now time.Time) string {
	return fmt.Sprintf("%.1fs", max(until.Sub(now), 100*time.Millisecond).Seconds())
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
