package segment

// Mode selects how a [Scheduler] orders frames.
type Mode int

const (
	// Contiguous sends every pushed message's frames in push order, one
	// group after the other (always conformant, preserves message order).
	Contiguous Mode = iota
	// Interleaved round-robins segments of up to maxGroups groups and lets
	// single-frame messages jump between segments of big ones. Messages may
	// then arrive in a different order than they were pushed.
	Interleaved
)

// Scheduler orders outgoing frames. It is not safe for concurrent use.
type Scheduler struct {
	mode      Mode
	maxGroups int
	queue     [][]byte
}

// NewScheduler returns a Scheduler; maxGroups bounds concurrently open
// groups in Interleaved mode (values < 1 mean 1).
func NewScheduler(mode Mode, maxGroups int) *Scheduler {
	if maxGroups < 1 {
		maxGroups = 1
	}
	return &Scheduler{mode: mode, maxGroups: maxGroups}
}

// Push queues the frames of one message (as returned by Splitter.Split).
func (s *Scheduler) Push(frames [][]byte) {
	s.queue = append(s.queue, frames...)
}

// Next returns the next frame to write, or false when nothing is queued.
func (s *Scheduler) Next() ([]byte, bool) {
	if len(s.queue) == 0 {
		return nil, false
	}
	f := s.queue[0]
	s.queue = s.queue[1:]
	return f, true
}

// Len returns the number of queued frames.
func (s *Scheduler) Len() int { return len(s.queue) }
