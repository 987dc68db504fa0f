package ahphost

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// rssAfterRestart starts a real `ahptui serve` on the state directory
// state, lists its sessions (want of them), opens the chat of one and
// returns the process's memory (bytes) from /proc: VmRSS, VmHWM, RssAnon.
func rssAfterRestart(t *testing.T, state string, want int, chat string) (rss, hwm, anon int64) {
	t.Helper()
	u, sp, stderr := startServeProcess(t, "--without-connection-token", "--pace", "0", "--state-dir", state, "--log-level", "error")
	w := dial(t, u, nil)
	w.initialize("rss", nil, nil)
	var list struct {
		Items []ahpwire.SessionSummary `json:"items"`
	}
	must(t, json.Unmarshal(w.call("listSessions", map[string]any{"limit": 1000}), &list))
	if len(list.Items) != want {
		t.Fatalf("listSessions after restart: %d sessions, want %d", len(list.Items), want)
	}
	if st := readChat(t, w, chat, 1000); len(st.Turns) == 0 {
		t.Fatalf("the opened chat has no turns; stderr:\n%s", stderr.String())
	}
	pid := sp.Process.Pid
	rss, hwm, anon = procStatusKB(pid, "VmRSS")<<10, procStatusKB(pid, "VmHWM")<<10, procStatusKB(pid, "RssAnon")<<10
	w.close()
	_ = sp.Process.Signal(os.Interrupt)
	_ = sp.wait()
	return rss, hwm, anon
}

// TestDurableRSSFlatAcrossDBSize: a real serve process restarted on a
// database of N sessions with a few MB of chat each, then on one with
// four times as much chat in as many sessions, lists the sessions and
// opens one chat (the same in both): its peak memory does not follow the
// database's size.
// The bound is in bytes (no clock): going from 1× to 4× may add at most a
// quarter of the extra data, where loading every chat at start (as the
// host did) adds more than all of it. The sessions themselves (their
// summaries are the session list) stay in memory; their number is the
// same in both. Numbers and command: docs/BENCHMARKS.md, issue 28.
func TestDurableRSSFlatAcrossDBSize(t *testing.T) {
	sessions, turns, turnBytes := 50, 10, 50<<10 // 0.5 MB of chat per session at 1×
	if testing.Short() || raceEnabled {
		sessions = 20 // the race detector slows the seeding ten times
	}
	if v := os.Getenv("AHPTUI_RSS_SESSIONS"); v != "" {
		n, err := strconv.Atoi(v)
		must(t, err)
		sessions = n
	}
	type size struct {
		db             int64
		rss, hwm, anon int64
	}
	var got []size
	for _, mult := range []int{1, 4} {
		state := t.TempDir()
		h, _ := startDurable(t, state, Options{})
		for i := 0; i < sessions; i++ {
			_, err := h.SeedSession(fmt.Sprintf("ahp-session:/rss%04d", i), SyntheticTurns(turns*mult, turnBytes))
			must(t, err)
		}
		// The chat the client opens is the same in both.
		chat, err := h.SeedSession("ahp-session:/opened", SyntheticTurns(turns, turnBytes))
		must(t, err)
		must(t, h.Close())
		db, err := durable.Open(state)
		must(t, err)
		dbSize := db.Size()
		must(t, db.Close())
		st, err := os.Stat(filepath.Join(state, durable.FileName))
		must(t, err)
		rss, hwm, anon := rssAfterRestart(t, state, sessions+1, chat)
		got = append(got, size{db: dbSize, rss: rss, hwm: hwm, anon: anon})
		t.Logf("%d×: %d sessions, database %.1f MB (a %.1f MB file): VmRSS %.1f MB, VmHWM %.1f MB, RssAnon %.1f MB",
			mult, sessions, mb(dbSize), mb(st.Size()), mb(rss), mb(hwm), mb(anon))
	}
	extra := got[1].db - got[0].db
	t.Logf("4× ÷ 1×: database %.2f, VmRSS %.2f, VmHWM %.2f, RssAnon %.2f", float64(got[1].db)/float64(got[0].db),
		float64(got[1].rss)/float64(got[0].rss), float64(got[1].hwm)/float64(got[0].hwm), float64(got[1].anon)/float64(got[0].anon))
	if grew := got[1].hwm - got[0].hwm; grew > extra/4 {
		t.Fatalf("peak RSS grew by %.1f MB for %.1f MB more in the database (bound: a quarter of it)", mb(grew), mb(extra))
	}
}

// mb is n bytes in MB.
func mb(n int64) float64 { return float64(n) / 1e6 }

