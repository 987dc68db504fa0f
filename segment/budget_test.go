package segment

import (
	"encoding/base64"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostileFirst is a ~750-byte first segment that declares total 65535.
func hostileFirst(gid string) []byte {
	return segFrame(gid, 0, MaxTotal-1, base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 480))))
}

// TestHostileTotalReservesOnlyWhatArrived: the declared total must not size
// the buffer. Before the fix one such segment reserved 32 MiB (total ×
// segment size, capped by maxIncomingMessageBytes).
func TestHostileTotalReservesOnlyWhatArrived(t *testing.T) {
	r := NewReassembler(DefaultLimits(), nil)
	frame := hostileFirst("g")
	if len(frame) > 800 {
		t.Fatalf("frame is %d bytes", len(frame))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if out, err := r.Feed(frame); out != nil || err != nil {
		t.Fatalf("Feed = %q, %v", out, err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<10 {
		t.Fatalf("one %d-byte segment allocated %d bytes", len(frame), alloc)
	}
	if got := r.Reserved(); got > 1024 {
		t.Fatalf("Reserved = %d after one 480-byte segment", got)
	}
}

// TestBudgetManyConnections: 30 connections × 8 hostile groups sharing one
// budget hold only what arrived, and every byte comes back when the
// connections close.
func TestBudgetManyConnections(t *testing.T) {
	b := NewBudget(0)
	var conns []*Reassembler
	for c := range 30 {
		l := DefaultLimits()
		l.Budget = b
		r := NewReassembler(l, nil)
		conns = append(conns, r)
		for g := range 8 {
			if _, err := r.Feed(hostileFirst(string(rune('a'+c)) + string(rune('a'+g)))); err != nil {
				t.Fatal(err)
			}
		}
	}
	var sum int64
	for _, r := range conns {
		sum += r.Reserved()
	}
	if b.Used() != sum || sum > 30*8*1024 {
		t.Fatalf("budget used %d, reassemblers reserve %d (want ≤ %d)", b.Used(), sum, 30*8*1024)
	}
	for _, r := range conns {
		r.Reset()
	}
	if b.Used() != 0 {
		t.Fatalf("budget used %d after every connection closed", b.Used())
	}
}

// TestBudgetExceededClosesOnlyThatConnection: a reassembler that cannot
// draw its next buffer fails with RuleBudgetExceeded; another one on the
// same budget keeps its group and completes it.
func TestBudgetExceededClosesOnlyThatConnection(t *testing.T) {
	b := NewBudget(4096)
	mk := func() *Reassembler {
		l := capFor(8192).Limits()
		l.Budget = b
		return NewReassembler(l, nil)
	}
	good, bad := mk(), mk()
	msg := makeMessage(t, 3000, "a")
	frames, err := NewSplitter(nil).Split(msg, capFor(1200), 0)
	if err != nil || len(frames) < 3 {
		t.Fatalf("split: %d frames, %v", len(frames), err)
	}
	if out, err := good.Feed(frames[0]); out != nil || err != nil {
		t.Fatalf("good first segment: %v", err)
	}
	// The hostile peer asks for more than is left.
	big := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("y", 4000)))
	_, err = bad.Feed(segFrame("h", 0, 2, big))
	if rule, _ := RuleOf(err); rule != RuleBudgetExceeded {
		t.Fatalf("over-budget segment: %v", err)
	}
	bad.Reset()
	if bad.Reserved() != 0 || b.Used() != good.Reserved() {
		t.Fatalf("after the failure: budget %d, good holds %d, bad %d", b.Used(), good.Reserved(), bad.Reserved())
	}
	got := feedAll(t, good, frames[1:])
	if string(got) != string(msg) {
		t.Fatal("the other connection's message was damaged")
	}
	if b.Used() != 0 || b.Peak() == 0 {
		t.Fatalf("budget used %d (peak %d) after completion", b.Used(), b.Peak())
	}
}

// TestBudgetReturnedOnEveryEnd: completion, a violation, a timeout (Sweep)
// and Reset each give the group's bytes back.
func TestBudgetReturnedOnEveryEnd(t *testing.T) {
	clk := newClock()
	b := NewBudget(1 << 20)
	l := DefaultLimits()
	l.Budget = b
	r := NewReassembler(l, clk.now)
	start := func(gid string) {
		t.Helper()
		if _, err := r.Feed(segFrame(gid, 0, 2, "QUJD")); err != nil {
			t.Fatal(err)
		}
		if b.Used() == 0 || b.Used() != r.Reserved() {
			t.Fatalf("budget %d, reserved %d", b.Used(), r.Reserved())
		}
	}
	check := func(what string) {
		t.Helper()
		if b.Used() != 0 || r.Reserved() != 0 {
			t.Fatalf("%s: budget %d, reserved %d", what, b.Used(), r.Reserved())
		}
	}
	start("done")
	if _, err := r.Feed(segFrame("done", 1, 2, base64.StdEncoding.EncodeToString([]byte(okMsg)))); err == nil {
		t.Fatal("misaligned quantum accepted") // QUJD + okMsg is not a JSON-RPC message
	}
	check("completion with an invalid message")
	start("v")
	if _, err := r.Feed(segFrame("v", 1, 3, "QUJD")); err == nil {
		t.Fatal("total change accepted")
	}
	check("violation")
	start("old")
	clk.advance(l.GroupTimeout + time.Second)
	if r.Sweep() != 1 {
		t.Fatal("sweep dropped nothing")
	}
	check("timeout")
	start("r")
	r.Reset()
	check("reset")
	if _, err := r.Feed(segFrame("one", 0, 1, base64.StdEncoding.EncodeToString([]byte(okMsg)))); err != nil {
		t.Fatal(err)
	}
	check("single-segment message")
}
