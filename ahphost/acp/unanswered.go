package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/maphash"
	"io"
	"log/slog"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// The SDK serves every request the agent sends on a goroutine of its own,
// started as soon as it reads the request, which lives until the answer
// was written to the agent's stdin; limits.go bounds the requests being
// handled, not these goroutines. An agent that sends requests faster than
// it reads the answers — or never reads them — would have the host pile
// up goroutines, and the requests they hold, until StdinTimeout stopped
// it: 20,000 requests in 1.5 s made 20,000 goroutines and 130 MiB. The
// bridge bounds them where it owns the pipes: its reader (reader.go)
// counts each request it hands the SDK, the writer (answerWriter) each
// answer written, and while maxUnanswered requests (or
// maxUnansweredBytes of them) wait for their answers the reader reads no
// more of the agent's output — the pipe holds the agent back — until
// answers went out. Agents issue a few requests at once: they never meet
// the bound. One that floods requests and reads its answers is slowed to
// the pace of its reading, the requests over maxAgentRequests refused;
// one that also stops reading is stopped after StdinTimeout, its turn
// failing with the reason (stdinWriter).

// Bounds of the agent's unanswered requests.
const (
	// maxUnanswered bounds the agent's requests read and not yet
	// answered: twice the requests handled at once, so that those
	// refused as busy can be answered while the others run.
	maxUnanswered = 2 * maxAgentRequests
	// maxUnansweredBytes bounds their bytes (one request of any size is
	// always read).
	maxUnansweredBytes = 4 * maxLine
)

// unanswered counts the agent's requests read and not yet answered (one
// per agent process).
type unanswered struct {
	// dead, exited and closed end the reader's waits: the agent is taken
	// for dead or exited, or the bridge closed (nil: never).
	dead, exited, closed <-chan struct{}
	freed                chan struct{} // a token when an answer was written
	log                  *slog.Logger
	seed                 maphash.Seed

	mu     sync.Mutex
	ids    map[uint64][]int // a request id's hash (as the SDK writes it back) → its requests' sizes
	n      int
	bytes  int64
	stalls int // times the reader waited for answers
}

// newUnanswered returns the count of one agent process (see the fields
// for the channels).
func newUnanswered(log *slog.Logger, dead, exited, closed <-chan struct{}) *unanswered {
	return &unanswered{dead: dead, exited: exited, closed: closed, freed: make(chan struct{}, 1), log: log,
		seed: maphash.MakeSeed(), ids: map[uint64][]int{}}
}

// errStopped ends the reader when the agent ended (or the bridge closed)
// while the reader waited for answers.
var errStopped = errors.New("the agent ended while too many of its requests were unanswered")

// admit counts a request of size bytes with id key (as requestKey gives
// it), waiting while the bound is reached when wait is set. It reports
// false, counting nothing, when there is no room and it may not wait, or
// the agent was stopped meanwhile.
func (u *unanswered) admit(key []byte, size int, wait bool) bool {
	h := maphash.Bytes(u.seed, key)
	first := true
	for {
		u.mu.Lock()
		if u.n < maxUnanswered && (u.n == 0 || u.bytes+int64(size) <= maxUnansweredBytes) {
			u.ids[h] = append(u.ids[h], size)
			u.n++
			u.bytes += int64(size)
			u.mu.Unlock()
			return true
		}
		n, b := u.n, u.bytes
		if wait && first {
			u.stalls++
			if u.stalls == 1 {
				u.log.Warn("the agent has too many requests unanswered; reading no more of them until it reads the answers",
					"unanswered", n, "bytes", b, "bound", maxUnanswered)
			}
		}
		u.mu.Unlock()
		if !wait || !u.waitFreed() {
			return false
		}
		first = false
	}
}

// waitFreed waits for an answer to be written; false when the agent was
// stopped first.
func (u *unanswered) waitFreed() bool {
	select {
	case <-u.freed:
		return true
	case <-u.dead:
	case <-u.exited:
	case <-u.closed:
	}
	return false
}

// answered uncounts a request whose answer (with id key, as the SDK wrote
// it) went to the agent.
func (u *unanswered) answered(key []byte) {
	h := maphash.Bytes(u.seed, key)
	u.mu.Lock()
	sizes := u.ids[h]
	if len(sizes) == 0 {
		u.mu.Unlock()
		return
	}
	size := sizes[len(sizes)-1]
	if len(sizes) == 1 {
		delete(u.ids, h)
	} else {
		u.ids[h] = sizes[:len(sizes)-1]
	}
	u.n--
	u.bytes -= int64(size)
	u.mu.Unlock()
	select {
	case u.freed <- struct{}{}:
	default:
	}
}

// counts reports the requests unanswered, their bytes and the reader's
// waits so far.
func (u *unanswered) counts() (n int, bytes int64, stalls int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.n, u.bytes, u.stalls
}

// rpcMessage is a JSON-RPC message as the SDK decodes a line.
type rpcMessage struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      *json.RawMessage  `json:"id,omitempty"`
	Method  string            `json:"method,omitempty"`
	Params  json.RawMessage   `json:"params,omitempty"`
	Result  json.RawMessage   `json:"result,omitempty"`
	Error   *sdk.RequestError `json:"error,omitempty"`
}

// rpcHead is rpcMessage without copying params and result: it decodes a
// line into the same fields, or fails, as rpcMessage does.
type rpcHead struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      *json.RawMessage  `json:"id,omitempty"`
	Method  string            `json:"method,omitempty"`
	Params  skipJSON          `json:"params,omitempty"`
	Result  skipJSON          `json:"result,omitempty"`
	Error   *sdk.RequestError `json:"error,omitempty"`
}

// skipJSON takes any JSON value (the decoder checked it) and keeps none.
type skipJSON struct{}

func (*skipJSON) UnmarshalJSON([]byte) error { return nil }

// requestKey reports whether the SDK takes line for a request (which it
// serves on a goroutine of its own and answers) and returns its id as the
// SDK writes it in the answer.
func requestKey(line []byte) ([]byte, bool) {
	var msg rpcHead
	if json.Unmarshal(line, &msg) != nil || msg.ID == nil || msg.Method == "" {
		return nil, false
	}
	key, err := json.Marshal(msg.ID)
	if err != nil {
		return nil, false
	}
	return key, true
}

// answerPrefix begins every message the SDK writes with an id.
var answerPrefix = []byte(`{"jsonrpc":"2.0","id":`)

// answerKey returns the id of an answer the SDK writes (its messages are
// marshalled in a fixed order: jsonrpc, id, then method for a request,
// result or error for an answer); false for other messages.
func answerKey(b []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(b, answerPrefix)
	if !ok {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	var id json.RawMessage
	if dec.Decode(&id) != nil {
		return nil, false
	}
	key, after := rest[:dec.InputOffset()], rest[dec.InputOffset():]
	if !bytes.HasPrefix(after, []byte(`,"result":`)) && !bytes.HasPrefix(after, []byte(`,"error":`)) {
		return nil, false
	}
	return key, true
}

// answerWriter is the agent's stdin as the SDK writes it (one message per
// Write): each answer written uncounts its request.
type answerWriter struct {
	w io.Writer
	u *unanswered
}

func (a answerWriter) Write(b []byte) (int, error) {
	n, err := a.w.Write(b)
	if key, ok := answerKey(b); ok {
		a.u.answered(key)
	}
	return n, err //nolint:wrapcheck // the writer's own error, as io.Writer passes it on
}
