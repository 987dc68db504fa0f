package segment

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// ErrNestedSegment is returned (wrapped) when Split is asked to segment a
// message that is itself an ahp/messageSegment frame (no recursion).
var ErrNestedSegment = errors.New("segment: refusing to segment an ahp/messageSegment")

// The segment frame layout; Split writes exactly these bytes around the
// group id, the two numbers and the base64 data.
const (
	framePrefix = `{"jsonrpc":"2.0","method":"` + Method + `","params":{"groupId":"`
	frameIndex  = `","index":`
	frameTotal  = `,"total":`
	frameData   = `,"data":"`
	frameSuffix = `"}}`
	// frameFixed is the envelope size without group id, numbers and data.
	frameFixed = len(framePrefix) + len(frameIndex) + len(frameTotal) + len(frameData) + len(frameSuffix)
	// groupIDBytes is the number of random bytes in a group id (hex encoded).
	groupIDBytes = 16
)

// Splitter turns serialized JSON-RPC messages into wire frames. It is safe
// for concurrent use.
type Splitter struct {
	random   io.Reader
	mu       sync.Mutex
	inFlight map[string]struct{}
}

// NewSplitter returns a Splitter drawing group ids from random (nil means
// crypto/rand).
func NewSplitter(random io.Reader) *Splitter {
	if random == nil {
		random = rand.Reader
	}
	return &Splitter{random: random, inFlight: make(map[string]struct{})}
}

// Group is the result of splitting one message.
type Group struct {
	// ID is the group id, or "" when the message went as a single frame.
	ID string
	// Frames are the frames to write in order. They share one backing array
	// (each with its capacity clipped) and must not be modified.
	Frames [][]byte
}

// Split returns the frames for one serialized JSON-RPC message msg.
//
// recv is the receiver's advertised capability; nil means the receiver did
// not advertise chunking: then msg goes as-is if it fits ceiling, else a
// *NotNegotiatedError is returned. ceiling is the transport's own frame cap
// (0 = none) and applies in addition to recv.MaxIncomingFrameBytes. A message
// that fits goes as one frame (msg itself); otherwise it becomes
// ahp/messageSegment frames each of which fits the limit. Errors:
// *NotNegotiatedError, *MessageTooLargeError, *TooManySegmentsError,
// *FrameLimitError, ErrNestedSegment, or a wrapped random-source error.
//
// When more than one frame is returned the group id is in flight until
// Done is called with it; use SplitGroup to learn the id.
func (s *Splitter) Split(msg []byte, recv *ChunkingCapability, ceiling int64) ([][]byte, error) {
	g, err := s.SplitGroup(msg, recv, ceiling)
	return g.Frames, err
}

// SplitGroup is Split returning the group id as well.
func (s *Splitter) SplitGroup(msg []byte, recv *ChunkingCapability, ceiling int64) (Group, error) {
	size := int64(len(msg))
	limit := ceiling
	if recv != nil && recv.MaxIncomingFrameBytes > 0 && (limit <= 0 || recv.MaxIncomingFrameBytes < limit) {
		limit = recv.MaxIncomingFrameBytes
	}
	if limit <= 0 || size <= limit {
		return Group{Frames: [][]byte{msg}}, nil
	}
	if recv == nil {
		return Group{}, &NotNegotiatedError{Size: size, Limit: limit}
	}
	// The capability only matters once the message must be segmented.
	if err := recv.Validate(); err != nil {
		return Group{}, fmt.Errorf("segment: split: receiver capability: %w", err)
	}
	if size > recv.MaxIncomingMessageBytes {
		return Group{}, &MessageTooLargeError{Size: size, Limit: recv.MaxIncomingMessageBytes}
	}
	if IsSegment(msg) {
		return Group{}, fmt.Errorf("%w (%d bytes, limit %d)", ErrNestedSegment, size, limit)
	}
	plan, err := planSegments(size, limit)
	if err != nil {
		return Group{}, err
	}
	id, err := s.newID()
	if err != nil {
		return Group{}, err
	}
	return Group{ID: id, Frames: plan.build(msg, id)}, nil
}

