package render

import (
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/reducer"
)

// MinWidth is the narrowest width the package renders for; smaller widths
// are treated as MinWidth.
const MinWidth = 20

// msgEntry caches the rendering of a finished message.
type msgEntry struct {
	msg   *reducer.Message
	rev   uint64
	width int
	style string
	fp    string
	out   Rendered
	bytes int // linesBytes of out's laid-out lines
}

// blockEntry caches the rendering of a block in a state that no longer
// depends on Now.
type blockEntry struct {
	blk   *reducer.Block
	width int
	style string
	fp    string
	lines []string
}

// maxMsgCache bounds the finished-message and block caches (entries).
const maxMsgCache = 1 << 14

// maxMsgBytes bounds the laid-out lines the finished-message cache holds
// (pages of long texts are in the page cache instead).
const maxMsgBytes = 32 << 20

// RenderMessage renders message m at width with the view choices v. A
// finished message is cached as a whole (by pointer, Rev, width, style and
// the parts of v that concern it), so asking again is cheap; a streaming
// message re-renders only what changed. Every line is at most width columns
// wide and starts with a two-column gutter, marked on the focused block.
func (r *Renderer) RenderMessage(m *reducer.Message, width int, v ViewOpts) Rendered {
	if m == nil {
		return Rendered{}
	}
	width = max(width, MinWidth)
	r.mu.Lock()
	defer r.mu.Unlock()
	var fp string
	if !m.Open() {
		fp = viewFingerprint(m, v, r.md.seed)
		if e := r.msgs[m.ID]; e != nil && e.msg == m && e.rev == m.Rev && e.width == width && e.style == r.styles.Name && e.fp == fp {
			return e.out
		}
	}
	out := r.renderMessage(m, width, v)
	if !m.Open() {
		if len(r.msgs) >= maxMsgCache {
			r.msgs, r.msgBytes = make(map[string]*msgEntry), 0
		}
		e := &msgEntry{msg: m, rev: m.Rev, width: width, style: r.styles.Name, fp: fp, out: out, bytes: renderedBytes(out)}
		if old := r.msgs[m.ID]; old != nil {
			r.msgBytes -= old.bytes
		}
		r.msgs[m.ID] = e
		r.msgBytes += e.bytes
		r.trimMsgs(m.ID)
	}
	return out
}

// trimMsgs evicts finished messages other than keep (in map order, i.e.
// at random) until the cache is within maxMsgBytes.
func (r *Renderer) trimMsgs(keep string) {
	if r.msgBytes <= maxMsgBytes {
		return
	}
	for id, e := range r.msgs {
		if r.msgBytes <= maxMsgBytes*3/4 {
			return
		}
		if id != keep {
			delete(r.msgs, id)
			r.msgBytes -= e.bytes
		}
	}
}

// renderedBytes is the memory of a rendered message's laid-out lines.
func renderedBytes(out Rendered) int {
	n := linesBytes(out.Lines)
	for _, s := range out.Sections {
		n += linesBytes(s.Lines)
	}
	return n
}

// RenderBlock renders one block of message m (without focus marking or
// message header and footer).
func (r *Renderer) RenderBlock(m *reducer.Message, b *reducer.Block, width int, v ViewOpts) []string {
	if m == nil || b == nil {
		return nil
	}
	width = max(width, MinWidth)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.block(m, b, width, v)
}

