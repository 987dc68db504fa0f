package segment

import (
	"errors"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/ahptui/ahptui/internal/jsonscan"
)

// Reassembler is the receiver's reassembly table. It is not safe for
// concurrent use: a connection's read loop owns it. After Feed returns a
// *ViolationError the transport must close the connection (CloseCode,
// CloseReason) and call Reset.
type Reassembler struct {
	lim     Limits
	now     func() time.Time
	groups  map[string]*group
	scratch []byte // unescaped data on the slow path
	exact   bool   // never guess the end of data (tests compare both ways)
}

// group is one in-flight reassembly.
type group struct {
	total   int64
	next    int64
	started time.Time
	buf     []byte  // decoded bytes so far; cap ≤ MaxMessageBytes+3
	held    int64   // bytes drawn from the budget (cap(buf))
	carry   [4]byte // base64 characters of an incomplete quantum
	carryN  int
}

// NewReassembler returns an empty table enforcing l (unset fields take the
// defaults). now is the clock used for group timeouts; nil means time.Now.
func NewReassembler(l Limits, now func() time.Time) *Reassembler {
	if now == nil {
		now = time.Now
	}
	return &Reassembler{lim: l.normalized(), now: now, groups: make(map[string]*group)}
}

// Limits returns the effective limits.
func (r *Reassembler) Limits() Limits { return r.lim }

// Pending returns the number of in-flight groups.
func (r *Reassembler) Pending() int { return len(r.groups) }

// Buffered returns the number of decoded bytes held by in-flight groups.
func (r *Reassembler) Buffered() int64 {
	var n int64
	for _, g := range r.groups {
		n += int64(len(g.buf))
	}
	return n
}

// Reserved returns the bytes allocated for in-flight groups' buffers (their
// capacity, which is what they draw from Limits.Budget).
func (r *Reassembler) Reserved() int64 {
	var n int64
	for _, g := range r.groups {
		n += g.held
	}
	return n
}

// Sweep drops groups older than the group timeout and returns how many were
// dropped. It raises no protocol error (the sender retries on reconnect).
// Call it periodically, e.g. every GroupTimeout/2.
func (r *Reassembler) Sweep() int {
	now := r.now()
	n := 0
	for id, g := range r.groups {
		if now.Sub(g.started) > r.lim.GroupTimeout {
			r.free(g)
			delete(r.groups, id)
			n++
		}
	}
	return n
}

// Reset drops the whole table (transport disconnect) and returns its
// buffers to the budget. The transport must call it when the connection
// ends, however it ends.
func (r *Reassembler) Reset() {
	for _, g := range r.groups {
		r.free(g)
	}
	clear(r.groups)
	r.scratch = nil
}

// Feed takes one received text frame. A frame that is not a segment is
// returned unchanged. A segment that completes a group returns the
// reassembled message (valid UTF-8, exactly one JSON-RPC 2.0 request,
// response or notification); the caller owns it. A segment of an incomplete
// group returns (nil, nil). Any rule violation returns a *ViolationError.
func (r *Reassembler) Feed(frame []byte) ([]byte, error) {
	msg, _, err := r.feedFrame(frame, true)
	return msg, err
}

// FeedUnchecked is Feed without the final JSON-RPC check of a reassembled
// message, for a transport that parses every message with a validating
// decoder anyway, so the JSON is validated once, where it is parsed (the
// check is the costliest part of reassembly for token-dense JSON: see
// docs/benchmarks/rounds-2026-11.md). The reassembled bytes are still checked for UTF-8
// and every segment rule applies. When reassembled is true the caller must
// accept msg only through a decoder that enforces what CheckMessage checks
// (or call CheckMessage), and close with CloseCode when it does not:
// Feed(f) is exactly FeedUnchecked(f) followed by CheckMessage on a
// reassembled message (FuzzReassemble checks this).
func (r *Reassembler) FeedUnchecked(frame []byte) (msg []byte, reassembled bool, err error) {
	return r.feedFrame(frame, false)
}

