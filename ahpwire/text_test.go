package ahpwire

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/ahptui/ahptui/internal/textbuf"
)

func TestAppendContentKeepsOlderVersions(t *testing.T) {
	p := MarkdownPart("m", "He")
	versions := []ResponsePart{p}
	want := []string{"He"}
	for i := range 200 {
		d := fmt.Sprint(i % 10)
		p = p.AppendContent(d)
		versions = append(versions, p)
		want = append(want, want[len(want)-1]+d)
	}
	for i, v := range versions {
		if v.Content != want[i] {
			t.Fatalf("version %d: %q, want %q", i, v.Content, want[i])
		}
	}
	if !p.text.Views(p.Content) || !versions[1].text.Views(versions[1].Content) {
		t.Fatal("appends did not use a shared buffer")
	}
	if p.AppendContent("").Content != p.Content {
		t.Fatal("empty append changed the content")
	}
}

func TestAppendContentBranchesDoNotInterfere(t *testing.T) {
	base := MarkdownPart("m", "").AppendContent("Hel")
	a := base.AppendContent("lo")
	b := base.AppendContent("p!")
	a2 := a.AppendContent(", world")
	b2 := b.AppendContent(" me")
	if base.Content != "Hel" || a.Content != "Hello" || b.Content != "Help!" ||
		a2.Content != "Hello, world" || b2.Content != "Help! me" {
		t.Fatalf("base %q a %q b %q a2 %q b2 %q", base.Content, a.Content, b.Content, a2.Content, b2.Content)
	}
	if unsafe.StringData(a.Content) != unsafe.StringData(base.Content) {
		t.Error("the first branch did not extend the shared buffer in place")
	}
	if unsafe.StringData(b.Content) == unsafe.StringData(base.Content) {
		t.Error("the second branch wrote into the buffer the first branch claimed")
	}
}

func TestAppendContentAfterContentReplaced(t *testing.T) {
	p := MarkdownPart("m", "").AppendContent("abc")
	q := p
	q.Content = "xyz" // same length, different string: must not be treated as a view
	r := q.AppendContent("!")
	if r.Content != "xyz!" || p.Content != "abc" {
		t.Fatalf("r %q p %q", r.Content, p.Content)
	}
	s := p
	s.Content = p.Content[:1] // a shorter view of the same buffer
	if got := s.AppendContent("Z").Content; got != "aZ" || p.Content != "abc" {
		t.Fatalf("got %q p %q", got, p.Content)
	}
	if got := p.AppendContent("d").Content; got != "abcd" {
		t.Fatalf("newest view: %q", got)
	}
}

// TestAppendContentConcurrentBranches appends to branches of one part from
// many goroutines (run with -race): the compare-and-swap claim keeps every
// branch intact.
func TestAppendContentConcurrentBranches(t *testing.T) {
	base := MarkdownPart("m", "").AppendContent("Hel")
	results := make([]string, 16)
	var wg sync.WaitGroup
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := base
			for range 200 {
				p = p.AppendContent(fmt.Sprint(g % 10))
				_ = base.Content + p.Content[:3]
			}
			results[g] = p.Content
		}()
	}
	wg.Wait()
	for g, got := range results {
		if want := "Hel" + strings.Repeat(fmt.Sprint(g%10), 200); got != want {
			t.Fatalf("branch %d: %d bytes %q..., want %d", g, len(got), got[:min(len(got), 20)], len(want))
		}
	}
	if base.Content != "Hel" {
		t.Fatalf("base changed: %q", base.Content)
	}
}

func TestAppendContentJSONUnchanged(t *testing.T) {
	p := ReasoningPart("r", "a").AppendContent("b").AppendContent(`"c"`)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"reasoning","id":"r","content":"ab\"c\""}`; string(b) != want {
		t.Fatalf("got %s want %s", b, want)
	}
	var back ResponsePart
	if err := json.Unmarshal(b, &back); err != nil || back.Content != p.Content || back.text != (textbuf.Text{}) {
		t.Fatalf("decode: %+v err %v", back, err)
	}
}

func TestAppendPartialInputSharesOneBuffer(t *testing.T) {
	tc := ToolCallState{Status: ToolStreaming, ToolCallID: "tc"}
	versions := []ToolCallState{tc}
	want := []string{""}
	for i := range 100 {
		d := fmt.Sprint(i % 10)
		tc = tc.AppendPartialInput(d)
		versions = append(versions, tc)
		want = append(want, want[len(want)-1]+d)
	}
	for i, v := range versions[1:] {
		if v.PartialInput == nil || *v.PartialInput != want[i+1] {
			t.Fatalf("version %d: %v, want %q", i+1, v.PartialInput, want[i+1])
		}
	}
	if versions[0].PartialInput != nil {
		t.Fatal("the first version changed")
	}
	if e := (ToolCallState{}).AppendPartialInput(""); e.PartialInput == nil || *e.PartialInput != "" {
		t.Fatal("an empty append must still set partialInput")
	}
	// Decoded state (no buffer yet): the first append copies once, later
	// ones go in place, and a delta into a long input does not copy it.
	var dec ToolCallState
	if err := json.Unmarshal([]byte(`{"status":"streaming","toolCallId":"x","toolName":"t","displayName":"T","partialInput":"`+strings.Repeat("a", 1<<20)+`"}`), &dec); err != nil {
		t.Fatal(err)
	}
	dec = dec.AppendPartialInput("b")
	if n := testing.AllocsPerRun(100, func() { dec = dec.AppendPartialInput("c") }); n > 1 {
		t.Fatalf("a delta into a 1 MiB input allocates %.0f times", n)
	}
	b, err := json.Marshal(dec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"partialInput":"aaa`) || !strings.HasSuffix(*dec.PartialInput, "ab"+strings.Repeat("c", 101)) {
		t.Fatal("partialInput lost on the wire")
	}
}
