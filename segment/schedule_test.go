package segment

import (
	"fmt"
	"reflect"
	"testing"
)

// fakeGroup returns n labelled frames "<name><i>" as a group.
func fakeGroup(name string, n int) Group {
	g := Group{}
	if n > 1 {
		g.ID = "id-" + name
	}
	for i := range n {
		g.Frames = append(g.Frames, []byte(fmt.Sprintf("%s%d", name, i)))
	}
	return g
}

// drain returns all frames as strings.
func drain(s *Scheduler) []string {
	var out []string
	for {
		f, ok := s.Next()
		if !ok {
			return out
		}
		out = append(out, string(f))
	}
}

func TestSchedulerContiguous(t *testing.T) {
	s := NewScheduler(Contiguous, 8)
	var done []string
	s.OnGroupSent = func(id string) { done = append(done, id) }
	s.PushGroup(fakeGroup("A", 3))
	s.PushGroup(fakeGroup("s", 1))
	s.PushGroup(fakeGroup("B", 2))
	if s.Len() != 6 {
		t.Fatalf("Len = %d", s.Len())
	}
	got := drain(s)
	want := []string{"A0", "A1", "A2", "s0", "B0", "B1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if !reflect.DeepEqual(done, []string{"id-A", "id-B"}) {
		t.Fatalf("OnGroupSent %v", done)
	}
	if s.Len() != 0 {
		t.Fatal("Len after drain")
	}
	if _, ok := s.Next(); ok {
		t.Fatal("Next on empty scheduler")
	}
}

func TestSchedulerInterleavedRoundRobin(t *testing.T) {
	s := NewScheduler(Interleaved, 2)
	s.PushGroup(fakeGroup("A", 3))
	s.PushGroup(fakeGroup("B", 2))
	s.PushGroup(fakeGroup("C", 2)) // waits: at most 2 groups open
	got := drain(s)
	want := []string{"A0", "B0", "A1", "B1", "A2", "C0", "C1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func TestSchedulerSingleJumpsAhead(t *testing.T) {
	s := NewScheduler(Interleaved, 8)
	s.PushGroup(fakeGroup("A", 4))
	first, _ := s.Next()
	s.PushGroup(fakeGroup("x", 1))
	s.PushGroup(fakeGroup("y", 1))
	got := append([]string{string(first)}, drain(s)...)
	// A single waits for at most one segment.
	want := []string{"A0", "x0", "A1", "y0", "A2", "A3"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func TestSchedulerOpenGroupsBounded(t *testing.T) {
	const maxGroups = 3
	s := NewScheduler(Interleaved, maxGroups)
	for i := range 6 {
		s.PushGroup(fakeGroup(string(rune('A'+i)), 3))
	}
	open := map[byte]int{}
	for {
		f, ok := s.Next()
		if !ok {
			break
		}
		open[f[0]]++
		n := 0
		for _, c := range open {
			if c > 0 && c < 3 {
				n++
			}
		}
		if n > maxGroups {
			t.Fatalf("%d groups open at once, limit %d", n, maxGroups)
		}
	}
	if len(open) != 6 {
		t.Fatalf("groups sent: %v", open)
	}
}

func TestSchedulerPushReadsGroupID(t *testing.T) {
	sp := NewSplitter(nil)
	g, err := sp.SplitGroup(makeMessage(t, 3000, "a"), capFor(500), 0)
	if err != nil {
		t.Fatal(err)
	}
	s := NewScheduler(Interleaved, 1)
	s.OnGroupSent = sp.Done
	s.Push(g.Frames)
	s.Push(nil)
	if n := len(drain(s)); n != len(g.Frames) {
		t.Fatalf("drained %d frames, want %d", n, len(g.Frames))
	}
	if sp.InFlight() != 0 {
		t.Fatal("OnGroupSent did not release the id read from the frames")
	}
	if Contiguous.String() != "contiguous" || Interleaved.String() != "interleaved" {
		t.Fatal("mode names")
	}
}

// TestSchedulerReassemblesInterleaved sends interleaved groups up to the
// receiver's limit and checks every message arrives intact.
func TestSchedulerReassemblesInterleaved(t *testing.T) {
	recv := capFor(400)
	recv.MaxIncomingGroups = 4
	sp := NewSplitter(nil)
	s := NewScheduler(Interleaved, recv.MaxIncomingGroups)
	s.OnGroupSent = sp.Done
	want := map[string]bool{}
	for i := range 10 {
		size := 300 + 700*(i%4)
		msg := makeMessage(t, size, fmt.Sprintf("m%d-é", i))
		want[string(msg)] = true
		g, err := sp.SplitGroup(msg, recv, 0)
		if err != nil {
			t.Fatal(err)
		}
		s.PushGroup(g)
	}
	r := NewReassembler(recv.Limits(), nil)
	maxPending := 0
	for {
		f, ok := s.Next()
		if !ok {
			break
		}
		out, err := r.Feed(f)
		if err != nil {
			t.Fatal(err)
		}
		maxPending = max(maxPending, r.Pending())
		if out != nil {
			if !want[string(out)] {
				t.Fatalf("unexpected message %q", out)
			}
			delete(want, string(out))
		}
	}
	if len(want) != 0 {
		t.Fatalf("%d messages lost", len(want))
	}
	if maxPending != recv.MaxIncomingGroups {
		t.Fatalf("max pending groups %d, want the limit %d", maxPending, recv.MaxIncomingGroups)
	}
}
