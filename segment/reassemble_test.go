package segment

import (
	"bytes"
	"fmt"
	"math/bits"
	"strings"
	"testing"
	"time"
)

func TestFeedPassesThroughNonSegments(t *testing.T) {
	frames := []string{
		okMsg,
		`{"jsonrpc":"2.0","id":3,"result":{"text":"about ahp/messageSegment and \u0041"}}`,
		`{"jsonrpc":"2.0","params":{"method":"ahp/messageSegment"},"method":"action"}`,
		`{"jsonrpc":"2.0","method":"ahp/messageSegmentX","params":{}}`,
		`{"method":{"x":"ahp/messageSegment"}}`,
		`not json at all`,
		``,
		`[{"jsonrpc":"2.0","method":"ahp/messageSegment"}]`,
		`{"jsonrpc":"2.0",` + "\xff" + `"method":"ahp/messageSegment"}`,
	}
	r := NewReassembler(DefaultLimits(), nil)
	for _, f := range frames {
		in := []byte(f)
		out, err := r.Feed(in)
		if err != nil {
			t.Fatalf("Feed(%q): %v", f, err)
		}
		if len(in) > 0 && &out[0] != &in[0] || len(out) != len(in) {
			t.Fatalf("Feed(%q) did not return the frame unchanged", f)
		}
		if IsSegment(in) {
			t.Fatalf("IsSegment(%q) = true", f)
		}
	}
}

func TestIsSegmentSpellings(t *testing.T) {
	for _, f := range []string{
		string(segFrame("g", 0, 1, "")),
		`{"jsonrpc":"2.0","method":"ahp\/messageSegment","params":{}}`,
		`{"jsonrpc":"2.0","method":"\u0061hp/messageSegment","params":{}}`,
		`{"m\u0065thod":"ahp/messageSegment"}`,
		` { "params" : { "data" : "a\"b" , "x":[1,{"y":"]"}] } , "method" : "ahp/messageSegment" } `,
	} {
		if !IsSegment([]byte(f)) {
			t.Errorf("IsSegment(%q) = false", f)
		}
	}
}

func TestFeedToleratesShape(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"?????????","params":{"q":"???????????????????????????????????"}}`
	enc := b64(msg)
	half := len(enc) / 2 / 4 * 4
	a, b := enc[:half], enc[half:]
	if !strings.Contains(a, "/") || !strings.Contains(b, "/") {
		t.Fatalf("test data must put '/' in both halves: %s", enc)
	}
	frames := []string{
		// Reordered keys, whitespace, unknown members, escaped \/ in data and an escaped group id.
		" {\n \"params\" : { \"total\" : 2 , \"data\" : \"" + strings.ReplaceAll(a, "/", `\/`) + "\" , \"extra\": [1, {\"k\": null}], \"index\" : 0 , \"groupId\" : \"g\\u0031\" } ,\t\"method\" : \"ahp/messageSegment\" , \"jsonrpc\" : \"2.0\" }\r\n",
		`{"jsonrpc":"2.0","method":"ahp\/messageSegment","params":{"groupId":"g1","index":1,"total":2,"data":"` + strings.ReplaceAll(b, "/", `\u002F`) + `"}}`,
	}
	r := NewReassembler(DefaultLimits(), nil)
	var got []byte
	for i, f := range frames {
		out, err := r.Feed([]byte(f))
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if out != nil {
			got = out
		}
	}
	if string(got) != msg {
		t.Fatalf("got %q", got)
	}
}

func TestFeedEscapedData(t *testing.T) {
	// A payload whose base64 contains many '/' characters ("???" -> "Pz8/").
	payload := `{"jsonrpc":"2.0","method":"x","params":{"b":"` + strings.Repeat("?", 60) + `"}}`
	enc := b64(payload)
	if strings.Count(enc, "/") < 10 {
		t.Fatalf("test data has too few '/': %s", enc)
	}
	esc := strings.ReplaceAll(enc, "/", `\/`)
	r := NewReassembler(DefaultLimits(), nil)
	out, err := r.Feed([]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":"` + esc + `"}}`))
	if err != nil || string(out) != payload {
		t.Fatalf("escaped data: %q, %v", out, err)
	}
}

func TestFeedCarriesOddBoundaries(t *testing.T) {
	msg := makeMessage(t, 200, "日本")
	enc := b64(string(msg))
	for _, cuts := range [][]int{{1}, {2}, {3}, {5, 6, 7}, {1, 2, 3, 4, 5}, {len(enc) - 1}} {
		var parts []string
		prev := 0
		for _, c := range cuts {
			parts = append(parts, enc[prev:c])
			prev = c
		}
		parts = append(parts, enc[prev:])
		r := NewReassembler(DefaultLimits(), nil)
		var frames [][]byte
		for i, p := range parts {
			frames = append(frames, segFrame("g", i, len(parts), p))
		}
		if got := feedAll(t, r, frames); !bytes.Equal(got, msg) {
			t.Fatalf("cuts %v: got %q", cuts, got)
		}
	}
}

func TestFeedPerSegmentPadding(t *testing.T) {
	// Each segment encoded on its own, with padding (RFC: "base64 with padding").
	msg := okMsg
	parts := []string{msg[:7], msg[7:8], msg[8:20], msg[20:]}
	var frames [][]byte
	for i, p := range parts {
		frames = append(frames, segFrame("g", i, len(parts), b64(p)))
	}
	if got := feedAll(t, NewReassembler(DefaultLimits(), nil), frames); string(got) != msg {
		t.Fatalf("got %q", got)
	}
}

