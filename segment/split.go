package segment

import (
	"crypto/rand"
	"errors"
	"io"
	"sync"
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

// Split returns the frames for one serialized JSON-RPC message msg.
//
// recv is the receiver's advertised capability; nil means the receiver did
// not advertise chunking: then msg goes as-is if it fits ceiling, else a
// *NotNegotiatedError is returned. ceiling is the transport's own frame cap
// (0 = none) and applies in addition to recv.MaxIncomingFrameBytes. A message
// that fits goes as one frame (msg itself); otherwise it becomes
// ahp/messageSegment frames each of which fits the limit. Errors:
// *MessageTooLargeError, *TooManySegmentsError, *FrameLimitError.
func (s *Splitter) Split(msg []byte, recv *ChunkingCapability, ceiling int64) ([][]byte, error) {
	return nil, errors.New("segment: split not implemented yet")
}

// Done tells the splitter that the group with groupID has been fully sent (or
// abandoned), so its id may be reused.
func (s *Splitter) Done(groupID string) {
	s.mu.Lock()
	delete(s.inFlight, groupID)
	s.mu.Unlock()
}