func (r *Renderer) renderMessage(m *reducer.Message, width int, v ViewOpts) Rendered {
	var b msgBuilder
	add := func(ls []string) {
		if len(ls) == 0 {
			return
		}
		b.sep()
		b.lines(ls)
	}
	if m.Role == reducer.RoleUser {
		if emptyUser(m) {
			return Rendered{} // a turn no one asked for (a host's note): no "› You" over nothing
		}
		add(r.userHeader(m, width))
	}
	var run refRun
	for _, blk := range m.Blocks.All() {
		k := KeyOf(m, blk)
		at := run.next(blk, v)
		if blk.Kind != reducer.KindSystemNotification && (blk.Kind != reducer.KindText || m.Role == reducer.RoleUser) {
			// Not (or no longer: a replaced message) a markdown text: its
			// state, which holds the text, goes.
			delete(r.md.states, mdID(k))
		}
		focused := v.Focused.MessageID != "" && v.Focused == k
		var secs []Section
		refSec, isRef := r.refSection(m, blk, at, width, v, focused)
		switch {
		case isRef:
			secs = []Section{refSec} // a page of a long reply (mdref.go)
		case blk.Kind == reducer.KindText && m.Role != reducer.RoleUser:
			secs = r.textSections(mdID(k), blk.Text(), !blk.Open, width, focused)
		case !v.Expanded[k] && UserFoldable(m, blk):
			secs = []Section{{Lines: r.userFolded(blk.Text(), width)}} // a big paste (userfold.go)
		case blk.Kind == reducer.KindText && len(blk.Text()) > PlainAfter:
			secs = r.userSections(blk.Text(), width, focused)
		default:
			secs = []Section{{Lines: r.block(m, blk, width, v)}}
		}
		if len(secs) == 0 || len(secs) == 1 && secs[0].Page == nil && len(secs[0].Lines) == 0 {
			continue
		}
		b.sep()
		if isRef {
			b.cut() // a section of its own (mdref.go)
		}
		sSec, sLine := b.pos()
		for _, s := range secs {
			switch {
			case s.Page != nil:
				b.page(s.Page)
			case focused:
				b.lines(r.markFocus(s.Lines))
			default:
				b.lines(s.Lines)
			}
		}
		if isRef {
			b.cut()
		}
		eSec, eLine := b.pos()
		b.spans = append(b.spans, Span{Key: k, Kind: blk.Kind, Start: sLine, End: eLine, StartSec: sSec, EndSec: eSec})
	}
	if m.Role == reducer.RoleUser && len(m.Attachments) > 0 {
		b.lines(r.attachments(m, width))
	}
	if m.Role == reducer.RoleAssistant {
		add(r.noteLines(m, width, v)) // notes.go
		add(r.footer(m, width, v))
	}
	return b.done()
}

// emptyUser reports a user message with nothing to show: no text, no
// attachments (a host's own turn, such as the note that replaces a chat
// the state budget dropped).
func emptyUser(m *reducer.Message) bool {
	if len(m.Attachments) > 0 {
		return false
	}
	for _, b := range m.Blocks.All() {
		if b.Kind != reducer.KindText || b.TextLen() > 0 {
			return false
		}
	}
	return true
}

// msgBuilder assembles a message's lines and sections.
type msgBuilder struct {
	secs  []Section // closed sections (only once a page came)
	cur   []string  // the open run of lines
	any   bool      // anything was added
	spans []Span
}

// sep adds the blank line between two parts when something precedes.
func (b *msgBuilder) sep() {
	if b.any {
		b.cur = append(b.cur, "")
	}
}

func (b *msgBuilder) lines(ls []string) {
	if len(ls) > 0 {
		b.cur = append(b.cur, ls...)
		b.any = true
	}
}

func (b *msgBuilder) page(p *Page) {
	b.cut()
	b.secs = append(b.secs, Section{Page: p})
	b.any = true
}

// cut closes the open run of lines as a section.
func (b *msgBuilder) cut() {
	if len(b.cur) > 0 {
		b.secs = append(b.secs, Section{Lines: b.cur})
		b.cur = nil
	}
	if b.secs == nil {
		b.secs = []Section{} // sectioned from here on
	}
}

// pos is where the next line goes: its section and line in it.
func (b *msgBuilder) pos() (sec, line int) { return len(b.secs), len(b.cur) }

func (b *msgBuilder) done() Rendered {
	if b.secs == nil {
		return Rendered{Lines: b.cur, Spans: b.spans}
	}
	if len(b.cur) > 0 {
		b.secs = append(b.secs, Section{Lines: b.cur})
	}
	return Rendered{Sections: b.secs, Spans: b.spans}
}

