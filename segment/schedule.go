package segment

// Mode selects how a [Scheduler] orders frames.
type Mode int

const (
	// Contiguous sends every pushed message's frames in push order, one
	// message after the other. Always conformant; preserves message order.
	Contiguous Mode = iota
	// Interleaved round-robins the segments of up to maxGroups groups and
	// lets single-frame messages jump in between segments (at most one
	// segment is sent between two queued single frames), so small
	// latency-sensitive messages are not starved behind a bulk transfer.
	// Messages may then arrive in a different order than they were pushed:
	// do not use it where the receiver depends on message order (e.g.
	// action envelopes of one channel, whose serverSeq must increase).
	Interleaved
)

// String returns the mode name.
func (m Mode) String() string {
	if m == Interleaved {
		return "interleaved"
	}
	return "contiguous"
}

// queued is one pushed message.
type queued struct {
	id     string // group id; "" for a single frame
	frames [][]byte
	pos    int
}

// Scheduler orders outgoing frames of several messages. It is not safe for
// concurrent use (a connection's write loop owns it).
type Scheduler struct {
	mode      Mode
	maxGroups int
	n         int       // queued frames
	fifo      []*queued // Contiguous: every message; Interleaved: groups not yet started
	singles   [][]byte  // Interleaved: single-frame messages
	active    []*queued // Interleaved: groups being sent, round-robin
	rr        int
	single    bool // the last frame returned was a single

	// OnGroupSent, if set, is called with the group id when Next returns
	// the last frame of a multi-frame group, e.g. to call Splitter.Done.
	OnGroupSent func(groupID string)
}

// NewScheduler returns a Scheduler. maxGroups bounds the groups with frames
// on the wire at once in Interleaved mode (use the receiver's
// maxIncomingGroups; values < 1 mean 1).
func NewScheduler(mode Mode, maxGroups int) *Scheduler {
	return &Scheduler{mode: mode, maxGroups: max(maxGroups, 1)}
}

// Push queues the frames of one message as returned by Splitter.Split. The
// group id of a multi-frame message is read from its first frame.
func (s *Scheduler) Push(frames [][]byte) {
	id := ""
	if len(frames) > 1 {
		id = frameGroupID(frames[0])
	}
	s.PushGroup(Group{ID: id, Frames: frames})
}

// PushGroup queues a message as returned by Splitter.SplitGroup.
func (s *Scheduler) PushGroup(g Group) {
	if len(g.Frames) == 0 {
		return
	}
	s.n += len(g.Frames)
	if s.mode == Interleaved && len(g.Frames) == 1 {
		s.singles = append(s.singles, g.Frames[0])
		return
	}
	s.fifo = append(s.fifo, &queued{id: g.ID, frames: g.Frames})
}

// Len returns the number of queued frames.
func (s *Scheduler) Len() int { return s.n }

// Next returns the next frame to write, or false when nothing is queued.
func (s *Scheduler) Next() ([]byte, bool) {
	if s.n == 0 {
		return nil, false
	}
	s.n--
	if s.mode != Interleaved {
		q := s.fifo[0]
		f := q.frames[q.pos]
		q.pos++
		if q.pos == len(q.frames) {
			s.fifo[0] = nil
			s.fifo = s.fifo[1:]
			s.finished(q)
		}
		return f, true
	}
	for len(s.active) < s.maxGroups && len(s.fifo) > 0 {
		s.active = append(s.active, s.fifo[0])
		s.fifo[0] = nil
		s.fifo = s.fifo[1:]
	}
	if len(s.singles) > 0 && (!s.single || len(s.active) == 0) {
		f := s.singles[0]
		s.singles[0] = nil
		s.singles = s.singles[1:]
		s.single = true
		return f, true
	}
	s.single = false
	if s.rr >= len(s.active) {
		s.rr = 0
	}
	q := s.active[s.rr]
	f := q.frames[q.pos]
	q.pos++
	if q.pos == len(q.frames) {
		last := len(s.active) - 1
		copy(s.active[s.rr:], s.active[s.rr+1:])
		s.active[last] = nil
		s.active = s.active[:last]
		s.finished(q)
	} else {
		s.rr++
	}
	// Wrap now, before new groups are appended behind the current ones.
	if s.rr >= len(s.active) {
		s.rr = 0
	}
	return f, true
}

// finished reports a completed multi-frame group.
func (s *Scheduler) finished(q *queued) {
	if q.id != "" && s.OnGroupSent != nil {
		s.OnGroupSent(q.id)
	}
}

// frameGroupID returns the groupId of a segment frame, or "".
func frameGroupID(frame []byte) string {
	var e envelope
	if !e.scan(frame, scanFrame) || !e.methodIsSegment || e.groupID.kind != '"' {
		return ""
	}
	id, err := groupID(frame, e.groupID)
	if err != nil {
		return ""
	}
	return string(id)
}
