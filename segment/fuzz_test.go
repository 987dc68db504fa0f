package segment

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"
)

// fuzzLimits are small so the fuzzer reaches every limit quickly.
var fuzzLimits = Limits{MaxFrameBytes: 256, MaxMessageBytes: 1024, MaxGroups: 3}

// frameSep separates frames in FuzzReassemble inputs.
const frameSep = 0x1e

// FuzzReassemble feeds arbitrary frame sequences (separated by 0x1e) to a
// Reassembler: it must never panic, never hold more than the configured
// bytes, only return valid JSON-RPC messages, report violations as
// *ViolationError, and behave exactly like a Reassembler that never guesses
// the end of the data string.
func FuzzReassemble(f *testing.F) {
	sp := NewSplitter(nil)
	recv := &ChunkingCapability{MaxIncomingFrameBytes: 256, MaxIncomingMessageBytes: 1024}
	for _, m := range []string{okMsg, `{"jsonrpc":"2.0","id":1,"result":{"t":"` + string(bytes.Repeat([]byte("é"), 200)) + `"}}`} {
		frames, err := sp.Split([]byte(m), recv, 0)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(bytes.Join(frames, []byte{frameSep}))
	}
	f.Add(bytes.Join([][]byte{segFrame("a", 0, 2, "QUJD"), segFrame("b", 0, 2, "QUJD"), segFrame("a", 1, 2, b64(okMsg))}, []byte{frameSep}))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"ahp\/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":"` + b64(okMsg) + `"}}`))
	f.Add([]byte(okMsg))
	f.Fuzz(func(t *testing.T, in []byte) {
		lim, budget := fuzzLimits, NewBudget(2048) // below MaxGroups × MaxMessageBytes
		lim.Budget = budget
		r := NewReassembler(lim, newClock().now)
		ref := NewReassembler(fuzzLimits, newClock().now) // exact scans only
		ref.exact = true
		u := NewReassembler(fuzzLimits, newClock().now) // FeedUnchecked + CheckMessage
		for _, frame := range bytes.Split(in, []byte{frameSep}) {
			out, err := r.Feed(frame)
			rout, rerr := ref.Feed(frame)
			uout, reassembled, uerr := u.FeedUnchecked(frame)
			if reassembled {
				if uerr != nil || !IsSegment(frame) {
					t.Fatalf("FeedUnchecked: reassembled with error %v", uerr)
				}
				if uerr = CheckMessage(uout); uerr != nil {
					uout = nil
				}
			}
			urule, _ := RuleOf(uerr)
			rrule0, _ := RuleOf(rerr)
			if !bytes.Equal(uout, rout) || (uerr == nil) != (rerr == nil) || urule != rrule0 || u.Pending() != ref.Pending() {
				t.Fatalf("FeedUnchecked+CheckMessage and Feed differ on %q: (%q, %v) vs (%q, %v)", frame, uout, uerr, rout, rerr)
			}
			if uerr != nil {
				u.Reset()
			}
			rule, _ := RuleOf(err)
			rrule, _ := RuleOf(rerr)
			if rule == RuleBudgetExceeded {
				// Only r has a budget: stop comparing, but the table
				// must give every byte back.
				r.Reset()
				if budget.Used() != 0 {
					t.Fatalf("budget holds %d after Reset", budget.Used())
				}
				return
			}
			if budget.Used() != r.Reserved() || budget.Used() > budget.Limit() {
				t.Fatalf("budget used %d, table reserves %d", budget.Used(), r.Reserved())
			}
			if !bytes.Equal(out, rout) || (err == nil) != (rerr == nil) || rule != rrule || r.Pending() != ref.Pending() || r.Buffered() != ref.Buffered() {
				t.Fatalf("guessed and exact scans differ on %q: (%q, %v) vs (%q, %v)", frame, out, err, rout, rerr)
			}
			if err != nil {
				ref.Reset()
			}
			if err != nil {
				var v *ViolationError
				if !errors.As(err, &v) || out != nil {
					t.Fatalf("error %v (out %q) is not a bare *ViolationError", err, out)
				}
				r.Reset()
				if budget.Used() != 0 {
					t.Fatalf("budget holds %d after Reset", budget.Used())
				}
				continue
			}
			if out != nil && !IsSegment(frame) && !bytes.Equal(out, frame) {
				t.Fatalf("non-segment frame changed")
			}
			if out != nil && IsSegment(frame) {
				if int64(len(out)) > fuzzLimits.MaxMessageBytes || checkMessage(out) != 0 || !json.Valid(out) || !utf8.Valid(out) {
					t.Fatalf("invalid reassembled message %q", out)
				}
			}
			if r.Pending() > fuzzLimits.MaxGroups {
				t.Fatalf("%d groups held", r.Pending())
			}
			for _, g := range r.groups {
				if int64(len(g.buf)) > fuzzLimits.MaxMessageBytes || int64(cap(g.buf)) > fuzzLimits.MaxMessageBytes+3 {
					t.Fatalf("group holds len %d cap %d", len(g.buf), cap(g.buf))
				}
			}
		}
	})
}

// FuzzRoundTrip splits a message for an arbitrary frame limit that can fit
// a segment and checks that reassembly returns it unchanged.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("hello"), uint16(0))
	f.Add(bytes.Repeat([]byte("日本語"), 300), uint16(37))
	f.Add([]byte{0xff, 0, '"', '\\', '/'}, uint16(5000))
	f.Fuzz(func(t *testing.T, body []byte, extra uint16) {
		s, err := json.Marshal(string(body))
		if err != nil {
			t.Fatal(err)
		}
		msg := append([]byte(`{"jsonrpc":"2.0","method":"m","params":{"s":`), s...)
		msg = append(msg, "}}"...)
		// The smallest usable limit: envelope, id, 5-digit numbers, one quantum.
		limit := int64(frameFixed+2*groupIDBytes+5+5+4) + int64(extra)
		recv := &ChunkingCapability{MaxIncomingFrameBytes: limit, MaxIncomingMessageBytes: max(limit, int64(len(msg)))}
		sp := NewSplitter(nil)
		g, err := sp.SplitGroup(msg, recv, 0)
		if err != nil {
			var tm *TooManySegmentsError
			if errors.As(err, &tm) {
				t.Skip("message needs more than 2^16 segments at this limit")
			}
			t.Fatal(err)
		}
		for i, fr := range g.Frames {
			if int64(len(fr)) > limit {
				t.Fatalf("frame %d: %d bytes > %d", i, len(fr), limit)
			}
		}
		r := NewReassembler(recv.Limits(), nil)
		got := feedAll(t, r, g.Frames)
		if !bytes.Equal(got, msg) {
			t.Fatalf("round trip: got %q want %q", got, msg)
		}
		if r.Pending() != 0 {
			t.Fatal("group left behind")
		}
	})
}
