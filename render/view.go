package render

import (
	"hash/maphash"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// ThinkingMode selects how thinking blocks are shown.
type ThinkingMode uint8

const (
	// ThinkingCollapsed shows one line: "Thinking… 3s" while the block is
	// open, "Thought for 12s" once it closed.
	ThinkingCollapsed ThinkingMode = iota
	// ThinkingTail shows the collapsed line plus the last few lines of the
	// text while the block streams (collapsed once it closed).
	ThinkingTail
	// ThinkingFull shows all of the text.
	ThinkingFull
)

// DefaultTailLines is how many lines ThinkingTail shows when
// ViewOpts.TailLines is 0.
const DefaultTailLines = 3

// BlockKey identifies a block across renders: the message id and the
// block's index in it (stable, since blocks are only appended).
type BlockKey struct {
	MessageID string
	Index     int
}

// KeyOf returns the key of block b of message m.
func KeyOf(m *reducer.Message, b *reducer.Block) BlockKey {
	return BlockKey{MessageID: m.ID, Index: b.Index}
}

// ViewOpts are the view choices of one render. The zero value shows
// collapsed thinking, collapsed tool calls and no focus.
type ViewOpts struct {
	// Thinking selects the view of thinking blocks.
	Thinking ThinkingMode
	// TailLines is the number of lines ThinkingTail shows (0 = default).
	TailLines int
	// Expanded lists blocks shown in full: tool calls (input, content,
	// reasons), thinking blocks (full text whatever Thinking says) and
	// errors (stack trace).
	Expanded map[BlockKey]bool
	// Focused is the focused block; its gutter is marked. A zero key
	// (empty MessageID) means none.
	Focused BlockKey
	// Now is the time elapsed durations of open blocks are measured
	// against. The package never reads a clock.
	Now time.Time
	// Resources holds fetched content by URI (ContentRef targets: tool
	// inputs and the before/after contents of file edits). Missing
	// entries are shown as not loaded; see [NeededResources].
	Resources map[string]string
	// Hints are the key hints drawn under confirmations and result
	// reviews; empty lists mean [DefaultPromptHints].
	Hints PromptHints
	// Terminals holds the live views of subscribed ahp-terminal: channels
	// by URI; tool calls whose terminal is here show its output live
	// (collapsed to the last lines, a scrollable window when expanded).
	Terminals map[string]*LiveTerminal
	// TermScroll is how many lines an expanded terminal is scrolled up
	// from its end, by terminal URI.
	TermScroll map[string]int
	// DiffLimit caps the diff lines of a file edit (0: a short preview;
	// < 0: the whole diff, as the changes view shows it).
	DiffLimit int
	// Loading describes content references being fetched (size and
	// progress, or why they failed), by URI; shown instead of "not loaded".
	Loading map[string]string
	// WorkDirs are the session's working directories (file: URIs): a
	// file edit under one is named by its path relative to it.
	WorkDirs []string
	// Notes are the session's review comments by the turn they are
	// anchored to, drawn under that turn's reply (notes.go).
	Notes map[string][]ahpwire.Annotation
}

// dirsFingerprint is what WorkDirs adds to a cache key: the file edits'
// headers name their files relative to them.
func (v ViewOpts) dirsFingerprint() string {
	if len(v.WorkDirs) == 0 {
		return ""
	}
	return ",d" + strings.Join(v.WorkDirs, "\x00")
}

func (v ViewOpts) tailLines() int {
	if v.TailLines > 0 {
		return v.TailLines
	}
	return DefaultTailLines
}

// Span locates one block in Rendered.Lines: lines [Start, End). In a
// message rendered as Sections, the block starts at line Start of section
// StartSec and ends before line End of section EndSec.
type Span struct {
	Key              BlockKey
	Kind             reducer.BlockKind
	Start, End       int
	StartSec, EndSec int
}

// Rendered is a rendered message. Lines, Sections and Spans may be shared
// with the Renderer's caches: treat them as read-only.
type Rendered struct {
	// Lines are the message's terminal lines, none wider than the width,
	// when Sections is nil.
	Lines []string
	// Sections, when not nil, hold the message instead of Lines: a
	// message with a long text (past [PlainAfter]) keeps that text's
	// later part as pages laid out only when shown.
	Sections []Section
	// Spans locate the blocks in Lines (or Sections), in order (blocks
	// that render nothing have no span).
	Spans []Span
}

// All returns every line of the message, laying out all pages (for tests
// and small messages: the lazy sections exist to avoid this).
func (r Rendered) All() []string {
	if r.Sections == nil {
		return r.Lines
	}
	var out []string
	for _, s := range r.Sections {
		if s.Page != nil {
			out = append(out, s.Page.Lines()...)
		} else {
			out = append(out, s.Lines...)
		}
	}
	return out
}

// String joins the lines with newlines.
func (r Rendered) String() string { return strings.Join(r.All(), "\n") }

// SpanOf returns the span of key and whether it was rendered.
func (r Rendered) SpanOf(k BlockKey) (Span, bool) {
	for _, s := range r.Spans {
		if s.Key == k {
			return s, true
		}
	}
	return Span{}, false
}

// viewFingerprint describes the parts of v that affect the rendering of
// message m (not Now), for the finished-message cache.
func viewFingerprint(m *reducer.Message, v ViewOpts, seed maphash.Seed) string {
	var b strings.Builder
	v.writeThinking(&b)
	b.WriteString(v.hintsFingerprint())
	b.WriteString(v.dirsFingerprint())
	b.WriteString(v.notesFingerprint(m))
	var idx []int
	for k, on := range v.Expanded {
		if on && k.MessageID == m.ID {
			idx = append(idx, k.Index)
		}
	}
	sort.Ints(idx)
	for _, i := range idx {
		b.WriteString(",e")
		b.WriteString(strconv.Itoa(i))
	}
	if v.Focused.MessageID == m.ID {
		b.WriteString(",f")
		b.WriteString(strconv.Itoa(v.Focused.Index))
	}
	for _, blk := range m.Blocks.All() {
		b.WriteString(termFingerprint(blk, v))
	}
	v.writeResources(&b, resourceURIs(m), seed)
	return b.String()
}

// The pieces of a cache key that the finished-message cache
// (viewFingerprint) and the block cache (Renderer.blockFingerprint) share,
// written once so that the two keys cannot drift apart.

// writeThinking adds how thinking blocks are shown.
func (v ViewOpts) writeThinking(b *strings.Builder) {
	b.WriteByte(byte('0' + v.Thinking))
	b.WriteString(strconv.Itoa(v.tailLines()))
}

// writeResources adds what the loader holds of uris: a loading state, or
// the fetched text's length and hash. Only fetched content can change
// under a URI; a data: URI carries its content and is covered by the
// block's revision.
func (v ViewOpts) writeResources(b *strings.Builder, uris []string, seed maphash.Seed) {
	for _, u := range uris {
		if s, ok := v.Loading[u]; ok {
			b.WriteString(",l")
			b.WriteString(s)
		}
		if s, ok := v.Resources[u]; ok {
			b.WriteString(",r")
			b.WriteString(strconv.Itoa(len(s)))
			b.WriteString(":")
			b.WriteString(strconv.FormatUint(hashString(seed, s), 36))
		}
	}
}
