package ahphost

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/internal/testkit"
)

// TestOversizeNotificationDropIsLogged: a notification too large for a
// client without chunking is dropped with one warning that names the
// method, the serverSeq, the size and the limit, and carries neither the
// payload nor the connection token.
func TestOversizeNotificationDropIsLogged(t *testing.T) {
	const token = "tok-SECRET-4711"
	var logs testkit.SyncBuffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, u := startHost(t, Options{Token: token, MaxFrameBytes: 64 * kib, Logger: log})
	w := dial(t, u, nil)
	w.initialize("plain", nil, nil)
	chat := w.createSession("ahp-session:/s1")
	readChat(t, w, chat, 0)
	const size = 200 * kib
	w.sendMessage(chat, "t1", "/demo big 200k", 1)
	w.actionOfType(chat, "chat/turnComplete")
	for _, e := range w.seen {
		if e.typ() == "chat/delta" {
			t.Fatalf("oversized delta delivered (%d bytes)", len(e.Action))
		}
	}

	type record struct {
		Msg       string `json:"msg"`
		Level     string `json:"level"`
		Method    string `json:"method"`
		ServerSeq uint64 `json:"serverSeq"`
		Size      int64  `json:"size"`
		Limit     int64  `json:"limit"`
	}
	var drops []record
	var dropLines []string
	all := logs.String()
	for _, line := range strings.Split(strings.TrimSpace(all), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line is not JSON: %v\n%s", err, clip([]byte(line)))
		}
		if r.Msg == "dropping notification too large for client" {
			drops = append(drops, r)
			dropLines = append(dropLines, line)
		}
	}
	if len(drops) != 1 {
		t.Fatalf("%d drop records, want 1; logs:\n%s", len(drops), clip([]byte(all)))
	}
	r := drops[0]
	if r.Level != "WARN" || r.Method != "action" || r.ServerSeq == 0 || r.Limit != 64*kib ||
		r.Size <= size || r.Size > size+4*kib {
		t.Fatalf("drop record %+v; line %s", r, dropLines[0])
	}
	// No payload and no token, in the drop record or anywhere in the logs.
	if len(dropLines[0]) > 1024 {
		t.Fatalf("drop record is %d bytes long (payload logged?): %s", len(dropLines[0]), clip([]byte(dropLines[0])))
	}
	for _, secret := range []string{
		token,
		"SECRET",
		"-- end of 204800 bytes --",       // the reply's last line
		"A reply of exactly 204800 bytes", // its header
		"chat/delta",                      // the envelope itself
		`"content"`,
	} {
		if strings.Contains(all, secret) {
			t.Fatalf("logs contain %q:\n%s", secret, clip([]byte(all)))
		}
	}
}
