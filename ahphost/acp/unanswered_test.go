package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// lineSink is an agent's stdin that keeps what the host wrote.
type lineSink struct {
	mu    sync.Mutex
	lines []string
}

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, string(bytes.TrimSpace(p)))
	return len(p), nil
}

func (s *lineSink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.lines)
}

// Every request the SDK serves is counted as it is read and uncounted
// once its answer was written, whatever its id looks like: escaped
// strings, numbers in any spelling, objects, keys spelt in other cases,
// ids used twice. Notifications and lines the SDK drops are not counted.
func TestUnansweredCountsEveryRequest(t *testing.T) {
	br, err := New(Config{Name: "t", Command: "none", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	sink := &lineSink{}
	u := newUnanswered(br.log, nil, nil, br.ctx.Done())
	gate := make(chan struct{})
	conn, _ := br.connect(sink, pr, gate, u)
	conn.SetLogger(br.sdkLogger())
	close(gate)
	var requests []string
	for _, id := range []string{`1`, `1`, `"a\"b<>&\u00e9 \/"`, `1.0`, `1e2`, `-0`, `{"x": [1, 2]}`, `[ 1 ]`, `"x"`, `true`} {
		requests = append(requests, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"_t/x","params":{}}`, id))
	}
	requests = append(requests,
		`{"jsonrpc":"2.0","ID":7,"METHOD":"_t/x"}`,
		`{"jsonrpc":"2.0","\u0069d":8,"method":"fs/read_text_file","params":{"sessionId":"none","path":"/x"}}`,
		`{"method":"_t/x","id":9,"jsonrpc":"2.0"}`)
	others := []string{
		`{"jsonrpc":"2.0","method":"_t/note","params":{}}`,
		`{"jsonrpc":"2.0","id":null,"method":"_t/note"}`,
		`{"jsonrpc":"2.0","id":10,"method":"_t/x","error":5}`, // the SDK cannot read it
		`{"jsonrpc":"2.0","id":11,"result":{}}`,               // an answer nobody asked for
		`not json`,
	}
	for _, l := range append(append([]string(nil), requests...), others...) {
		if _, err := pw.WriteString(l + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, b, _ := u.counts()
		if sink.count() == len(requests) && n == 0 && b == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d requests answered; %d (%d bytes) still counted\n%s", sink.count(), len(requests), n, b,
				strings.Join(sink.lines, "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = pw.Close()
	<-conn.Done()
}

// The bounds: at most maxUnanswered requests, and their bytes at most
// maxUnansweredBytes unless it is the only one; an answer makes room.
func TestUnansweredBounds(t *testing.T) {
	u := newUnanswered(slogTo(&logBuf{}), nil, nil, nil)
	for i := 0; i < maxUnanswered; i++ {
		if !u.admit([]byte(fmt.Sprint(i)), 10, false) {
			t.Fatalf("request %d refused", i)
		}
	}
	if u.admit([]byte("over"), 10, false) {
		t.Fatal("a request over the count admitted")
	}
	u.answered([]byte("7"))
	u.answered([]byte("7")) // (answered twice: counted once)
	if !u.admit([]byte("next"), 10, false) || u.admit([]byte("over"), 10, false) {
		t.Fatal("an answer did not make room for exactly one request")
	}
	big := newUnanswered(slogTo(&logBuf{}), nil, nil, nil)
	if !big.admit([]byte("1"), maxUnansweredBytes+1, false) {
		t.Fatal("a lone request over the bytes refused")
	}
	if big.admit([]byte("2"), 1, false) {
		t.Fatal("a request beside one over the bytes admitted")
	}
	big.answered([]byte("1"))
	if !big.admit([]byte("2"), maxUnansweredBytes/2, false) || !big.admit([]byte("3"), maxUnansweredBytes/2, false) ||
		big.admit([]byte("4"), 1, false) {
		t.Fatal("the bytes bound")
	}
	closed := make(chan struct{})
	close(closed)
	stopped := newUnanswered(slogTo(&logBuf{}), nil, closed, nil)
	for i := 0; i < maxUnanswered; i++ {
		stopped.admit([]byte(fmt.Sprint(i)), 1, false)
	}
	if stopped.admit([]byte("x"), 1, true) {
		t.Fatal("a wait went on after the agent exited")
	}
}

// BenchmarkRequestKey is what the reader adds to a request of 1 MiB (a
// file write), against the SDK's own decoding of its line.
func BenchmarkRequestKey(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"fs/write_text_file","params":{"sessionId":"s","path":"/x","content":"` +
		strings.Repeat(`abc\"def\n`, 1<<20/10) + `"}}`)
	b.Run("requestKey", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if _, ok := requestKey(line); !ok {
				b.Fatal("not a request")
			}
		}
	})
	b.Run("sdkDecode", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			var m rpcMessage
			if json.Unmarshal(line, &m) != nil {
				b.Fatal("unreadable")
			}
			var p sdk.WriteTextFileRequest
			if json.Unmarshal(m.Params, &p) != nil {
				b.Fatal("unreadable params")
			}
		}
	})
}
