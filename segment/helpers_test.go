package segment

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// makeMessage returns a valid JSON-RPC notification of exactly size bytes
// (size ≥ minMessage) whose text payload is filled with fill.
func makeMessage(t testing.TB, size int, fill string) []byte {
	t.Helper()
	head := `{"jsonrpc":"2.0","method":"action","params":{"text":"`
	tail := `"}}`
	n := size - len(head) - len(tail)
	if n < 0 {
		t.Fatalf("makeMessage: size %d below minimum %d", size, len(head)+len(tail))
	}
	var b bytes.Buffer
	b.WriteString(head)
	body := strings.Repeat(fill, n/len(fill)+1)
	// Cut on a rune boundary and pad with ASCII to the exact size.
	cut := 0
	for _, r := range body {
		w := len(string(r))
		if cut+w > n {
			break
		}
		cut += w
	}
	b.WriteString(body[:cut])
	b.WriteString(strings.Repeat("x", n-cut))
	b.WriteString(tail)
	if b.Len() != size {
		t.Fatalf("makeMessage: got %d bytes, want %d", b.Len(), size)
	}
	return b.Bytes()
}

// minMessage is the smallest size makeMessage supports.
const minMessage = len(`{"jsonrpc":"2.0","method":"action","params":{"text":""}}`)

// fakeClock is an injectable clock.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)} }

// segFrame builds a segment frame by hand.
func segFrame(gid string, index, total int, data string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":%q,"index":%d,"total":%d,"data":%q}}`,
		gid, index, total, data))
}

// capFor returns a capability with the given frame limit and a large message limit.
func capFor(frame int64) *ChunkingCapability {
	c := DefaultCapability()
	c.MaxIncomingFrameBytes = frame
	if c.MaxIncomingMessageBytes < frame {
		c.MaxIncomingMessageBytes = frame
	}
	return &c
}

// feedAll feeds frames and returns the one completed message.
func feedAll(t testing.TB, r *Reassembler, frames [][]byte) []byte {
	t.Helper()
	var out []byte
	for i, f := range frames {
		msg, err := r.Feed(f)
		if err != nil {
			t.Fatalf("Feed frame %d/%d: %v", i, len(frames), err)
		}
		if msg != nil {
			if out != nil {
				t.Fatalf("Feed frame %d: second message", i)
			}
			out = msg
		}
	}
	return out
}
