package durable

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestLogAppendLeavesSnapshot: appending to a channel's log does not
// rewrite its snapshot. Format 1 kept the snapshot beside the log bucket
// in one leaf, so every commit of a streaming chat wrote the whole chat
// again (the cost of a reply grew with the chat).
func TestLogAppendLeavesSnapshot(t *testing.T) {
	d, err := Open(t.TempDir())
	must(t, err)
	defer d.Close()
	const chat = "ahp-chat:/a"
	state := bytes.Repeat([]byte("x"), 2<<20)
	b := &Batch{Seq: 1}
	b.Snapshot(chat, 1, []byte(`{}`), state)
	must(t, d.Commit(b))
	for seq := uint64(2); seq < 12; seq++ {
		w := d.Written()
		b := &Batch{Seq: seq}
		b.Append(chat, seq, []byte(`{"delta":"some text"}`))
		must(t, d.Commit(b))
		if n := d.Written() - w; n > 64<<10 {
			t.Fatalf("commit %d of one small envelope wrote %d bytes (the snapshot is %d)", seq, n, len(state))
		}
	}
	ch, ok, err := d.Channel(chat)
	must(t, err)
	if !ok || !bytes.Equal(ch.State, state) || len(ch.Log) != 10 {
		t.Fatalf("read back: ok %v, state %d bytes, %d envelopes", ok, len(ch.State), len(ch.Log))
	}
}

// TestLongLogRecords: records longer than a log value (logChunk) are
// split and read back whole and in order, among short ones; a long
// record's commit writes about its own size, not the records before it.
func TestLongLogRecords(t *testing.T) {
	d, err := Open(t.TempDir())
	must(t, err)
	defer d.Close()
	const chat = "ahp-chat:/a"
	var want [][]byte
	for seq := uint64(1); seq <= 8; seq++ {
		b := &Batch{Seq: seq}
		env := bytes.Repeat([]byte{byte('a' + seq)}, int(seq)*40<<10) // 40 KB … 320 KB
		b.Append(chat, seq, env)
		want = append(want, env)
		if seq%3 == 0 {
			short := []byte(`{"n":` + string(rune('0'+seq)) + `}`)
			b.Append(chat, seq, short) // the same record
			want = append(want, short)
		}
		w := d.Written()
		must(t, d.Commit(b))
		if n := d.Written() - w; n > int64(len(env))+3*logChunk+64<<10 {
			t.Fatalf("commit %d of %d bytes wrote %d", seq, len(env), n)
		}
	}
	ch, ok, err := d.Channel(chat)
	must(t, err)
	if !ok || len(ch.Log) != len(want) {
		t.Fatalf("read %d envelopes, want %d", len(ch.Log), len(want))
	}
	for i := range want {
		if !bytes.Equal(ch.Log[i], want[i]) {
			t.Fatalf("envelope %d: %d bytes, want %d", i, len(ch.Log[i]), len(want[i]))
		}
	}
}

// TestResourceEmptyValues: an empty content type and an empty content
// read back as stored (not as a format-1 record).
func TestResourceEmptyValues(t *testing.T) {
	d, err := Open(t.TempDir())
	must(t, err)
	defer d.Close()
	b := &Batch{Seq: 1}
	b.PutResource("r:/empty-type", "", []byte("a\x00b"))
	b.PutResource("r:/empty", "text/plain", nil)
	must(t, d.Commit(b))
	if ct, data, ok, err := d.Resource("r:/empty-type"); err != nil || !ok || ct != "" || string(data) != "a\x00b" {
		t.Fatalf("empty type: %q %q %v %v", ct, data, ok, err)
	}
	if ct, data, ok, err := d.Resource("r:/empty"); err != nil || !ok || ct != "text/plain" || len(data) != 0 {
		t.Fatalf("empty content: %q %q %v %v", ct, data, ok, err)
	}
	if ct, n, ok := d.ResourceSize("r:/empty-type"); !ok || ct != "" || n != 3 {
		t.Fatalf("size: %q %d %v", ct, n, ok)
	}
}

