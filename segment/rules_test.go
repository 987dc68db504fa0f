package segment

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// b64 encodes s.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// expectRule feeds frames to a fresh Reassembler with limits l; every frame
// but the last must be accepted, the last must fail with rule want.
func expectRule(t *testing.T, l Limits, want Rule, frames ...[]byte) *Reassembler {
	t.Helper()
	r := NewReassembler(l, newClock().now)
	for i, f := range frames[:len(frames)-1] {
		if _, err := r.Feed(f); err != nil {
			t.Fatalf("frame %d: unexpected error %v", i, err)
		}
	}
	out, err := r.Feed(frames[len(frames)-1])
	if err == nil {
		t.Fatalf("want %v, got message %q", want, out)
	}
	if out != nil {
		t.Fatalf("message returned together with error %v", err)
	}
	var v *ViolationError
	if !errors.As(err, &v) || v.Rule != want {
		t.Fatalf("want rule %q, got %v", want, err)
	}
	if !errors.Is(err, ErrViolation) {
		t.Fatalf("errors.Is(err, ErrViolation) is false for %v", err)
	}
	if got, ok := RuleOf(err); !ok || got != want {
		t.Fatalf("RuleOf = %v, %v", got, ok)
	}
	if !strings.Contains(err.Error(), CloseReason) {
		t.Fatalf("error %q does not mention %q", err, CloseReason)
	}
	return r
}

const okMsg = `{"jsonrpc":"2.0","method":"x","params":{}}`

func TestRuleEnvelope(t *testing.T) {
	cases := map[string]string{
		"params array":       `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":[1]}`,
		"params missing":     `{"jsonrpc":"2.0","method":"ahp/messageSegment"}`,
		"has id":             `{"jsonrpc":"2.0","id":1,"method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""}}`,
		"wrong version":      `{"jsonrpc":"1.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""}}`,
		"no version":         `{"method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""}}`,
		"truncated":          `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","ind`,
		"trailing junk":      `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""}} x`,
		"dup method":         `{"jsonrpc":"2.0","method":"ahp/messageSegment","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""}}`,
		"dup data":           `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":"","data":""}}`,
		"other method after": `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""},"method":"ping"}`,
		"folded method":      `{"jsonrpc":"2.0","method":"ahp/messageSegment","Method":"ping","params":{"groupId":"g","index":0,"total":1,"data":""}}`,
		"dup jsonrpc":        `{"jsonrpc":"2.0","jsonrpc":"1.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""}}`,
		"dup params":         `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":""},"params":{}}`,
		"dup groupId":        `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","groupId":"h","index":0,"total":1,"data":""}}`,
		"dup index":          `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"index":1,"total":1,"data":""}}`,
		"dup total":          `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"total":2,"data":""}}`,
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) { expectRule(t, DefaultLimits(), RuleEnvelope, []byte(f)) })
	}
}

func TestRuleGroupID(t *testing.T) {
	cases := map[string]string{
		"missing":    `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"index":0,"total":1,"data":""}}`,
		"empty":      string(segFrame("", 0, 1, "")),
		"too long":   string(segFrame(strings.Repeat("g", MaxGroupIDBytes+1), 0, 1, "")),
		"not string": `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":7,"index":0,"total":1,"data":""}}`,
		"escaped to 129 bytes": `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"` +
			strings.Repeat(`\u00e9`, 65) + `","index":0,"total":1,"data":""}}`,
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) { expectRule(t, DefaultLimits(), RuleGroupID, []byte(f)) })
	}
	// 128 bytes exactly is fine.
	r := NewReassembler(DefaultLimits(), nil)
	if _, err := r.Feed(segFrame(strings.Repeat("g", MaxGroupIDBytes), 0, 2, b64("ab"))); err != nil {
		t.Fatalf("128-byte groupId rejected: %v", err)
	}
}