// CheckMessage validates a reassembled message the way Feed does: exactly
// one JSON-RPC 2.0 request, notification or response (no duplicate or
// case-folded envelope member), valid UTF-8, not itself a segment. It
// returns a *ViolationError (close with CloseCode) or nil.
func CheckMessage(msg []byte) error {
	if rule := checkMessage(msg); rule != 0 {
		return violation(rule, nil, -1, "")
	}
	return nil
}

// feedFrame is Feed (check) or FeedUnchecked.
func (r *Reassembler) feedFrame(frame []byte, check bool) ([]byte, bool, error) {
	if !IsSegment(frame) {
		return frame, false, nil
	}
	var out []byte
	var err error
	if r.exact {
		out, err = r.feed(frame, scanFrame, check)
	} else if out, err = r.feed(frame, scanFrameGuess, check); err == errGuess {
		// The guessed end of data was wrong or something failed: redo it
		// exactly. The guessed attempt changed nothing.
		out, err = r.feed(frame, scanFrame, check)
	}
	return out, out != nil, err
}

// errGuess reports that feed, scanning with scanFrameGuess, hit a violation
// before the guessed end of the data string was confirmed; it has not
// changed the table and Feed retries with an exact scan.
var errGuess = errors.New("segment: data end guessed")

// feed processes one segment frame. With scanFrameGuess the end of the data
// string may be guessed (see envelope.scanParams); the guess is confirmed by
// a successful base64 decode of the data (the alphabet has no '"' or '\\'),
// and until then every violation returns errGuess instead, before any change
// to the table.
func (r *Reassembler) feed(frame []byte, mode scanMode, check bool) ([]byte, error) {
	var e envelope
	ok := e.scan(frame, mode)
	if e.guessed && !ok {
		return nil, errGuess
	}
	if !ok || !e.methodIsSegment || e.dup || e.id.kind != 0 || !e.jsonrpc.is(frame, version20) ||
		e.params.kind != 'o' || frame[e.params.start] != '{' {
		return nil, r.violation(&e, RuleEnvelope, nil, -1, "")
	}
	gidb, err := groupID(frame, e.groupID)
	if err != nil {
		if e.guessed {
			return nil, errGuess
		}
		return nil, err
	}
	gid := gidString(gidb)
	index, iok := parseCount(frame, e.index, MaxIndex)
	if !iok {
		return nil, r.violation(&e, RuleIndex, gid, -1, "")
	}
	total, tok := parseCount(frame, e.total, MaxTotal)
	if !tok || total < 1 {
		return nil, r.violation(&e, RuleTotal, gid, index, "")
	}
	if index >= total {
		return nil, r.violation(&e, RuleIndexNotBelowTotal, gid, index, "total "+strconv.FormatInt(total, 10))
	}
	if e.data.kind != '"' {
		return nil, r.violation(&e, RuleData, gid, index, "not a string")
	}
	g := r.groups[string(gidb)]
	fresh := g == nil
	switch {
	case fresh && index != 0:
		return nil, r.violation(&e, RuleIndexOrder, gid, index, "unknown group must start at 0")
	case fresh:
		if len(r.groups) >= r.lim.MaxGroups {
			if e.guessed {
				return nil, errGuess
			}
			r.Sweep()
		}
		if len(r.groups) >= r.lim.MaxGroups {
			return nil, r.violation(&e, RuleTooManyGroups, gid, index, "limit "+strconv.Itoa(r.lim.MaxGroups))
		}
		g = &group{total: total, started: r.now()}
	case index == 0:
		return nil, r.dropViolation(&e, gidb, RuleDuplicateGroup, gid, index, "")
	case total != g.total:
		return nil, r.dropViolation(&e, gidb, RuleTotalChanged, gid, index,
			"was "+strconv.FormatInt(g.total, 10)+", now "+strconv.FormatInt(total, 10))
	case index != g.next:
		return nil, r.dropViolation(&e, gidb, RuleIndexOrder, gid, index, "expected "+strconv.FormatInt(g.next, 10))
	}
	if rule, detail := r.appendSegment(g, frame, e.data, e.guessed); rule != 0 {
		if fresh {
			r.free(g) // not in the table: nothing else returns its bytes
		}
		return nil, r.dropViolation(&e, gidb, rule, gid, index, detail)
	}
	// The data decoded, so a guessed end of data was right: from here on
	// the frame is exactly what an exact scan would have seen.
	g.next++
	if g.next < g.total {
		if fresh {
			r.groups[string(gidb)] = g
		}
		return nil, nil
	}
	// Complete: the buffer leaves the table and the budget (the caller owns
	// it now), whether or not the message is valid.
	delete(r.groups, string(gidb))
	r.free(g)
	out := g.buf
	if out == nil {
		out = []byte{} // complete, but empty: non-nil tells the caller
	}
	if g.carryN != 0 {
		return nil, violation(RuleData, gid, index, "base64 ends mid-quantum")
	}
	if !check {
		if !utf8.Valid(out) {
			return nil, violation(RuleInvalidUTF8, gid, index, "")
		}
		return out, nil
	}
	if rule := checkMessage(out); rule != 0 {
		return nil, violation(rule, gid, index, "")
	}
	return out, nil
}

