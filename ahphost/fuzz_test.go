package ahphost

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// FuzzHandleFrames feeds newline-separated frames, after a valid
// initialize and createSession, through the host's message handling
// (decode, dispatch, validation, reducers). Nothing may panic and every
// queued outbound message must be valid JSON. Seeds: testdata/fuzz/FuzzHandleFrames.
func FuzzHandleFrames(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"channel":"ahp-root://"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":"ahp-chat:/f","clientSeq":1,"action":{"type":"chat/turnStarted","turnId":"t","message":{"text":"hi","origin":{"kind":"user"}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := New(Options{NoToken: true, Dir: t.TempDir(), Agent: idleAgent{}})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		c := &conn{h: h, q: newOutQueue(1 << 30), subs: make(map[string]subscription)}
		c.ctx, c.cancel = context.WithCancel(h.ctx)
		defer c.cancel()
		c.handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"channel":"ahp-root://","protocolVersions":["1.0.0"],"clientId":"fz","initialSubscriptions":["ahp-root://"]}}`))
		c.handle([]byte(`{"jsonrpc":"2.0","id":2,"method":"createSession","params":{"channel":"ahp-session:/f"}}`))
		c.handle([]byte(`{"jsonrpc":"2.0","id":3,"method":"subscribe","params":{"channel":"ahp-chat:/f"}}`))
		for _, frame := range bytes.Split(data, []byte("\n")) {
			c.handle(frame)
		}
		for {
			m, ok := c.q.popIf(func(*outMsg) bool { return true })
			if !ok {
				break
			}
			if m.deferred != nil {
				m.data = joinAnswer(c.buildDeferred(&m))
			}
			if !json.Valid(m.data) {
				t.Fatalf("invalid JSON queued: %q", m.data)
			}
		}
	})
}

// FuzzParsers checks the small text parsers never panic and are consistent.
func FuzzParsers(f *testing.F) {
	for _, s := range []string{"1.0.0", "0.9.12", "01.0.0", "1.0", "64k", "16m", "900000", "", "-1", "czoxMg"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if maj, minor, patch, ok := parseSemver(s); ok && (maj < 0 || minor < 0 || patch < 0) {
			t.Fatalf("negative version from %q", s)
		}
		if v, ok := negotiateVersion([]string{s}); ok && v != s {
			t.Fatalf("negotiated %q from %q", v, s)
		}
		if n, ok := decodeCursor(s, "s"); ok {
			if encodeCursor("s", n) != s && n >= 0 {
				// Non-canonical encodings may decode; they must still be valid.
				if _, ok2 := decodeCursor(encodeCursor("s", n), "s"); !ok2 {
					t.Fatalf("cursor %d does not round-trip", n)
				}
			}
		}
	})
}
