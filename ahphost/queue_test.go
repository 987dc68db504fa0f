package ahphost

import "testing"

// TestOutQueueUrgent checks popUrgent finds an urgent response behind
// action envelopes, in order, and that the urgent count follows pops,
// removals and close (a stale count would either skip an urgent response
// or rescan for nothing).
func TestOutQueueUrgent(t *testing.T) {
	q := newOutQueue(1 << 20)
	all := func(*outMsg) bool { return true }
	q.push(outMsg{data: []byte("a1"), kind: kindAction, seq: 1})
	q.push(outMsg{data: []byte("r1"), kind: kindResponse, urgent: true})
	q.push(outMsg{data: []byte("a2"), kind: kindAction, seq: 2})
	q.push(outMsg{data: []byte("r2"), kind: kindResponse, urgent: true})
	q.push(outMsg{data: []byte("r3"), kind: kindResponse})
	if q.urgent != 2 {
		t.Fatalf("urgent = %d, want 2", q.urgent)
	}
	if m, ok := q.popUrgent(func(m *outMsg) bool { return len(m.data) == 2 }); !ok || string(m.data) != "r1" {
		t.Fatalf("popUrgent = %q, %v; want r1", m.data, ok)
	}
	if m, ok := q.popIf(all); !ok || string(m.data) != "a1" {
		t.Fatalf("head = %q, %v; want a1", m.data, ok)
	}
	q.dropActions()
	if q.urgent != 1 || q.len() != 2 {
		t.Fatalf("after dropActions: urgent %d, len %d; want 1, 2", q.urgent, q.len())
	}
	if _, ok := q.popUrgent(func(*outMsg) bool { return false }); ok {
		t.Fatal("popUrgent returned a message ok refused")
	}
	if m, ok := q.popIf(all); !ok || string(m.data) != "r2" || q.urgent != 0 {
		t.Fatalf("head = %q, %v, urgent %d; want r2, urgent 0", m.data, ok, q.urgent)
	}
	if _, ok := q.popUrgent(all); ok {
		t.Fatal("popUrgent returned a message that is not urgent")
	}
	if q.bytes != 2 {
		t.Fatalf("bytes = %d, want 2 (r3)", q.bytes)
	}
	q.push(outMsg{data: []byte("r4"), kind: kindResponse, urgent: true})
	q.close()
	if q.urgent != 0 || q.bytes != 0 {
		t.Fatalf("after close: urgent %d, bytes %d", q.urgent, q.bytes)
	}
}
