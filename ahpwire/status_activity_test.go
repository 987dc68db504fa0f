package ahpwire

import "testing"

func TestActivityName(t *testing.T) {
	for s, want := range map[SessionStatus]string{
		StatusIdle: "idle", StatusInProgress: "running", StatusError: "error",
		StatusInputNeeded | StatusIsRead: "needs-input", StatusIsArchived | StatusIdle: "idle", 0x1f: "unknown",
	} {
		if got := s.ActivityName(); got != want {
			t.Errorf("%#x: %q, want %q", uint32(s), got, want)
		}
	}
}
