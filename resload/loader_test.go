package resload

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeReader serves strings by URI and counts reads.
func fakeReader(data map[string]string, reads *atomic.Int32) Reader {
	return func(ctx context.Context, uri string) (Content, error) {
		reads.Add(1)
		if err := ctx.Err(); err != nil {
			return Content{}, err
		}
		s, ok := data[uri]
		if !ok {
			return Content{}, errors.New("not found")
		}
		return Content{Data: []byte(s), ContentType: "text/plain"}, nil
	}
}

func run(l *Loader, fs []Fetch) {
	for _, f := range fs {
		l.Done(f())
	}
}

func TestLoaderFetchesOnceAndCaches(t *testing.T) {
	var reads atomic.Int32
	l := New(1<<20, fakeReader(map[string]string{"a": "alpha", "b": "beta"}, &reads))
	fs := l.Want([]string{"a", "b", "a"}, func(string) int64 { return 5 })
	if len(fs) != 2 || l.Loading()["a"] != "loading 5 B" {
		t.Fatalf("fetches %d, loading %v", len(fs), l.Loading())
	}
	if again := l.Want([]string{"a", "b"}, nil); len(again) != 0 {
		t.Fatal("in-flight URIs fetched twice")
	}
	run(l, fs)
	if l.Texts()["a"] != "alpha" || l.Texts()["b"] != "beta" || len(l.Loading()) != 0 || l.Used() != 9 {
		t.Fatalf("texts %v loading %v used %d", l.Texts(), l.Loading(), l.Used())
	}
	if fs := l.Want([]string{"a"}, nil); len(fs) != 0 || reads.Load() != 2 {
		t.Fatalf("cached URI read again (%d reads)", reads.Load())
	}
}

func TestLoaderEvictsLeastRecentlyUsedWithinBudget(t *testing.T) {
	var reads atomic.Int32
	data := map[string]string{"a": strings.Repeat("a", 40), "b": strings.Repeat("b", 40), "c": strings.Repeat("c", 40)}
	l := New(100, fakeReader(data, &reads))
	run(l, l.Want([]string{"a", "b"}, nil))
	l.Want([]string{"a"}, nil) // a is used again: b is now the oldest
	run(l, l.Want([]string{"c"}, nil))
	if _, ok := l.Texts()["b"]; ok || l.Used() != 80 || l.Texts()["a"] == "" || l.Texts()["c"] == "" {
		t.Fatalf("after eviction: keys %v used %d", keys(l.Texts()), l.Used())
	}
	// b is fetched again when it becomes visible.
	if fs := l.Want([]string{"b"}, nil); len(fs) != 1 {
		t.Fatal("evicted URI not refetched")
	}
}

func TestLoaderCancelsWhatIsNoLongerVisible(t *testing.T) {
	var reads atomic.Int32
	l := New(0, fakeReader(map[string]string{"a": "x"}, &reads))
	fs := l.Want([]string{"a"}, nil)
	l.Want(nil, nil) // scrolled away
	r := fs[0]()
	if !errors.Is(r.Err, context.Canceled) {
		t.Fatalf("fetch not cancelled: %v", r.Err)
	}
	if l.Done(r) || len(l.Texts()) != 0 || len(l.Loading()) != 0 {
		t.Fatal("a cancelled fetch changed the view")
	}
	run(l, l.Want([]string{"a"}, nil))
	if l.Texts()["a"] != "x" {
		t.Fatal("not refetched when visible again")
	}
}

func TestLoaderFailuresAndBinary(t *testing.T) {
	l := New(0, func(_ context.Context, uri string) (Content, error) {
		if uri == "bin" {
			return Content{Data: []byte{0xff, 0xfe, 0}, ContentType: "image/png"}, nil
		}
		return Content{}, errors.New("host said no")
	})
	run(l, l.Want([]string{"bad", "bin"}, nil))
	if !strings.Contains(l.Loading()["bad"], "host said no") || !strings.Contains(l.Loading()["bin"], "image/png, 3 B") {
		t.Fatalf("status %v", l.Loading())
	}
	if fs := l.Want([]string{"bad"}, nil); len(fs) != 0 {
		t.Fatal("a failed URI is retried without Retry")
	}
	l.Retry("bad")
	if fs := l.Want([]string{"bad"}, nil); len(fs) != 1 {
		t.Fatal("Retry did not allow a new fetch")
	}
}

func TestLoaderBoundsConcurrentFetches(t *testing.T) {
	l := New(0, func(context.Context, string) (Content, error) { return Content{}, nil })
	fs := l.Want([]string{"1", "2", "3", "4", "5", "6"}, nil)
	if len(fs) != maxInflight || l.Inflight() != maxInflight {
		t.Fatalf("%d fetches started", len(fs))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Seeded text is served without a read, replaces a fetch in flight (whose
// late result is ignored) and a remembered failure, counts against the
// budget, and invalid UTF-8 is refused.
func TestLoaderSeedServesWithoutReading(t *testing.T) {
	var reads atomic.Int32
	l := New(100, fakeReader(map[string]string{"a": "from host"}, &reads))
	fs := l.Want([]string{"a"}, nil)
	if !l.Seed("a", "seeded", "text/markdown") || !l.Seed("b", strings.Repeat("b", 60), "text/markdown") {
		t.Fatal("valid text refused")
	}
	run(l, fs) // the cancelled fetch's result is ignored
	if l.Texts()["a"] != "seeded" || len(l.Loading()) != 0 || l.Inflight() != 0 || l.Used() != 66 {
		t.Fatalf("texts %v loading %v used %d", l.Texts(), l.Loading(), l.Used())
	}
	if fs := l.Want([]string{"a", "b"}, nil); len(fs) != 0 {
		t.Fatalf("seeded URIs fetched again: %d", len(fs))
	}
	if l.Seed("c", "\xff", "text/plain") {
		t.Fatal("invalid UTF-8 seeded")
	}
	l.Seed("d", strings.Repeat("d", 60), "text/plain") // over budget: a and b (oldest first) go
	if len(l.Texts()) != 1 || l.Used() != 60 || l.Texts()["d"] == "" {
		t.Fatalf("after seeding past the budget: keys %v used %d", keys(l.Texts()), l.Used())
	}
}

// TestLoaderForgetReloads: a forgotten URI (its content changed on the
// host) is fetched again and shows the new content; forgetting an unknown
// URI changes nothing.
func TestLoaderForgetReloads(t *testing.T) {
	var reads atomic.Int32
	data := map[string]string{"f": "old"}
	l := New(1<<20, fakeReader(data, &reads))
	run(l, l.Want([]string{"f"}, nil))
	texts := l.Texts()
	l.Forget("unknown")
	if l.Texts()["f"] != "old" || len(l.Texts()) != len(texts) {
		t.Fatal("forgetting an unknown URI changed the cache")
	}
	data["f"] = "new"
	l.Forget("f")
	if _, ok := l.Texts()["f"]; ok || l.Used() != 0 {
		t.Fatalf("forgotten text still cached (%d bytes used)", l.Used())
	}
	run(l, l.Want([]string{"f"}, nil))
	if l.Texts()["f"] != "new" || reads.Load() != 2 {
		t.Fatalf("after Forget: %q, %d reads", l.Texts()["f"], reads.Load())
	}
}
