package cli

import (
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	bolt "go.etcd.io/bbolt"
)

// The layout-1 fixture, which the real-process tests of the state
// database start from: the state directory's database as `ahptui serve`
// of commit 28459e1 (the end of an earlier stop, before lazy chats and
// persistent part lists) left it when it was killed with -9 mid-reply.
// testdata/upgrade/README.md says how it was made.
const (
	upgradeFixture = "testdata/upgrade/state-28459e1.db.gz"
	// upgradeLayout: three turns (a tool call, /demo edit's changeset with
	// cmd/app/main.go marked reviewed and a comment on it, /demo tools with
	// an approved edit_file diff).
	upgradeLayout = "2da90e06-4abf-417a-a065-dec3c369b506"
	// upgradeDenied: /demo tools with both approvals denied, renamed.
	upgradeDenied = "6230168a-38f5-4e4f-ad69-b2aa41a414b1"
)

// unpackUpgradeFixture writes the fixture's database into dir with the
// modification time its gzip header kept (when the old host last wrote it,
// as `gunzip -N` would) and returns that time.
func unpackUpgradeFixture(t *testing.T, dir string) time.Time {
	t.Helper()
	return unpackFixture(t, upgradeFixture, dir)
}

// unpackFixture is unpackUpgradeFixture for the fixture file.
func unpackFixture(t *testing.T, file, dir string) time.Time {
	t.Helper()
	f, err := os.Open(file)
	must(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	must(t, err)
	path := filepath.Join(dir, "state.db")
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	must(t, err)
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	must(t, out.Close())
	if zr.ModTime.IsZero() {
		t.Fatal("the fixture's gzip header has no time")
	}
	must(t, os.Chtimes(path, zr.ModTime, zr.ModTime))
	return zr.ModTime
}

// listedSessions is `ahptui sessions --json` by resource.
func (r *durableRig) listedSessions() map[string]map[string]any {
	r.t.Helper()
	got := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(r.run("sessions", r.url(), "--token", "tok-durable", "--json")), "\n") {
		var s map[string]any
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			r.t.Fatalf("sessions --json: %v: %q", err, line)
		}
		got[s["resource"].(string)] = s
	}
	return got
}

// upgradeManifest is what gen.sh recorded of a fixture it made (its
// state-COMMIT.json beside state-COMMIT.db.gz).
type upgradeManifest struct {
	Layout           string `json:"layout"`
	LayoutModifiedAt string `json:"layoutModifiedAt"`
	Denied           string `json:"denied"`
	DeniedModifiedAt string `json:"deniedModifiedAt"`
	Slow             string `json:"slow"`
	SlowLastLine     int    `json:"slowLastLine"` // the last line the exec client had
}

// storedSeq reads the last serverSeq the database at path committed.
func storedSeq(t *testing.T, path string) uint64 {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	must(t, err)
	defer db.Close()
	var seq uint64
	must(t, db.View(func(tx *bolt.Tx) error {
		seq = binary.BigEndian.Uint64(tx.Bucket([]byte("meta")).Get([]byte("seq")))
		return nil
	}))
	return seq
}

// TestServeOpensAnEarlierBuildsState: the current `serve` (a real process)
// on each database an earlier build wrote and was killed over
// (testdata/upgrade: 28459e1's, layout version 1, and later ones gen.sh
// made) shows every session with its title, status and real last change,
// every turn with its edit diff, denials, review mark and comment, and the
// turn the kill cut ended as interrupted at about the time of the kill;
// serverSeq continues from the file's, and a new turn appends after the
// old ones.
func TestServeOpensAnEarlierBuildsState(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	manifests, _ := filepath.Glob("testdata/upgrade/state-*.json")
	if len(manifests) < 2 {
		t.Fatalf("fixtures: %v", manifests)
	}
	for _, mf := range manifests {
		t.Run(strings.TrimSuffix(filepath.Base(mf), ".json"), func(t *testing.T) {
			b, err := os.ReadFile(mf)
			must(t, err)
			var m upgradeManifest
			must(t, json.Unmarshal(b, &m))
			testOpensEarlierState(t, strings.TrimSuffix(mf, ".json")+".db.gz", m)
		})
	}
}