func TestRuleIndex(t *testing.T) {
	for name, idx := range map[string]string{
		"negative": "-1", "fraction": "1.5", "string": `"0"`, "2^31": "2147483648", "huge": "1e300", "null": "null",
	} {
		t.Run(name, func(t *testing.T) {
			f := `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":` + idx + `,"total":3,"data":""}}`
			expectRule(t, DefaultLimits(), RuleIndex, []byte(f))
		})
	}
	t.Run("missing", func(t *testing.T) {
		expectRule(t, DefaultLimits(), RuleIndex,
			[]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","total":3,"data":""}}`))
	})
	// Integral numbers in other spellings are accepted.
	r := NewReassembler(DefaultLimits(), nil)
	if _, err := r.Feed([]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0.0,"total":2e0,"data":""}}`)); err != nil {
		t.Fatalf("index 0.0 / total 2e0 rejected: %v", err)
	}
}

func TestRuleIndexNotBelowTotal(t *testing.T) {
	expectRule(t, DefaultLimits(), RuleIndexNotBelowTotal, segFrame("g", 3, 3, ""))
}

func TestRuleIndexOrder(t *testing.T) {
	t.Run("new group not at 0", func(t *testing.T) {
		expectRule(t, DefaultLimits(), RuleIndexOrder, segFrame("g", 1, 3, ""))
	})
	t.Run("gap", func(t *testing.T) {
		r := expectRule(t, DefaultLimits(), RuleIndexOrder, segFrame("g", 0, 3, "QUJD"), segFrame("g", 2, 3, "QUJD"))
		if r.Pending() != 0 {
			t.Fatal("violating group kept")
		}
	})
	t.Run("repeat", func(t *testing.T) {
		expectRule(t, DefaultLimits(), RuleIndexOrder, segFrame("g", 0, 3, "QUJD"), segFrame("g", 1, 3, "QUJD"), segFrame("g", 1, 3, "QUJD"))
	})
}

func TestRuleTotal(t *testing.T) {
	for name, total := range map[string]string{
		"zero": "0", "2^16": "65536", "negative": "-2", "fraction": "2.5", "string": `"2"`,
	} {
		t.Run(name, func(t *testing.T) {
			f := `{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":` + total + `,"data":""}}`
			expectRule(t, DefaultLimits(), RuleTotal, []byte(f))
		})
	}
	t.Run("missing", func(t *testing.T) {
		expectRule(t, DefaultLimits(), RuleTotal,
			[]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"data":""}}`))
	})
	r := NewReassembler(DefaultLimits(), nil)
	if _, err := r.Feed(segFrame("g", 0, MaxTotal-1, "QUJD")); err != nil {
		t.Fatalf("total 65535 rejected: %v", err)
	}
}

func TestRuleTotalChanged(t *testing.T) {
	expectRule(t, DefaultLimits(), RuleTotalChanged, segFrame("g", 0, 3, "QUJD"), segFrame("g", 1, 4, "QUJD"))
}

func TestRuleData(t *testing.T) {
	cases := map[string][][]byte{
		"missing":              {[]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1}}`)},
		"not a string":         {[]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":1,"data":12}}`)},
		"bad alphabet":         {segFrame("g", 0, 2, "QU*D")},
		"url alphabet":         {segFrame("g", 0, 2, "QU-_")},
		"padding first":        {segFrame("g", 0, 2, "QQ==QUJD")},
		"raw newline":          {[]byte("{\"jsonrpc\":\"2.0\",\"method\":\"ahp/messageSegment\",\"params\":{\"groupId\":\"g\",\"index\":0,\"total\":2,\"data\":\"QUJD\nQUJD\"}}")},
		"bad escape":           {[]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":2,"data":"QUJD\x"}}`)},
		"escape to non-base64": {[]byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":2,"data":"QUJ\n"}}`)},
		"ends mid-quantum":     {segFrame("g", 0, 2, "QUJD"), segFrame("g", 1, 2, "QUJ")},
		"padding then more":    {segFrame("g", 0, 3, "QUI"), segFrame("g", 1, 3, "=QUJD")},
	}
	for name, frames := range cases {
		t.Run(name, func(t *testing.T) { expectRule(t, DefaultLimits(), RuleData, frames...) })
	}
}

func TestRuleSegmentTooLarge(t *testing.T) {
	l := Limits{MaxFrameBytes: 90, MaxMessageBytes: 1000}
	expectRule(t, l, RuleSegmentTooLarge, segFrame("g", 0, 2, b64(strings.Repeat("a", 93))))
	// Exactly the limit is fine (the frame itself is the transport's business).
	r := NewReassembler(l, nil)
	if _, err := r.Feed(segFrame("g", 0, 2, b64(strings.Repeat("a", 90)))); err != nil {
		t.Fatalf("90 decoded bytes rejected: %v", err)
	}
}

func TestRuleMessageTooLarge(t *testing.T) {
	l := Limits{MaxFrameBytes: 100, MaxMessageBytes: 200}
	seg := b64(strings.Repeat("a", 99))
	r := expectRule(t, l, RuleMessageTooLarge, segFrame("g", 0, 3, seg), segFrame("g", 1, 3, seg), segFrame("g", 2, 3, seg))
	if r.Pending() != 0 || r.Buffered() != 0 {
		t.Fatal("violating group kept")
	}
}

func TestRuleTooManyGroups(t *testing.T) {
	l := Limits{MaxGroups: 2}
	r := expectRule(t, l, RuleTooManyGroups, segFrame("a", 0, 2, "QUJD"), segFrame("b", 0, 2, "QUJD"), segFrame("c", 0, 2, "QUJD"))
	if r.Pending() != 2 {
		t.Fatalf("pending = %d, want the 2 earlier groups", r.Pending())
	}
}

func TestRuleInvalidUTF8(t *testing.T) {
	expectRule(t, DefaultLimits(), RuleInvalidUTF8, segFrame("g", 0, 1, b64(`{"jsonrpc":"2.0","method":"x","params":{"t":"`+"\xff\xfe"+`"}}`)))
}

func TestRuleInvalidJSONRPC(t *testing.T) {
	for name, msg := range map[string]string{
		"empty":            ``,
		"not json":         `hello`,
		"truncated":        `{"jsonrpc":"2.0","method":"x"`,
		"batch":            `[` + okMsg + `]`,
		"no version":       `{"method":"x"}`,
		"version 1":        `{"jsonrpc":"1.0","method":"x"}`,
		"method number":    `{"jsonrpc":"2.0","method":1}`,
		"params string":    `{"jsonrpc":"2.0","method":"x","params":"p"}`,
		"no method no id":  `{"jsonrpc":"2.0","result":1}`,
		"result and error": `{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}`,
		"neither":          `{"jsonrpc":"2.0","id":1}`,
		"error not object": `{"jsonrpc":"2.0","id":1,"error":5}`,
		"id object":        `{"jsonrpc":"2.0","id":{},"method":"x"}`,
		"duplicate method": `{"jsonrpc":"2.0","method":"x","method":"y"}`,
		"two objects":      okMsg + okMsg,
		"control in text":  "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"a\x01b\"}}",
	} {
		t.Run(name, func(t *testing.T) {
			expectRule(t, DefaultLimits(), RuleInvalidJSONRPC, segFrame("g", 0, 1, b64(msg)))
		})
	}
}

func TestRuleNestedSegment(t *testing.T) {
	inner := string(segFrame("h", 0, 1, b64(okMsg)))
	expectRule(t, DefaultLimits(), RuleNestedSegment, segFrame("g", 0, 1, b64(inner)))
}

func TestRuleDuplicateGroup(t *testing.T) {
	r := expectRule(t, DefaultLimits(), RuleDuplicateGroup, segFrame("g", 0, 3, "QUJD"), segFrame("g", 0, 3, "QUJD"))
	if r.Pending() != 0 {
		t.Fatal("violating group kept")
	}
}

func TestRuleStrings(t *testing.T) {
	seen := map[string]bool{}
	for r := RuleEnvelope; r <= RuleBudgetExceeded; r++ {
		s := r.String()
		if s == "" || strings.HasPrefix(s, "rule(") || seen[s] {
			t.Fatalf("rule %d has no distinct name: %q", int(r), s)
		}
		seen[s] = true
	}
	if Rule(99).String() != "rule(99)" {
		t.Fatal("unknown rule name")
	}
}
