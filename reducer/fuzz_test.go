package reducer

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/fuzz/FuzzDerive from generated streams and fixtures")

// fuzzBaseChats returns chats to apply envelopes to: empty, mid-turn with
// every block kind, the end of a long stream, and ended.
func fuzzBaseChats(t testing.TB) []chat {
	envs := newStreamGen(7).generate(120)
	c := projected(ahpwire.ChatState{Resource: genChat})
	var mid chat
	for i, e := range envs {
		c = applyOurs(c, e)
		if c.view.Current != nil && c.view.Current.Blocks.Len() > len(midBlocks(mid.view)) && i < len(envs)-1 {
			mid = c
		}
	}
	ended := mid
	ended.view = Reduce(mid.view, SessionEnd{Reason: "x"})
	return []chat{{}, mid, c, ended}
}

func midBlocks(s State) []*Block {
	if s.Current == nil {
		return nil
	}
	return s.Current.Blocks.Slice()
}

// FuzzDerive: arbitrary JSON envelopes never panic ahpstate, Derive or the
// reducer, whatever chat they meet; the result is deterministic; and the
// derived transcript equals the projection of AHP's new state whenever the
// old transcript was the projection of the old state (the reattach
// property, for any action). The same bytes as a chat snapshot never panic
// Project.
func FuzzDerive(f *testing.F) {
	bases := fuzzBaseChats(f)
	f.Add([]byte(`{"channel":"ahp-chat:/c1","serverSeq":1,"action":{"type":"chat/delta","turnId":"t1","partId":"p1","content":"x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var env ahpwire.ActionEnvelope
		if err := json.Unmarshal(data, &env); err == nil {
			for i, c := range bases {
				out := applyOurs(c, env)
				if i == 1 {
					// Deterministic and pure: the same input gives the same output.
					again := applyOurs(c, env)
					if !reflect.DeepEqual(canonState(again.view), canonState(out.view)) {
						t.Fatalf("non-deterministic result for %s", data)
					}
				}
				if i < 3 && env.Action != nil && ahpstate.ActionScope(env.Action) == ahpstate.ScopeChat {
					if g, w := canonState(out.view), canonState(Project(out.ahp)); !reflect.DeepEqual(g, w) {
						t.Fatalf("derived state differs from the projection for %s\n got %s\nwant %s", data, dump(g), dump(w))
					}
				}
				// Applying again to the new chat must also be safe.
				_ = applyOurs(out, env)
				if env.Action != nil {
					_, _, _ = ApplyAction(c.ahp, c.view, env.Action)
				}
			}
		}
		if cs, err := ahpwire.DecodeChatState(data); err == nil {
			p := Project(cs)
			for _, c := range bases[:2] {
				_ = Reattach(c.view, cs)
			}
			_ = canonState(p)
		}
	})
}

// TestFuzzCorpus checks the seed corpus covers every generated action type
// and the fixtures; -update-corpus regenerates it.
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDerive")
	if !*updateCorpus {
		files, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil || len(files) < 100 {
			t.Fatalf("seed corpus too small (%d files, %v); regenerate with -update-corpus", len(files), err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil || !strings.HasPrefix(string(b), "go test fuzz v1\n[]byte(") {
				t.Fatalf("%s is not a fuzz corpus file (%v)", f, err)
			}
		}
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, e := range newStreamGen(3).generate(400) {
		typ := e.Action.ActionType()
		if seen[typ] {
			continue
		}
		seen[typ] = true
		b, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		write("gen-"+filepath.Base(typ), b)
	}
	for _, fx := range ahpfixtures.Reducers(t) {
		base := fx.File[:3]
		write("fixture-"+base+"-state", fx.Initial)
		for i, a := range fx.Actions {
			env := fmt.Sprintf(`{"channel":"ahp-chat:/c1","serverSeq":%d,"action":%s}`, i+1, a)
			write(fmt.Sprintf("fixture-%s-%d", base, i), []byte(env))
		}
	}
	write("rejected", []byte(`{"channel":"ahp-chat:/c1","serverSeq":9,"rejectionReason":"no","action":{"type":"chat/turnCancelled","turnId":"t1","duration":0}}`))
	write("unknown", []byte(`{"channel":"ahp-chat:/c1","serverSeq":9,"action":{"type":"chat/fromTheFuture","x":[1,2]}}`))
	write("session-failed", []byte(`{"channel":"ahp-session:/s","serverSeq":9,"action":{"type":"session/creationFailed","error":{"errorType":"e","message":"m"}}}`))
	write("huge-duration", []byte(`{"channel":"ahp-chat:/c1","serverSeq":9,"action":{"type":"chat/turnComplete","turnId":"t1","duration":9223372036854775807}}`))
	write("not-json", []byte(`{"channel":`))
}
