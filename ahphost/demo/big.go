package demo

import (
	"fmt"
	"strings"
)

// BigChunk is the largest chat/delta the /demo big script emits; a 3 MiB
// reply is one delta, a 32 MiB reply eight.
const BigChunk = 4 << 20

// minBig is the smallest /demo big size: the footer of the largest size
// that fits this bound. Smaller sizes cannot end with their own footer.
var minBig = len(bigFooter(99))

// bigFooter is the mandatory last line of a /demo big reply.
func bigFooter(n int) string { return fmt.Sprintf("-- end of %d bytes --", n) }

// BigReply returns the markdown of "/demo big n": exactly n bytes of ASCII
// whose last line (no trailing newline) is "-- end of n bytes --". It
// panics never; sizes below the footer's length return just as much of the
// footer as fits (parseCommand refuses them before this is called).
func BigReply(n int) string {
	if n <= 0 {
		return ""
	}
	footer := bigFooter(n)
	if n <= len(footer) {
		return footer[len(footer)-n:]
	}
	var b strings.Builder
	b.Grow(n)
	body := n - len(footer) // bytes before the footer, the last one a newline
	header := fmt.Sprintf("# /demo big %d\n\nA reply of exactly %d bytes, delivered in large deltas so the transport has to segment it.\n\n", n, n)
	if len(header) < body {
		b.WriteString(header)
	}
	const width = 80 // including the newline
	for line := 1; b.Len() < body; line++ {
		size := min(width, body-b.Len())
		if line%21 == 0 && size > 1 {
			size = 1 // a blank line ends each paragraph of 20 lines
		}
		writePadLine(&b, line, size)
	}
	b.WriteString(footer)
	return b.String()
}

// writePadLine writes a line of exactly size bytes (newline included): a
// seven-digit line counter and filler text.
func writePadLine(b *strings.Builder, line, size int) {
	if size > 1 {
		var num [8]byte
		n := line % 10000000
		for k := 6; k >= 0; k-- {
			num[k] = byte('0' + n%10)
			n /= 10
		}
		num[7] = ' '
		text := size - 1
		b.Write(num[:min(text, len(num))])
		text -= min(text, len(num))
		for off := (line * 53) % len(fillerRing); text > 0; off = 0 {
			k := min(text, len(fillerRing)-off)
			b.WriteString(fillerRing[off : off+k])
			text -= k
		}
	}
	b.WriteByte('\n')
}

// fillerRing is the filler text the lines cycle through.
var fillerRing = strings.Join(filler, " ") + " "

// filler is the text the /demo big lines are made of (ASCII only, nothing
// JSON has to escape besides the newline).
var filler = []string{
	"the quick brown fox jumps over the lazy dog",
	"segmenting splits one message into many frames",
	"every byte of this reply is counted exactly",
	"large deltas exercise the transport, not the renderer",
	"lorem ipsum dolor sit amet consectetur adipiscing",
}