func TestFeedMessageLimitEdge(t *testing.T) {
	for _, tc := range []struct {
		size int
		ok   bool
	}{{999, true}, {1000, true}, {1001, false}} {
		msg := makeMessage(t, tc.size, "a")
		l := Limits{MaxFrameBytes: 400, MaxMessageBytes: 1000}
		enc := b64(string(msg))
		var frames [][]byte
		for i := 0; i*400 < len(enc); i++ {
			frames = append(frames, segFrame("g", i, (len(enc)+399)/400, enc[i*400:min(len(enc), (i+1)*400)]))
		}
		r := NewReassembler(l, nil)
		var err error
		var out []byte
		for _, f := range frames {
			var o []byte
			if o, err = r.Feed(f); err != nil {
				break
			}
			if o != nil {
				out = o
			}
		}
		if tc.ok && (err != nil || !bytes.Equal(out, msg)) {
			t.Fatalf("size %d: %v", tc.size, err)
		}
		if rule, _ := RuleOf(err); !tc.ok && rule != RuleMessageTooLarge {
			t.Fatalf("size %d: err %v, want RuleMessageTooLarge", tc.size, err)
		}
	}
}

func TestInterleavedGroupsUpToLimit(t *testing.T) {
	l := Limits{MaxGroups: 5}
	r := NewReassembler(l, nil)
	msgs := make([]string, l.MaxGroups)
	encs := make([]string, l.MaxGroups)
	for g := range msgs {
		msgs[g] = `{"jsonrpc":"2.0","method":"m","params":{"g":` + fmt.Sprint(g) + `,"pad":"` + strings.Repeat("z", 40) + `"}}`
		encs[g] = b64(msgs[g])
	}
	const parts = 3
	got := map[string]bool{}
	for i := range parts {
		for g := range msgs {
			n := len(encs[g]) / 4 / parts * 4
			data := encs[g][i*n:]
			if i < parts-1 {
				data = data[:n]
			}
			out, err := r.Feed(segFrame(fmt.Sprint("group-", g), i, parts, data))
			if err != nil {
				t.Fatalf("group %d segment %d: %v", g, i, err)
			}
			if i < parts-1 && r.Pending() != min(g+1+i*len(msgs), len(msgs)) {
				t.Fatalf("pending = %d", r.Pending())
			}
			if out != nil {
				got[string(out)] = true
			}
		}
	}
	for _, m := range msgs {
		if !got[m] {
			t.Fatalf("message %q not reassembled", m)
		}
	}
	if r.Pending() != 0 {
		t.Fatal("groups left")
	}
}

func TestSweepTimeouts(t *testing.T) {
	clk := newClock()
	r := NewReassembler(Limits{GroupTimeout: 30 * time.Second, MaxGroups: 2}, clk.now)
	mustFeed := func(f []byte) {
		t.Helper()
		if _, err := r.Feed(f); err != nil {
			t.Fatal(err)
		}
	}
	mustFeed(segFrame("old", 0, 2, "QUJD"))
	clk.advance(20 * time.Second)
	mustFeed(segFrame("new", 0, 2, "QUJD"))
	clk.advance(10 * time.Second) // old is exactly 30 s old: kept
	if n := r.Sweep(); n != 0 || r.Pending() != 2 {
		t.Fatalf("Sweep at the timeout dropped %d", n)
	}
	clk.advance(time.Millisecond)
	if n := r.Sweep(); n != 1 || r.Pending() != 1 {
		t.Fatalf("Sweep dropped %d, pending %d; want 1, 1", n, r.Pending())
	}
	// A late segment of the swept group is an unknown group not starting at 0.
	_, err := r.Feed(segFrame("old", 1, 2, "QUJD"))
	if rule, _ := RuleOf(err); rule != RuleIndexOrder {
		t.Fatalf("late segment: %v", err)
	}
	// A full table is swept before a new group is refused.
	r = NewReassembler(Limits{GroupTimeout: time.Second, MaxGroups: 1}, clk.now)
	mustFeed(segFrame("a", 0, 2, "QUJD"))
	clk.advance(2 * time.Second)
	mustFeed(segFrame("b", 0, 2, "QUJD"))
	if r.Pending() != 1 {
		t.Fatalf("pending = %d", r.Pending())
	}
}

func TestReset(t *testing.T) {
	r := NewReassembler(DefaultLimits(), nil)
	for _, g := range []string{"a", "b", "c"} {
		if _, err := r.Feed(segFrame(g, 0, 2, "QUJD")); err != nil {
			t.Fatal(err)
		}
	}
	if r.Pending() != 3 || r.Buffered() != 9 {
		t.Fatalf("pending %d buffered %d", r.Pending(), r.Buffered())
	}
	r.Reset()
	if r.Pending() != 0 || r.Buffered() != 0 {
		t.Fatal("Reset kept groups")
	}
	// After Reset the same group id starts fresh.
	if _, err := r.Feed(segFrame("a", 0, 2, "QUJD")); err != nil {
		t.Fatalf("group after Reset: %v", err)
	}
}

// TestAllocsPerGroupLogarithmic checks that allocations grow at most with
// the logarithm of the number of segments: the group buffer grows with the
// data received (×4 per step), not from the declared total.
func TestAllocsPerGroupLogarithmic(t *testing.T) {
	allocs := func(segments int) float64 {
		recv := capFor(1000)
		msg := makeMessage(t, segments*600, "a")
		frames, err := NewSplitter(nil).Split(msg, recv, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReassembler(recv.Limits(), nil)
		return testing.AllocsPerRun(5, func() { feedAll(t, r, frames) })
	}
	for _, n := range []int{10, 200} {
		// 2 allocations per group (group struct, map key), plus one per
		// growth of the buffer (at most ⌈log2 n⌉ + 1).
		if a, limit := allocs(n), float64(3+bits.Len(uint(n))); a > limit {
			t.Fatalf("allocations per group with %d segments: %v > %v", n, a, limit)
		}
	}
}
