package segment

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSplitFitsAsIs(t *testing.T) {
	msg := []byte(okMsg)
	sp := NewSplitter(nil)
	for _, recv := range []*ChunkingCapability{nil, capFor(int64(len(msg)))} {
		frames, err := sp.Split(msg, recv, int64(len(msg)))
		if err != nil || len(frames) != 1 || &frames[0][0] != &msg[0] {
			t.Fatalf("Split(recv=%v) = %d frames, %v; want the message itself", recv, len(frames), err)
		}
	}
	// No ceiling and no capability: anything goes as-is.
	big := bytes.Repeat([]byte("a"), 1<<20)
	if frames, err := sp.Split(big, nil, 0); err != nil || len(frames) != 1 {
		t.Fatalf("Split without limits = %d frames, %v", len(frames), err)
	}
	if sp.InFlight() != 0 {
		t.Fatal("single frames must not take a group id")
	}
}

func TestSplitNotNegotiated(t *testing.T) {
	msg := makeMessage(t, 1000, "a")
	_, err := NewSplitter(nil).Split(msg, nil, 999)
	var nn *NotNegotiatedError
	if !errors.As(err, &nn) || nn.Size != 1000 || nn.Limit != 999 {
		t.Fatalf("err = %v, want NotNegotiatedError{1000, 999}", err)
	}
	if !errors.Is(err, ErrMessageTooLarge) {
		t.Fatal("NotNegotiatedError must match ErrMessageTooLarge")
	}
	if d := nn.Data(); d["size"] != 1000 || d["limit"] != 999 {
		t.Fatalf("Data = %v", d)
	}
}

func TestSplitMessageTooLarge(t *testing.T) {
	msg := makeMessage(t, 5000, "a")
	recv := &ChunkingCapability{MaxIncomingFrameBytes: 1000, MaxIncomingMessageBytes: 4999}
	_, err := NewSplitter(nil).Split(msg, recv, 0)
	var tl *MessageTooLargeError
	if !errors.As(err, &tl) || tl.Size != 5000 || tl.Limit != 4999 || !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("err = %v, want MessageTooLargeError{5000, 4999}", err)
	}
	if d := tl.Data(); d["size"] != 5000 || d["limit"] != 4999 {
		t.Fatalf("Data = %v", d)
	}
	recv.MaxIncomingMessageBytes = 5000
	if _, err := NewSplitter(nil).Split(msg, recv, 0); err != nil {
		t.Fatalf("message at the limit rejected: %v", err)
	}
}

func TestSplitTooManySegments(t *testing.T) {
	// 200-byte frames carry 48 raw bytes each: 2^16 segments need > 3 MiB.
	recv := &ChunkingCapability{MaxIncomingFrameBytes: 200, MaxIncomingMessageBytes: 64 << 20}
	msg := makeMessage(t, 4<<20, "a")
	_, err := NewSplitter(nil).Split(msg, recv, 0)
	var tm *TooManySegmentsError
	if !errors.As(err, &tm) || tm.Total < MaxTotal {
		t.Fatalf("err = %v, want TooManySegmentsError with total ≥ 2^16", err)
	}
}

func TestSplitFrameLimitTooSmall(t *testing.T) {
	recv := &ChunkingCapability{MaxIncomingFrameBytes: 130, MaxIncomingMessageBytes: 1 << 20}
	_, err := NewSplitter(nil).Split(makeMessage(t, 1000, "a"), recv, 0)
	var fl *FrameLimitError
	if !errors.As(err, &fl) {
		t.Fatalf("err = %v, want FrameLimitError", err)
	}
}

func TestSplitInvalidCapability(t *testing.T) {
	bad := &ChunkingCapability{MaxIncomingFrameBytes: 10, MaxIncomingMessageBytes: 5}
	_, err := NewSplitter(nil).Split([]byte(okMsg), bad, 0)
	if err == nil || !strings.Contains(err.Error(), "receiver capability") {
		t.Fatalf("err = %v", err)
	}
	// A message that fits the frame limit still goes out as-is.
	if frames, err := NewSplitter(nil).Split([]byte("{}"), bad, 0); err != nil || len(frames) != 1 {
		t.Fatalf("small message with a bad capability: %d frames, %v", len(frames), err)
	}
}

func TestSplitTinyMessages(t *testing.T) {
	r := NewReassembler(DefaultLimits(), nil)
	for _, msg := range [][]byte{{}, []byte("{")} {
		for _, recv := range []*ChunkingCapability{nil, capFor(300)} {
			frames, err := NewSplitter(nil).Split(msg, recv, 300)
			if err != nil || len(frames) != 1 || !bytes.Equal(frames[0], msg) {
				t.Fatalf("Split(%q) = %q, %v", msg, frames, err)
			}
			// Not a segment: the receiver passes it through unchanged.
			if out, err := r.Feed(frames[0]); err != nil || !bytes.Equal(out, msg) {
				t.Fatalf("Feed(%q) = %q, %v", msg, out, err)
			}
		}
	}
}