// block renders one block, from the block cache when its rendering does
// not depend on Now.
func (r *Renderer) block(m *reducer.Message, b *reducer.Block, width int, v ViewOpts) []string {
	k := KeyOf(m, b)
	switch b.Kind {
	case reducer.KindText:
		if m.Role == reducer.RoleUser {
			break
		}
		return r.md.Lines(mdID(k), b.Text(), !b.Open, width)
	case reducer.KindUnknown:
		return nil
	}
	live := isLive(m, b)
	fp := r.blockFingerprint(k, b, v)
	if !live {
		if e := r.blocks[k]; e != nil && e.blk == b && e.width == width && e.style == r.styles.Name && e.fp == fp {
			return e.lines
		}
	}
	lines := r.drawBlock(m, b, k, width, v)
	if !live {
		if len(r.blocks) >= maxMsgCache {
			r.blocks = make(map[BlockKey]*blockEntry)
		}
		r.blocks[k] = &blockEntry{blk: b, width: width, style: r.styles.Name, fp: fp, lines: lines}
	}
	return lines
}

func (r *Renderer) drawBlock(m *reducer.Message, b *reducer.Block, k BlockKey, width int, v ViewOpts) []string {
	switch b.Kind {
	case reducer.KindText:
		return r.userText(b, width)
	case reducer.KindThinking:
		return r.thinking(m, b, k, width, v)
	case reducer.KindToolCall:
		return r.toolCall(m, b, k, width, v)
	case reducer.KindError:
		return r.errorBlock(b, width, v.Expanded[k])
	case reducer.KindInputRequest:
		return r.inputRequest(b, width)
	case reducer.KindSystemNotification:
		return r.notification(b, k, width)
	case reducer.KindContentRef:
		return r.contentRef(b, width, v)
	}
	return nil
}

// isLive reports whether a block's rendering depends on ViewOpts.Now.
func isLive(m *reducer.Message, b *reducer.Block) bool {
	switch b.Kind {
	case reducer.KindThinking:
		return thinkingLive(m, b)
	case reducer.KindToolCall:
		return b.Tool != nil && b.Open && !b.Tool.IsTerminal()
	}
	return false
}

// blockFingerprint describes the view choices that affect block b.
func (r *Renderer) blockFingerprint(k BlockKey, b *reducer.Block, v ViewOpts) string {
	var sb strings.Builder
	if v.Expanded[k] {
		sb.WriteByte('e')
	}
	if b.Kind == reducer.KindToolCall && b.Tool != nil && b.Tool.WaitsForClient() {
		sb.WriteString(v.hintsFingerprint())
	}
	if b.Kind == reducer.KindToolCall {
		sb.WriteString(v.dirsFingerprint())
	}
	if b.Kind == reducer.KindThinking {
		v.writeThinking(&sb)
	}
	sb.WriteString(termFingerprint(b, v))
	v.writeResources(&sb, blockURIs(b), r.md.seed)
	return sb.String()
}

// mdID is the markdown engine's id of a text block.
func mdID(k BlockKey) string { return k.MessageID + "\x00" + strconv.Itoa(k.Index) }

// markFocus returns a copy of lines with the focus mark in the gutter.
func (r *Renderer) markFocus(lines []string) []string {
	mark := r.styles.GutterFocused.Render(strings.TrimRight(focusMark, " "))
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, gutter):
			out[i] = mark + " " + l[len(gutter):]
		case l == "":
			out[i] = mark
		default:
			out[i] = mark + " " + l
		}
	}
	return out
}

// thinkingLive reports whether the agent is still thinking in b. AHP has no
// end-of-reasoning action, so the reducer keeps a reasoning block open until
// the turn ends; the agent has moved on as soon as a later block exists.
func thinkingLive(m *reducer.Message, b *reducer.Block) bool {
	return b.Open && m.Open() && m.Blocks.Len() > 0 && m.Blocks.At(m.Blocks.Len()-1) == b
}

// startHint is when block b started, if the message says so: the first
// block of a message starts with the turn (m.StartedAt). It lets a block
// first seen mid-way (after a reconnect or a snapshot) count from the
// turn's start rather than from its first sighting.
func startHint(m *reducer.Message, b *reducer.Block) time.Time {
	if m.Blocks.Len() > 0 && m.Blocks.At(0) == b {
		return m.StartedAt
	}
	return time.Time{}
}