func testOpensEarlierState(t *testing.T, fixture string, m upgradeManifest) {
	r := newDurableRig(t)
	killedAt := unpackFixture(t, fixture, r.state)
	fileSeq := storedSeq(t, filepath.Join(r.state, "state.db"))
	r.start()
	startedAt := time.Now()

	sessions := r.listedSessions()
	for id, want := range map[string][3]string{
		m.Layout: {"Explain the project layout", "idle", m.LayoutModifiedAt},
		m.Denied: {"Denied tools (renamed)", "idle", m.DeniedModifiedAt},
		m.Slow:   {"/demo slow 200", "error", ""},
	} {
		s := sessions["ahp-session:/"+id]
		if s == nil || s["title"] != want[0] || s["status"] != want[1] || (want[2] != "" && s["modifiedAt"] != want[2]) {
			t.Fatalf("session %s: %v, want title, status, modifiedAt %q", id, s, want)
		}
	}
	// The interrupted turn ends when the old host last wrote, not at this
	// start: its session is not "just now".
	slowMod, err := time.Parse(time.RFC3339Nano, sessions["ahp-session:/"+m.Slow]["modifiedAt"].(string))
	must(t, err)
	if slowMod.After(killedAt) || !slowMod.Before(startedAt) || killedAt.Sub(slowMod) > 5*time.Second {
		t.Fatalf("the interrupted session's last change is %v; the old host last wrote at %v, this one started at %v", slowMod, killedAt, startedAt)
	}

	layout := r.run("export", r.url(), "--token", "tok-durable", m.Layout)
	if n := strings.Count(layout, "## You\n"); n != 3 {
		t.Fatalf("%d turns exported, want 3:\n%s", n, layout)
	}
	for _, want := range []string{"Explain the project layout", "> tool Apply patch: completed", "`cmd/app/main.go` — modified, +4 −2",
		"> tool Edit file: completed", "`edit_file` | approved, +1 −0"} {
		if !strings.Contains(layout, want) {
			t.Fatalf("export lacks %q:\n%s", want, layout)
		}
	}
	if diff := editDiff(t, r.run("export", r.url(), "--token", "tok-durable", "--format", "json", m.Layout)); !strings.Contains(diff,
		"@@ -1,1 +1,2 @@\n+<!-- Reviewed by the ahptui demo agent (simulated edit). -->\n # upgrade fixture") {
		t.Fatalf("the edit's diff is not kept: %q", diff)
	}
	denied := r.run("export", r.url(), "--token", "tok-durable", m.Denied)
	for _, want := range []string{"# Denied tools (renamed)", "> tool Edit file: denied", "> tool Run command: denied", "Okay — I won't edit `README.md`"} {
		if !strings.Contains(denied, want) {
			t.Fatalf("export of the denied session lacks %q:\n%s", want, denied)
		}
	}
	slow := r.run("export", r.url(), "--token", "tok-durable", m.Slow)
	for n := 2; n <= m.SlowLastLine; n++ { // what the exec client had (line 1 is the heading)
		if !strings.Contains(slow, fmt.Sprintf("— line %d of 200\n", n)) {
			t.Fatalf("line %d of the interrupted reply is lost:\n%s", n, slow)
		}
	}
	if !strings.Contains(slow, "## A slow answer (200 lines)") || !strings.HasSuffix(slow, "> error: "+interruptedText+"\n\n_(error)_\n") {
		t.Fatalf("the interrupted reply:\n%s", slow)
	}

	// A WebSocket client: the review mark and the comment, and serverSeq
	// continuing from the file's.
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: r.url(), Token: "tok-durable", StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	cs, err := c.Subscribe(ctx, "ahp-changeset:/"+m.Layout+"/session", nil)
	must(t, err)
	var changes ahpwire.ChangesetState
	must(t, json.Unmarshal(cs.State, &changes))
	var reviewed []string
	for _, f := range changes.Files {
		if f.IsReviewed() {
			reviewed = append(reviewed, f.ID)
		}
	}
	if len(changes.Files) != 5 || len(reviewed) != 1 || !strings.HasSuffix(reviewed[0], "cmd/app/main.go") {
		t.Fatalf("changeset after the upgrade: %s", cs.State)
	}
	notes, err := c.Subscribe(ctx, ahpwire.AnnotationsURI("ahp-session:/"+m.Layout), nil)
	must(t, err)
	if !strings.Contains(string(notes.State), "Upgrade fixture comment on main.go") {
		t.Fatalf("the comment is lost: %s", notes.State)
	}
	chat := "ahp-chat:/" + m.Layout
	snap, err := c.Subscribe(ctx, chat, nil)
	must(t, err)
	if snap.FromSeq <= fileSeq {
		t.Fatalf("serverSeq %d after the upgrade; the file's is %d (the interruption mark comes after it)", snap.FromSeq, fileSeq)
	}

	more := r.run("exec", r.url(), "--token", "tok-durable", "--session", m.Layout, "What changed after the upgrade?")
	if !strings.Contains(more, "What changed after the upgrade?") {
		t.Fatalf("the new turn's answer: %q", more)
	}
	seqs := chatSeqs(ctx, t, c, chat)
	if len(seqs) == 0 || seqs[0] <= snap.FromSeq {
		t.Fatalf("the new turn's serverSeqs %v do not continue after %d", seqs, snap.FromSeq)
	}
	after := r.run("export", r.url(), "--token", "tok-durable", m.Layout)
	if !strings.HasPrefix(after, strings.TrimRight(layout, "\n")) || strings.Count(after, "## You\n") != 4 ||
		!strings.Contains(after[len(layout):], "What changed after the upgrade?") {
		t.Fatalf("the new turn does not follow the old ones:\n%s", after)
	}

	// The same after this build restarts on the file it now wrote.
	r.stop(syscall.SIGTERM)
	r.start()
	if again := r.run("export", r.url(), "--token", "tok-durable", m.Layout); again != after {
		t.Fatalf("export after a restart of the new build:\n%s\nwant:\n%s", again, after)
	}
}

