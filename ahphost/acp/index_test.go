package acp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// rec is a test record created at second n.
func rec(who string, n int) indexRecord {
	return indexRecord{URI: fmt.Sprintf("acp:/%s-%d", who, n), ACPID: fmt.Sprintf("%s-%d", who, n), Dir: "/w",
		CreatedAt: fmt.Sprintf("2026-01-01T00:%02d:%02d.000Z", n/60%60, n%60)}
}

func mustOpen(t *testing.T, dir string) *index {
	t.Helper()
	ix, err := openIndex(dir, "agent")
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// uris returns the URIs of recs as a set.
func uris(recs []indexRecord) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		out[r.URI] = true
	}
	return out
}

// Two indexes on one state directory (two host processes) keep each
// other's records: each save re-reads the file under the lock and applies
// only its own changes; reads see the other's saves; a removal by one is
// not undone by the other's next save; titles go to the other's records.
func TestIndexSharedByTwoInstances(t *testing.T) {
	dir := t.TempDir()
	a, b := mustOpen(t, dir), mustOpen(t, dir)
	a.put(rec("a", 1))
	b.put(rec("b", 2))
	a.put(rec("a", 3))
	if got := uris(mustOpen(t, dir).list()); len(got) != 3 || !got["acp:/a-1"] || !got["acp:/b-2"] || !got["acp:/a-3"] {
		t.Fatalf("file after two writers: %v", got)
	}
	if r, ok := a.get("acp:/b-2"); !ok || r.ACPID != "b-2" {
		t.Fatalf("a cannot load b's session: %+v %v", r, ok)
	}
	if got := uris(b.list()); len(got) != 3 {
		t.Fatalf("b lists %v", got)
	}
	b.remove("acp:/a-1")
	a.put(rec("a", 4))
	if got := uris(mustOpen(t, dir).list()); got["acp:/a-1"] || len(got) != 3 {
		t.Fatalf("a's save brought back what b removed: %v", got)
	}
	b.setTitle("acp:/a-4", "from b")
	a.put(indexRecord{URI: "acp:/a-4", ACPID: "a-4", Dir: "/w", CreatedAt: rec("a", 4).CreatedAt}) // no title: keeps b's
	if r, _ := mustOpen(t, dir).get("acp:/a-4"); r.Title != "from b" {
		t.Fatalf("title %q", r.Title)
	}
}

// The bound holds across writers: the newest maxIndex records are kept.
func TestIndexBoundAcrossInstances(t *testing.T) {
	dir := t.TempDir()
	var seed []indexRecord
	for i := range maxIndex - 1 {
		seed = append(seed, rec("seed", i))
	}
	if _, err := writeIndex(filepath.Join(dir, "acp-agent.json"), seed); err != nil {
		t.Fatal(err)
	}
	a, b := mustOpen(t, dir), mustOpen(t, dir)
	a.put(rec("a", 1000))
	b.put(rec("b", 1001))
	a.put(rec("a", 1002))
	got := mustOpen(t, dir).list()
	if len(got) != maxIndex || got[0].URI != "acp:/a-1002" || got[2].URI != "acp:/a-1000" || got[maxIndex-1].URI != "acp:/seed-2" {
		t.Fatalf("%d records, newest %s, oldest %s", len(got), got[0].URI, got[len(got)-1].URI)
	}
}

// Concurrent writers on one file lose nothing.
func TestIndexConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := range 4 {
		ix := mustOpen(t, dir)
		wg.Go(func() {
			for i := range 40 {
				ix.put(rec("w"+strconv.Itoa(w), i))
			}
		})
	}
	wg.Wait()
	if got := mustOpen(t, dir).list(); len(got) != 160 {
		t.Fatalf("%d records of 160", len(got))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// indexWriterEnv names the state directory a child test process writes
// records to (TestIndexAcrossProcesses).
const indexWriterEnv = "ACP_TEST_INDEX_WRITER"

// TestIndexWriterChild is the child of TestIndexAcrossProcesses.
func TestIndexWriterChild(t *testing.T) {
	dir := os.Getenv(indexWriterEnv)
	if dir == "" {
		t.Skip("run by TestIndexAcrossProcesses")
	}
	ix := mustOpen(t, dir)
	for i := range 60 {
		ix.put(rec("p"+os.Getenv(indexWriterEnv+"_ID"), i))
	}
}

// Two processes and this one writing the same index at once lose nothing.
func TestIndexAcrossProcesses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for id := range 2 {
		cmd := exec.Command(exe, "-test.run=^TestIndexWriterChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), indexWriterEnv+"="+dir, indexWriterEnv+"_ID="+strconv.Itoa(id))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	ix := mustOpen(t, dir)
	for i := range 60 {
		ix.put(rec("parent", i))
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child: %v", err)
		}
	}
	if got := mustOpen(t, dir).list(); len(got) != 180 {
		t.Fatalf("%d records of 180", len(got))
	}
}

// A session index far larger than any this package writes is not decoded
// (a 1.17 GB one took the host's memory at start): openIndex says so and
// starts empty.
func TestIndexHugeFileIgnored(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("[")
	title := strings.Repeat("t", 1000)
	for i := 0; b.Len() <= maxIndexBytes; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"uri":"ahp-session:/%d","acpSessionId":"%d","dir":"/w","title":%q,"createdAt":"2026-01-01T00:00:00.000Z"}`, i, i, title)
	}
	b.WriteString("]")
	if err := os.WriteFile(filepath.Join(dir, "acp-agent.json"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	ix, err := openIndex(dir, "agent")
	if err == nil || !strings.Contains(err.Error(), "ignored") {
		t.Fatalf("openIndex of a %d-byte index: %v", b.Len(), err)
	}
	if len(ix.list()) != 0 {
		t.Fatalf("records from a huge file: %d", len(ix.list()))
	}
}
