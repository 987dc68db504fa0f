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

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/fuzz/FuzzTranslate from generated streams and fixtures")

// fuzzBaseStates returns states to translate against: empty, mid-turn with
// every block kind, and ended.
func fuzzBaseStates(t testing.TB) []State {
	envs := newStreamGen(7).generate(120)
	s := Project(ahpwire.ChatState{Resource: genChat})
	var mid State
	for i, e := range envs {
		s = applyOurs(s, e)
		if s.Current != nil && len(s.Current.Blocks) > len(midBlocks(mid)) && i < len(envs)-1 {
			mid = s
		}
	}
	return []State{{}, mid, s, Reduce(mid, SessionEnd{Reason: "x"})}
}

func midBlocks(s State) []*Block {
	if s.Current == nil {
		return nil
	}
	return s.Current.Blocks
}

// FuzzTranslate: arbitrary JSON envelopes never panic the translator or
// the reducer, whatever state they meet; and the same bytes as a chat
// snapshot never panic Project.
func FuzzTranslate(f *testing.F) {
	bases := fuzzBaseStates(f)
	f.Add([]byte(`{"channel":"ahp-chat:/c1","serverSeq":1,"action":{"type":"chat/delta","turnId":"t1","partId":"p1","content":"x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var env ahpwire.ActionEnvelope
		if err := json.Unmarshal(data, &env); err == nil {
			for i, s := range bases {
				acts := Translate(env, s)
				out := ReduceAll(s, acts...)
				if i == 1 {
					// Deterministic and pure: the same input gives the same output.
					again := ReduceAll(s, Translate(env, s)...)
					if !reflect.DeepEqual(canonState(again), canonState(out)) {
						t.Fatalf("non-deterministic result for %s", data)
					}
				}
				// Translating again against the new state must also be safe.
				_ = ReduceAll(out, Translate(env, out)...)
				_ = ReduceAll(s, TranslateAction(env.Action, s)...)
			}
		}
		if cs, err := ahpwire.DecodeChatState(data); err == nil {
			p := Project(cs)
			for _, s := range bases[:2] {
				_ = Reattach(s, cs)
			}
			_ = canonState(p)
		}
	})
}

// TestFuzzCorpus checks the seed corpus covers every generated action type
// and the fixtures; -update-corpus regenerates it.
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzTranslate")
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
