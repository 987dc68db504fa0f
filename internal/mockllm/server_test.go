package mockllm

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Only loopback addresses are served.
func TestServeLoopbackOnly(t *testing.T) {
	var b Base
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", "example.com:0", "nonsense"} {
		if _, err := b.Serve("mock", addr, http.NotFoundHandler()); err == nil {
			t.Fatalf("served on %q", addr)
		}
	}
}

// "overloaded N …" fails N times, then not; "down …" always; any other
// prompt never.
func TestFailing(t *testing.T) {
	var b Base
	var got []string
	for i := 0; i < 3; i++ {
		fail, down := b.Failing("overloaded 2 hi")
		got = append(got, map[bool]string{true: "fail", false: "ok"}[fail])
		if down {
			t.Fatal("overloaded reported as down")
		}
	}
	if strings.Join(got, " ") != "fail fail ok" {
		t.Fatalf("overloaded 2: %v", got)
	}
	for i := 0; i < 3; i++ {
		if fail, down := b.Failing("down now"); !fail || !down {
			t.Fatal("down did not fail")
		}
	}
	if fail, _ := b.Failing("hello"); fail {
		t.Fatal("a plain prompt failed")
	}
}

// Bodies are dumped in arrival order; one past MaxBody is refused (and
// not dumped); a body that is not JSON is an error.
func TestReadBodyDumpsAndBounds(t *testing.T) {
	b := Base{Dump: t.TempDir()}
	post := func(body []byte) *http.Request {
		r, _ := http.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		return r
	}
	var v map[string]any
	if err := b.Decode(post([]byte(`{"a":1}`)), &v); err != nil || v["a"] != 1.0 {
		t.Fatalf("decode %v %v", v, err)
	}
	if err := b.Decode(post([]byte(`not json`)), &v); err == nil {
		t.Fatal("decoded garbage")
	}
	if _, err := b.ReadBody(post(make([]byte, MaxBody+1))); err == nil {
		t.Fatal("read a body past MaxBody")
	}
	names, _ := filepath.Glob(filepath.Join(b.Dump, "*.json"))
	if len(names) != 2 || filepath.Base(names[0]) != "0001.json" {
		t.Fatalf("dumped %v", names)
	}
	if d, _ := os.ReadFile(names[1]); string(d) != "not json" {
		t.Fatalf("second dump %q", d)
	}
}

// SlowText is 600 words, "word0 " to "word599 ".
func TestSlowText(t *testing.T) {
	w := strings.Fields(SlowText())
	if len(w) != 600 || w[0] != "word0" || w[599] != "word599" {
		t.Fatalf("%d words", len(w))
	}
}