// interruptedText is what a turn the host's stop cut says.
const interruptedText = "The host stopped while this reply was being written; what had arrived is kept. Resume to continue."

// editDiff returns the text of the edit_file call's content in an
// `export --format json` chat.
func editDiff(t *testing.T, exported string) string {
	t.Helper()
	var st ahpwire.ChatState
	must(t, json.Unmarshal([]byte(exported), &st))
	for _, turn := range st.Turns {
		for _, p := range turn.ResponseParts {
			if p.Kind != ahpwire.PartToolCall || p.ToolCall == nil || p.ToolCall.ToolName != "edit_file" {
				continue
			}
			raw, err := json.Marshal(p.ToolCall)
			must(t, err)
			var tc struct {
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			}
			must(t, json.Unmarshal(raw, &tc))
			var text string
			for _, c := range tc.Content {
				text += c.Text
			}
			return text
		}
	}
	return ""
}

// chatSeqs returns the serverSeqs of chat's envelopes c receives until its
// turn ends.
func chatSeqs(ctx context.Context, t *testing.T, c *ahpclient.Client, chat string) []uint64 {
	t.Helper()
	var seqs []uint64
	for {
		ev, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for the new turn's envelopes (got %v): %v", seqs, err)
		}
		env, ok := ev.(ahpclient.EnvelopeEvent)
		if !ok || env.Envelope.Channel != chat {
			continue
		}
		seqs = append(seqs, env.Envelope.ServerSeq)
		if _, done := env.Envelope.Action.(*ahpwire.ChatTurnComplete); done {
			return seqs
		}
	}
}

// TestServeRefusesANewerLayout: `serve` on a database whose layout version
// is newer than this build reads exits naming the file and the version,
// and leaves the file as it was (bytes and time).
func TestServeRefusesANewerLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	unpackUpgradeFixture(t, r.state)
	path := filepath.Join(r.state, "state.db")
	setLayoutVersion(t, path, 7)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	must(t, os.Chtimes(path, old, old))
	before, err := os.ReadFile(path)
	must(t, err)

	cmd := exec.Command(r.bin, "serve", "--addr", "127.0.0.1:0", "--state-dir", r.state, "--dir", r.proj)
	cmd.Env = r.env
	out, err := cmd.CombinedOutput()
	msg := string(out)
	if err == nil || !strings.Contains(msg, path) || !strings.Contains(msg, "layout version 7") || !strings.Contains(msg, "newer ahptui") ||
		!strings.Contains(msg, "has not changed it") {
		t.Fatalf("serve on a newer layout: %v\n%s", err, msg)
	}
	after, err := os.ReadFile(path)
	must(t, err)
	st, err := os.Stat(path)
	must(t, err)
	if string(after) != string(before) || !st.ModTime().Equal(old) {
		t.Fatalf("the refused database was written (same bytes %v, mtime %v)", string(after) == string(before), st.ModTime())
	}
}

// setLayoutVersion rewrites the layout version recorded in the database at
// path (bucket meta, key format), as a build with a newer layout would
// have written it.
func setLayoutVersion(t *testing.T, path string, version uint64) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	must(t, err)
	must(t, db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint64(nil, version))
	}))
	must(t, db.Close())
}
