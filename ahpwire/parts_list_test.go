package ahpwire

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func toolPart(id, status string) ResponsePart {
	return ResponsePart{Kind: PartToolCall, ToolCall: &ToolCallState{ToolCallID: id, Status: status}}
}

// TestPartsJSON: Parts encodes as the array it replaced ([] when empty)
// and decodes back to the same parts, index and count included.
func TestPartsJSON(t *testing.T) {
	b, err := json.Marshal(ActiveTurn{ID: "t1"})
	if err != nil || !strings.HasSuffix(string(b), `,"responseParts":[]}`) {
		t.Fatalf("empty active turn = %s, %v", b, err)
	}
	p := PartsOf(MarkdownPart("m", "hi"), toolPart("c1", ToolPendingConfirmation),
		ResponsePart{Kind: "future", Raw: json.RawMessage(`{"kind":"future","x":1}`)})
	b, err = json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(p.Slice())
	if string(b) != string(want) || b[0] != '[' {
		t.Fatalf("parts = %s, want the array %s", b, want)
	}
	var back Parts
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Len() != 3 || back.WaitingForClient() != 1 || slices.Collect(back.Indexes("c1"))[0] != 1 {
		t.Fatalf("decoded %d parts, %d waiting", back.Len(), back.WaitingForClient())
	}
	if err := json.Unmarshal([]byte(`[{"kind":"toolCall","toolCall":7}]`), &back); err == nil {
		t.Fatal("a malformed part decoded without an error")
	}
	if err := json.Unmarshal([]byte(`null`), &back); err != nil || back.Len() != 0 {
		t.Fatalf("null = %d parts, %v", back.Len(), err)
	}
}

// TestPartsIndexes: Indexes finds every part with an id, in order, after
// appends, sets (including one that changes a part's id) and forks.
func TestPartsIndexes(t *testing.T) {
	var p Parts
	for i := range 100 {
		p = p.Append(toolPart("c"+strconv.Itoa(i%40), ToolRunning))
	}
	if got := slices.Collect(p.Indexes("c3")); !slices.Equal(got, []int{3, 43, 83}) {
		t.Fatalf("c3 at %v", got)
	}
	q := p.Set(43, MarkdownPart("m", "x")) // another id at 43
	if got := slices.Collect(q.Indexes("c3")); !slices.Equal(got, []int{3, 83}) {
		t.Fatalf("after the set, c3 at %v", got)
	}
	if got := slices.Collect(q.Indexes("m")); !slices.Equal(got, []int{43}) {
		t.Fatalf("m at %v", got)
	}
	if got := slices.Collect(p.Indexes("m")); len(got) != 0 || slices.Collect(p.Indexes("c3"))[1] != 43 {
		t.Fatalf("the set changed the list it was made from: m at %v", got)
	}
	short := PartsOf(p.Slice()[:10]...)
	if got := slices.Collect(short.Indexes("c3")); !slices.Equal(got, []int{3}) {
		t.Fatalf("short list: c3 at %v", got)
	}
	r := PartsOf(MarkdownPart("", "a"), ErrorPart(ErrorInfo{Message: "e"}, false), MarkdownPart("x", "b"))
	if got := slices.Collect(r.Indexes("")); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("empty id at %v", got)
	}
}

// TestPartsWaiting: the count of parts waiting for the client follows
// sets and appends, and matches a count over the parts.
func TestPartsWaiting(t *testing.T) {
	count := func(p Parts) int {
		n := 0
		for _, x := range p.All() {
			if (x.Kind == PartToolCall && x.ToolCall != nil && x.ToolCall.WaitsForClient()) ||
				(x.Kind == PartInputRequest && x.Response == "") {
				n++
			}
		}
		return n
	}
	p := PartsOf(toolPart("a", ToolPendingConfirmation), toolPart("b", ToolRunning),
		ResponsePart{Kind: PartInputRequest, Request: &ChatInputRequest{ID: "q"}})
	steps := []Parts{p}
	p = p.Set(0, toolPart("a", ToolRunning))
	steps = append(steps, p)
	p = p.Set(1, toolPart("b", ToolAuthRequired))
	steps = append(steps, p)
	p = p.Set(2, ResponsePart{Kind: PartInputRequest, Request: &ChatInputRequest{ID: "q"}, Response: "accept"})
	steps = append(steps, p)
	p = p.Append(toolPart("c", ToolPendingResultConfirmation), MarkdownPart("m", "x"))
	steps = append(steps, p)
	for i, s := range steps {
		if s.WaitingForClient() != count(s) {
			t.Errorf("step %d: %d waiting, counted %d", i, s.WaitingForClient(), count(s))
		}
	}
	if steps[0].WaitingForClient() != 2 || p.WaitingForClient() != 2 {
		t.Fatalf("first %d, last %d waiting", steps[0].WaitingForClient(), p.WaitingForClient())
	}
}

// TestPartsDeepEqual: a list built by appends and sets and the same parts
// decoded or built at once are reflect.DeepEqual (tests compare states).
func TestPartsDeepEqual(t *testing.T) {
	var p Parts
	for i := range 70 {
		p = p.Append(toolPart("c"+strconv.Itoa(i), ToolStreaming))
		p = p.Set(i, toolPart("c"+strconv.Itoa(i), ToolCompleted))
	}
	if q := PartsOf(p.Slice()...); !reflect.DeepEqual(p, q) {
		t.Fatal("the same parts built two ways are not DeepEqual")
	}
}