// Done tells the splitter that the group with groupID has been fully sent (or
// abandoned), so its id may be reused. Unknown ids are ignored.
func (s *Splitter) Done(groupID string) {
	s.mu.Lock()
	delete(s.inFlight, groupID)
	s.mu.Unlock()
}

// InFlight returns the number of group ids not yet released with Done.
func (s *Splitter) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.inFlight)
}

// Reset forgets every in-flight group id (transport disconnect).
func (s *Splitter) Reset() {
	s.mu.Lock()
	clear(s.inFlight)
	s.mu.Unlock()
}

// newID mints a random hex group id unique among in-flight groups.
func (s *Splitter) newID() (string, error) {
	var raw [groupIDBytes]byte
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if _, err := io.ReadFull(s.random, raw[:]); err != nil {
			return "", fmt.Errorf("segment: group id: %w", err)
		}
		id := hex.EncodeToString(raw[:])
		if _, taken := s.inFlight[id]; !taken {
			s.inFlight[id] = struct{}{}
			return id, nil
		}
	}
}

// plan is the segment layout of one message.
type plan struct {
	total       int
	totalDigits int
	size        int
	limit       int64
}

// payload returns the raw bytes segment i may carry: the largest multiple of
// 3 whose base64 fits the limit after the real envelope of that frame.
func (p *plan) payload(i int) int64 {
	avail := p.limit - int64(frameFixed+2*groupIDBytes+p.totalDigits+digits(i))
	if avail < 4 {
		return 0
	}
	return avail / 4 * 3
}

// planSegments finds the segment count for size bytes under limit. Index
// digits grow with the index, so each frame is filled exactly; the digit
// count of total is found by trying 1..5 digits.
func planSegments(size, limit int64) (*plan, error) {
	for td := 1; td <= 5; td++ {
		p := &plan{totalDigits: td, size: int(size), limit: limit}
		if p.payload(0) == 0 {
			return nil, &FrameLimitError{Limit: limit, Overhead: int64(frameFixed + 2*groupIDBytes + td + 1 + 4)}
		}
		left, n := size, 0
		for left > 0 {
			c := p.payload(n)
			if c == 0 {
				return nil, &FrameLimitError{Limit: limit, Overhead: int64(frameFixed + 2*groupIDBytes + td + digits(n) + 4)}
			}
			if n == MaxTotal-1 {
				return nil, &TooManySegmentsError{Total: int64(n) + (left+c-1)/c}
			}
			left -= min(c, left)
			n++
		}
		if digits(n) != td {
			continue
		}
		p.total = n
		return p, nil
	}
	// Unreachable: the segment count grows with td, so some td ≤ 5 matches.
	return nil, &TooManySegmentsError{Total: MaxTotal}
}

// build writes all frames into one backing array.
func (p *plan) build(msg []byte, id string) [][]byte {
	// Size the backing array exactly.
	total := 0
	off := 0
	for i := 0; i < p.total; i++ {
		c := min(int(p.payload(i)), p.size-off)
		total += frameFixed + len(id) + p.totalDigits + digits(i) + base64.StdEncoding.EncodedLen(c)
		off += c
	}
	buf := make([]byte, 0, total)
	frames := make([][]byte, p.total)
	ts := strconv.Itoa(p.total)
	off = 0
	for i := 0; i < p.total; i++ {
		c := min(int(p.payload(i)), p.size-off)
		start := len(buf)
		buf = append(buf, framePrefix...)
		buf = append(buf, id...)
		buf = append(buf, frameIndex...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, frameTotal...)
		buf = append(buf, ts...)
		buf = append(buf, frameData...)
		buf = b64AppendEncode(buf, msg[off:off+c])
		buf = append(buf, frameSuffix...)
		frames[i] = buf[start:len(buf):len(buf)]
		off += c
	}
	return frames
}

// digits returns the number of decimal digits of n ≥ 0.
func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}