// TestFormat1 opens a file in format 1's layout (snapshot beside the log,
// one log value per record, content type and bytes in one resource
// value): it reads as written, is marked format 2, and what is written
// to it afterwards reads back too.
func TestFormat1(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
	must(t, err)
	must(t, db.Update(func(tx *bolt.Tx) error {
		m, _ := tx.CreateBucket(bktMeta)
		_ = m.Put(keyFormat, u64(1))
		_ = m.Put(keyInstance, []byte("0123456789abcdef"))
		_ = m.Put(keySeq, u64(7))
		chans, _ := tx.CreateBucket(bktChans)
		cb, _ := chans.CreateBucket([]byte("ahp-chat:/a"))
		_ = cb.Put(keyMeta, []byte(`{"session":"ahp-session:/s"}`))
		_ = cb.Put(keySnap, []byte(`{"turns":[]}`))
		_ = cb.Put(keySnapSeq, u64(3))
		lb, _ := cb.CreateBucket(bktLog)
		_ = lb.Put(u64(4), joinEnvs([][]byte{[]byte(`{"n":4}`), []byte(`{"n":5}`)}))
		_ = lb.Put(u64(6), joinEnvs([][]byte{[]byte(`{"n":6}`)}))
		res, _ := tx.CreateBucket(bktRes)
		return res.Put([]byte("ahptui-part:/a/t/0/0"), []byte("text/markdown\x00page one"))
	}))
	must(t, db.Close())

	d, err := Open(dir)
	must(t, err)
	st, err := d.Load()
	must(t, err)
	if st.Seq != 7 || len(st.Channels) != 1 {
		t.Fatalf("seq %d, %d channels", st.Seq, len(st.Channels))
	}
	ch := st.Channels[0]
	if string(ch.State) != `{"turns":[]}` || ch.SnapSeq != 3 || len(ch.Log) != 3 || string(ch.Log[2]) != `{"n":6}` {
		t.Fatalf("channel: %+v, log %q", ch, ch.Log)
	}
	lazy, err := d.LoadLazy(func(string) bool { return true })
	must(t, err)
	if len(lazy.Stubs) != 1 || lazy.Stubs[0].SnapBytes != int64(len(`{"turns":[]}`)) {
		t.Fatalf("stubs: %+v", lazy.Stubs)
	}
	if ct, data, ok, err := d.Resource("ahptui-part:/a/t/0/0"); err != nil || !ok || ct != "text/markdown" || string(data) != "page one" {
		t.Fatalf("resource: %q %q %v %v", ct, data, ok, err)
	}
	if ct, n, ok := d.ResourceSize("ahptui-part:/a/t/0/0"); !ok || ct != "text/markdown" || n != 8 {
		t.Fatalf("resource size: %q %d %v", ct, n, ok)
	}
	b := &Batch{Seq: 9}
	b.Append("ahp-chat:/a", 8, []byte(`{"n":8}`))
	b.PutResource("ahptui-part:/a/t/0/1", "text/markdown", []byte("page two"))
	must(t, d.Commit(b))
	ch, _, err = d.Channel("ahp-chat:/a")
	must(t, err)
	if len(ch.Log) != 4 || string(ch.Log[3]) != `{"n":8}` {
		t.Fatalf("log after an append: %q", ch.Log)
	}
	b = &Batch{Seq: 10}
	b.Snapshot("ahp-chat:/a", 10, []byte(`{"session":"ahp-session:/s"}`), []byte(`{"turns":[1]}`))
	must(t, d.Commit(b))
	must(t, d.Close())

	d, err = Open(dir)
	must(t, err)
	defer d.Close()
	ch, _, err = d.Channel("ahp-chat:/a")
	must(t, err)
	if string(ch.State) != `{"turns":[1]}` || ch.SnapSeq != 10 || len(ch.Log) != 0 {
		t.Fatalf("after a snapshot: %+v", ch)
	}
	must(t, d.bolt.View(func(tx *bolt.Tx) error {
		if f := tx.Bucket(bktMeta).Get(keyFormat); binary.BigEndian.Uint64(f) != formatVersion {
			t.Errorf("format %x", f)
		}
		if v := tx.Bucket(bktChans).Bucket([]byte("ahp-chat:/a")).Get(keySnap); v != nil {
			t.Errorf("format 1's snapshot value kept: %q", v)
		}
		return nil
	}))
	if _, data, _, _ := d.Resource("ahptui-part:/a/t/0/1"); string(data) != "page two" {
		t.Fatalf("new resource: %q", data)
	}
	b = &Batch{Seq: 11}
	b.DeleteResources("ahptui-part:/a/")
	must(t, d.Commit(b))
	for _, u := range []string{"ahptui-part:/a/t/0/0", "ahptui-part:/a/t/0/1"} {
		if _, _, ok, _ := d.Resource(u); ok {
			t.Fatalf("%s kept", u)
		}
	}
}