func TestSplitNeverSegmentsASegment(t *testing.T) {
	seg := segFrame("g", 0, 1, b64(strings.Repeat("a", 2000)))
	_, err := NewSplitter(nil).Split(seg, capFor(1000), 0)
	if !errors.Is(err, ErrNestedSegment) {
		t.Fatalf("err = %v, want ErrNestedSegment", err)
	}
	// A segment that fits goes as-is.
	frames, err := NewSplitter(nil).Split(seg, capFor(int64(len(seg))), 0)
	if err != nil || len(frames) != 1 {
		t.Fatalf("fitting segment: %d frames, %v", len(frames), err)
	}
}

func TestSplitCeilingAndCapability(t *testing.T) {
	msg := makeMessage(t, 5000, "a")
	sp := NewSplitter(nil)
	for _, tc := range []struct{ recv, ceiling, want int64 }{
		{1000, 0, 1000}, {1000, 600, 600}, {600, 1000, 600},
	} {
		g, err := sp.SplitGroup(msg, capFor(tc.recv), tc.ceiling)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range g.Frames {
			if int64(len(f)) > tc.want {
				t.Fatalf("recv %d ceiling %d: frame %d is %d bytes", tc.recv, tc.ceiling, i, len(f))
			}
		}
		if int64(len(g.Frames[0])) < tc.want-3 {
			t.Fatalf("recv %d ceiling %d: first frame %d bytes, not filled", tc.recv, tc.ceiling, len(g.Frames[0]))
		}
		sp.Done(g.ID)
	}
}

// TestSplitFrameShape checks the envelope against encoding/json and that
// frames stay within the limit while index and total gain digits.
func TestSplitFrameShape(t *testing.T) {
	const limit = 200
	msg := makeMessage(t, 48*1200, "ab€")
	g, err := NewSplitter(nil).SplitGroup(msg, capFor(limit), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Frames) < 1000 {
		t.Fatalf("want ≥ 1000 frames (4-digit indices), got %d", len(g.Frames))
	}
	if len(g.ID) != 32 {
		t.Fatalf("group id %q is not 16 hex-encoded bytes", g.ID)
	}
	var got []byte
	for i, f := range g.Frames {
		if len(f) > limit || (i < len(g.Frames)-1 && len(f) < limit-3) {
			t.Fatalf("frame %d is %d bytes (limit %d)", i, len(f), limit)
		}
		if cap(f) != len(f) {
			t.Fatalf("frame %d capacity not clipped", i)
		}
		var n struct {
			JSONRPC string `json:"jsonrpc"`
			Method  string `json:"method"`
			Params  struct {
				GroupID string `json:"groupId"`
				Index   int    `json:"index"`
				Total   int    `json:"total"`
				Data    []byte `json:"data"`
			} `json:"params"`
		}
		if err := json.Unmarshal(f, &n); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if n.JSONRPC != "2.0" || n.Method != Method || n.Params.GroupID != g.ID || n.Params.Index != i || n.Params.Total != len(g.Frames) {
			t.Fatalf("frame %d envelope %+v", i, n)
		}
		got = append(got, n.Params.Data...)
	}
	if !bytes.Equal(got, msg) {
		t.Fatal("concatenated data differs from the message")
	}
}

// repeatReader returns the same bytes forever, forcing id collisions.
type repeatReader struct{}

func (repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 7
	}
	return len(p), nil
}

// seqReader yields 16 × 7, 16 × 7, then 16 × 8.
type seqReader struct{ n int }

func (s *seqReader) Read(p []byte) (int, error) {
	v := byte(7)
	if s.n >= 2 {
		v = 8
	}
	s.n++
	for i := range p {
		p[i] = v
	}
	return len(p), nil
}

func TestSplitUniqueGroupIDs(t *testing.T) {
	msg := makeMessage(t, 2000, "a")
	sp := NewSplitter(&seqReader{})
	g1, err := sp.SplitGroup(msg, capFor(500), 0)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := sp.SplitGroup(msg, capFor(500), 0)
	if err != nil {
		t.Fatal(err)
	}
	if g1.ID == g2.ID || g1.ID != strings.Repeat("07", 16) || g2.ID != strings.Repeat("08", 16) {
		t.Fatalf("ids %q %q: the in-flight id was reused", g1.ID, g2.ID)
	}
	if sp.InFlight() != 2 {
		t.Fatalf("in flight = %d", sp.InFlight())
	}
	// After Done the id may be reused.
	sp2 := NewSplitter(repeatReader{})
	a, _ := sp2.SplitGroup(msg, capFor(500), 0)
	sp2.Done(a.ID)
	b, err := sp2.SplitGroup(msg, capFor(500), 0)
	if err != nil || b.ID != a.ID {
		t.Fatalf("id not reusable after Done: %q %q %v", a.ID, b.ID, err)
	}
	sp2.Reset()
	if sp2.InFlight() != 0 {
		t.Fatal("Reset kept ids")
	}
}

func TestSplitRandomError(t *testing.T) {
	sp := NewSplitter(io.LimitReader(repeatReader{}, 3))
	_, err := sp.Split(makeMessage(t, 2000, "a"), capFor(500), 0)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want wrapped io.ErrUnexpectedEOF", err)
	}
}
