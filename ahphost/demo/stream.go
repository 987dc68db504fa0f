package demo

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// scriptStream is "/demo stream N": N bytes of varied markdown streamed in
// small deltas at full speed, as a model streams a long answer. It sits
// after scriptUnknown so the scripts' iota block stays as it is.
const scriptStream = scriptUnknown + 1

// Stream delta bounds: a model streams a few tokens at a time.
const (
	// StreamMinDelta is the smallest delta of /demo stream (bytes).
	StreamMinDelta = 20
	// StreamMaxDelta is the largest delta of /demo stream (bytes).
	StreamMaxDelta = 60
)

// streamFooter is the mandatory last line of a /demo stream reply.
func streamFooter(n int) string { return fmt.Sprintf("-- end of stream %d bytes --", n) }

// minStream is the smallest /demo stream size (the footer must fit).
var minStream = len(streamFooter(99))

// parseStream reads "/demo stream N [D]": N bytes (suffixes as /demo big),
// in deltas of 20–60 bytes, or of exactly D bytes when D is given.
func parseStream(args []string) command {
	c := parseSizeArg(scriptStream, "stream", minStream, args)
	if len(args) > 1 && c.bad == "" {
		d, err := ParseSize(args[1])
		if err != nil || d < 1 || d > BigChunk {
			c.word, c.bad = args[1], fmt.Sprintf("delta size must be a byte count from 1 to %d", BigChunk)
		}
		c.delta = d
	}
	return c
}

// stream answers "/demo stream N": StreamReply(N) in 20–60-byte deltas (or
// the fixed size asked for), with no pause between them: the host writes
// them as fast as the client reads.
func (r *run) stream() error {
	if r.cmd.bad != "" {
		return r.answerOnly(badArgText("stream", r.cmd.word, r.cmd.bad))
	}
	text := StreamReply(r.cmd.n)
	id := r.partID("md")
	if err := r.emit(&ahpwire.ChatResponsePart{TurnID: r.t.TurnID, Part: ahpwire.MarkdownPart(id, "")}); err != nil {
		return err
	}
	for i, chunk := range StreamDeltas(text, r.cmd.delta, r.seed) {
		if i%1024 == 0 && r.ctx.Err() != nil {
			return r.ctx.Err()
		}
		r.outBytes += len(chunk)
		r.t.Emit(&ahpwire.ChatDelta{TurnID: r.t.TurnID, PartID: id, Content: chunk})
	}
	return r.complete()
}

// StreamDeltas cuts text into deltas of exactly size bytes (size > 0) or of
// 20–60 bytes chosen by seed (size 0), never inside a UTF-8 character.
func StreamDeltas(text string, size int, seed uint64) []string {
	out := make([]string, 0, len(text)/max(size, (StreamMinDelta+StreamMaxDelta)/2)+1)
	x := seed | 1
	for len(text) > 0 {
		n := size
		if n <= 0 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			n = StreamMinDelta + int(x%uint64(StreamMaxDelta-StreamMinDelta+1))
		}
		n = min(n, len(text))
		for n < len(text) && n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		if n == 0 { // a character longer than size: send it whole
			_, n = utf8.DecodeRuneInString(text)
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

// StreamReply returns the markdown of "/demo stream n": exactly n bytes of
// headings, paragraphs, lists, code fences, quotes and tables (with a few
// non-ASCII characters), whose last line (no trailing newline) is
// "-- end of stream n bytes --". Sizes below the footer return as much of
// the footer as fits.
func StreamReply(n int) string {
	if n <= 0 {
		return ""
	}
	footer := streamFooter(n)
	if n <= len(footer) {
		return footer[len(footer)-n:]
	}
	body := n - len(footer)
	var b strings.Builder
	b.Grow(n)
	for i := 0; ; i++ {
		block := streamBlock(i)
		if b.Len()+len(block) > body {
			break
		}
		b.WriteString(block)
	}
	for b.Len() < body { // fill to the exact size with a plain paragraph
		k := min(len(fillerRing), body-b.Len()-1)
		b.WriteString(fillerRing[:k])
		b.WriteByte('\n')
	}
	b.WriteString(footer)
	return b.String()
}

// streamBlock is the i-th markdown block of a /demo stream reply; the
// blocks cycle through the shapes a model's long answer has.
func streamBlock(i int) string {
	w := filler[i%len(filler)]
	switch i % 8 {
	case 0:
		return fmt.Sprintf("## Section %d — %s\n\n", i/8+1, w)
	case 1, 5:
		return fmt.Sprintf("This paragraph (%d) explains *why* %s, with `inline code`, **bold words** and a [link](https://example.com/%d). "+
			"It runs long enough to wrap over several lines at a normal terminal width, so the renderer has to re-flow it — "+
			"café, naïve, 日本語 — as each delta arrives.\n\n", i, w, i)
	case 2:
		return fmt.Sprintf("- first point about %s\n- second point, with `code` in it\n  - a nested item %d\n- third point\n\n", w, i)
	case 3:
		return fmt.Sprintf("```go\nfunc step%d(ctx context.Context) error {\n\t// %s\n\tfor i := 0; i < %d; i++ {\n\t\tif err := ctx.Err(); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n```\n\n", i, w, i)
	case 4:
		return fmt.Sprintf("> A quoted remark %d: %s.\n\n", i, w)
	case 6:
		return fmt.Sprintf("| step | what | bytes |\n|---|---|---|\n| %d | %s | %d |\n| %d | done | %d |\n\n", i, w, i*40, i+1, i*41)
	}
	return fmt.Sprintf("1. number one (%d)\n2. number two: %s\n3. number three\n\n", i, w)
}
