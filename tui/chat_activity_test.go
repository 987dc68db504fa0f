package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestChatActivityStaysOnOneLine: a host activity of several lines (or a
// huge one) shows on the hint line as one line cut to the width; the frame
// keeps its size.
func TestChatActivityStaysOnOneLine(t *testing.T) {
	m, _ := runningChat(t)
	m = send(t, m, envelope(4, &ahpwire.ChatActivityChanged{Activity: "reading\nthe files\n" + strings.Repeat("x", 1<<20)}))
	v := checkFrame(t, m, 100, 30)
	if !strings.Contains(v, "● reading the files xxx") {
		t.Fatalf("the activity is not one line on the hint line:\n%s", v)
	}
}
