package segment

import (
	"fmt"
	"strings"
	"testing"
)

// TestGuessedDataEnd checks frames whose ending `"}}` is not the end of the
// data string: Feed must treat them exactly as a full scan does.
func TestGuessedDataEnd(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"x","params":{"a":"b"}}`
	half := len(msg) / 3 * 3 / 2 / 3 * 3 // a multiple of 3: no carry between segments
	d0, d1 := b64(msg[:half]), b64(msg[half:])
	frame := func(params string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{` + params + `}}`)
	}
	t.Run("data not last", func(t *testing.T) {
		r := NewReassembler(Limits{}, nil)
		out := feedAll(t, r, [][]byte{
			frame(fmt.Sprintf(`"data":%q,"groupId":"g","index":0,"total":2,"note":"x"`, d0)),
			frame(fmt.Sprintf(`"groupId":"g","data":%q,"index":1,"total":2,"z":"\"}}"`, d1)),
		})
		if string(out) != msg {
			t.Fatalf("got %q", out)
		}
	})
	t.Run("escaped data last", func(t *testing.T) {
		r := NewReassembler(Limits{}, nil)
		enc := strings.ReplaceAll(b64(msg), "/", `\/`)
		enc = strings.Replace(enc, "A", `\u0041`, 1)
		out := feedAll(t, r, [][]byte{frame(fmt.Sprintf(`"groupId":"g","index":0,"total":1,"data":"%s"`, enc))})
		if string(out) != msg {
			t.Fatalf("got %q", out)
		}
	})
	t.Run("duplicate data after a guessable end", func(t *testing.T) {
		// A wrong guess must not act on the table: the exact scan sees the
		// duplicate member (envelope rule), not a duplicate group.
		expectRule(t, Limits{}, RuleEnvelope,
			frame(fmt.Sprintf(`"groupId":"g","index":0,"total":2,"data":%q`, d0)),
			frame(fmt.Sprintf(`"groupId":"g","index":0,"total":2,"data":%q,"data":%q`, d0, d0)))
	})
	t.Run("wrong guess gives the exact rule", func(t *testing.T) {
		r := NewReassembler(Limits{}, nil)
		if _, err := r.Feed(frame(fmt.Sprintf(`"groupId":"g","index":0,"total":2,"data":%q`, d0))); err != nil {
			t.Fatal(err)
		}
		// Index 0 again: a duplicate group; the data end is guessable but
		// wrong, so the violation comes from the exact scan.
		_, err := r.Feed(frame(fmt.Sprintf(`"groupId":"g","index":0,"data":%q,"total":2,"x":"y"`, d0)))
		if rule, ok := RuleOf(err); !ok || rule != RuleDuplicateGroup {
			t.Fatalf("got %v", err)
		}
		if r.Pending() != 0 {
			t.Fatalf("group kept after a duplicate group violation")
		}
	})
	t.Run("invalid base64 with guessable end", func(t *testing.T) {
		expectRule(t, Limits{}, RuleData, frame(`"groupId":"g","index":0,"total":1,"data":"QUJ!"`))
	})
}