// violation returns errGuess while e's data end is an unconfirmed guess, and
// the *ViolationError otherwise.
func (r *Reassembler) violation(e *envelope, rule Rule, gid gidString, index int64, detail string) error {
	if e.guessed {
		return errGuess
	}
	return violation(rule, gid, index, detail)
}

// dropViolation is violation that also drops the group (exact scans only).
func (r *Reassembler) dropViolation(e *envelope, gidb []byte, rule Rule, gid gidString, index int64, detail string) error {
	if e.guessed {
		return errGuess
	}
	r.drop(gidb)
	return violation(rule, gid, index, detail)
}

// drop removes a group and returns its buffer to the budget (the buffer
// itself stays valid for a caller that already holds it).
func (r *Reassembler) drop(gid []byte) {
	if g := r.groups[string(gid)]; g != nil {
		r.lim.Budget.give(g.held)
		g.held = 0
		delete(r.groups, string(gid))
	}
}

// gidString is a lazily converted group id for error messages: it keeps the
// bytes and converts only when a violation is built.
type gidString []byte

// violation builds a *ViolationError.
func violation(rule Rule, gid gidString, index int64, detail string) *ViolationError {
	return &ViolationError{Rule: rule, GroupID: string(gid), Index: index, Detail: detail}
}

// groupID validates and returns the groupId member (a sub-slice of b unless
// escaped). Map lookups with string(bytes) do not allocate.
func groupID(b []byte, v span) ([]byte, error) {
	if v.kind != '"' {
		return nil, violation(RuleGroupID, nil, -1, "missing or not a string")
	}
	body := b[v.start:v.end]
	if v.esc {
		body = jsonscan.Unescape(nil, body)
	}
	if len(body) == 0 || len(body) > MaxGroupIDBytes || !utf8.Valid(body) {
		return nil, violation(RuleGroupID, nil, -1, "length "+strconv.Itoa(len(body)))
	}
	return body, nil
}

// parseCount parses a non-negative integer member below limit. It accepts
// integral numbers written with a fraction or exponent (2.0, 1e1).
func parseCount(b []byte, v span, limit int64) (int64, bool) {
	if v.kind != 'n' {
		return 0, false
	}
	s := b[v.start:v.end]
	var n int64
	plain := len(s) <= 10
	for _, c := range s {
		if c < '0' || c > '9' {
			plain = false
			break
		}
		n = n*10 + int64(c-'0')
	}
	if !plain {
		f, err := strconv.ParseFloat(string(s), 64)
		if err != nil || f < 0 || f >= float64(limit) || f != math.Trunc(f) {
			return 0, false
		}
		n = int64(f)
	}
	return n, n < limit
}