// TestDurablePagesFromDisk: the pages of a long reply streamed by a
// durable host are written to its database, the host keeps at most its
// resource budget of them in memory (no spill files), and after a restart
// (nothing in memory) a client pages the reply in whole.
func TestDurablePagesFromDisk(t *testing.T) {
	state := t.TempDir()
	opts := Options{LargePartBytes: 4000, ResourcePageBytes: 1500, ResourceBudget: 16 << 10}
	h, u := startDurable(t, state, opts)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/pages")
	rawChat(t, w, chat)
	runTurn(t, w, chat, "t1", "/demo big 200k", 1)
	waitUntil(t, "the pages evicted from memory once written", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.st.persist.kick()
		r := &h.st.ext.resources
		return r.bytes <= opts.ResourceBudget+opts.ResourcePageBytes && r.spill.dir == "" && r.stored > 0
	})
	w.close()
	must(t, h.Close())

	h2, u2 := startDurable(t, state, opts)
	late := dial(t, u2, nil)
	late.initialize("late", nil, nil)
	paged, _ := mirrorChat(t, late, chat)
	paged = pageIn(t, late, chat, paged)
	if len(paged.Turns) != 1 {
		t.Fatalf("%d turns after restart", len(paged.Turns))
	}
	md, _ := textOf(t, late, paged.Turns[0])
	if len(md) != 200<<10 {
		t.Fatalf("the reply pages in as %d bytes after restart, want %d", len(md), 200<<10)
	}
	h2.mu.Lock()
	held := h2.st.ext.resources.bytes
	h2.mu.Unlock()
	if held != 0 {
		t.Fatalf("reading the pages put %d bytes in memory", held)
	}
}

// TestReplyTailReadsPages: the end of a reply handed to a resumed turn's
// agent (Turn.ReplyTail) comes from its last pages when the reply was
// stored as pages, read back from the database.
func TestReplyTailReadsPages(t *testing.T) {
	opts := Options{LargePartBytes: 4000, ResourcePageBytes: 1500, ResourceBudget: 4 << 10}
	h, u := startDurable(t, t.TempDir(), opts)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	chat := w.createSession("ahp-session:/tail")
	rawChat(t, w, chat)
	runTurn(t, w, chat, "t1", "/demo big 200k", 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	ce := h.st.chats[chat]
	at := &ahpwire.ActiveTurn{ResponseParts: ahpwire.Parts{}.Append(ce.state.Turns[0].ResponseParts...)}
	tail := h.st.replyTail(at, true)
	if len(tail) < 900 || len(tail) > 1000 || !strings.HasSuffix(tail, "-- end of 204800 bytes --") {
		t.Fatalf("reply tail of %d bytes: ...%q", len(tail), tail[max(0, len(tail)-60):])
	}
	if h.st.replyTail(at, false) != "" {
		t.Fatal("a new turn has a reply tail")
	}
}

// TestDurableBigRepliesRSS (run with AHPTUI_BIG_REPLIES=N, e.g. 20): a
// real durable serve streams N replies of 8 MB into one chat a client
// follows, then reports its memory; the replies' pages are in the
// database, at most 16 MiB of them in memory. Numbers: docs/BENCHMARKS.md.
func TestDurableBigRepliesRSS(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("AHPTUI_BIG_REPLIES"))
	if n <= 0 {
		t.Skip("AHPTUI_BIG_REPLIES=N runs it")
	}
	for _, mode := range []string{"--state-dir", "--ephemeral"} {
		args := []string{"--without-connection-token", "--pace", "0", "--log-level", "error", mode}
		if mode == "--state-dir" {
			args = append(args, t.TempDir())
		}
		u, sp, _ := startServeProcess(t, args...)
		w := dial(t, u, nil)
		w.initialize("big", nil, nil)
		chat := w.createSession("ahp-session:/big")
		rawChat(t, w, chat)
		for i := 0; i < n; i++ {
			runTurn(t, w, chat, fmt.Sprintf("t%d", i), "/demo big 8m", uint64(i+1))
		}
		pid := sp.Process.Pid
		t.Logf("%s: %d replies of 8 MB: VmRSS %.1f MB, VmHWM %.1f MB, RssAnon %.1f MB", mode, n,
			mb(procStatusKB(pid, "VmRSS")<<10), mb(procStatusKB(pid, "VmHWM")<<10), mb(procStatusKB(pid, "RssAnon")<<10))
		w.close()
		_ = sp.Process.Signal(os.Interrupt)
		_ = sp.wait()
	}
}
