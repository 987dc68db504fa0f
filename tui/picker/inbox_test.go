package picker

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// inboxPicker lists two hosts: a (attached) with an idle and a failed
// session, b with a session that needs the user and a running one.
func inboxPicker() Model {
	st := uikit.NewStyles(render.DarkStyles())
	p := New(keymap.Default().Picker, time.Now, &st)
	p.Here = "a"
	p.SetHosts([]HostHeader{{Name: "a", Label: "a", State: "connected"}, {Name: "b", Label: "b", State: "connected"}})
	p.SetSize(100, 30)
	p.SetHostSessions("a", []ahpwire.SessionSummary{
		{Resource: "ahp-session:/a1", Title: "idle on a", Status: ahpwire.StatusIdle | ahpwire.StatusIsRead, ModifiedAt: "2026-01-01T00:00:02Z"},
		{Resource: "ahp-session:/a2", Title: "failed on a", Status: ahpwire.StatusError | ahpwire.StatusIsRead, ModifiedAt: "2026-01-01T00:00:01Z"},
	})
	p.SetHostSessions("b", []ahpwire.SessionSummary{
		{Resource: "ahp-session:/b1", Title: "running on b", Status: ahpwire.StatusInProgress | ahpwire.StatusIsRead, ModifiedAt: "2026-01-01T00:00:02Z"},
		{Resource: "ahp-session:/b2", Title: "asks on b", Status: ahpwire.StatusInputNeeded | ahpwire.StatusIsRead, ModifiedAt: "2026-01-01T00:00:01Z"},
	})
	return p
}

// TestNextNeedingCyclesAcrossHosts: tab moves to the next session that
// needs the user, across the host groups and around; ctrl+p asks for a
// peek at the selected one, naming its host.
func TestNextNeedingCyclesAcrossHosts(t *testing.T) {
	p := inboxPicker()
	var seen []string
	for range 3 {
		p, _ = p.Update(testkit.KeyPress("tab"))
		_, r := p.Selected()
		seen = append(seen, r)
	}
	if got := strings.Join(seen, " "); got != "ahp-session:/b2 ahp-session:/a2 ahp-session:/b2" {
		t.Fatalf("tab visited %s", got)
	}
	_, cmd := p.Update(testkit.KeyPress("ctrl+p"))
	if cmd == nil {
		t.Fatal("ctrl+p asked for nothing")
	}
	if msg, ok := cmd().(PeekMsg); !ok || msg != (PeekMsg{Session: "ahp-session:/b2", Host: "b"}) {
		t.Fatalf("ctrl+p: %#v", cmd())
	}
	st := uikit.NewStyles(render.DarkStyles())
	if u := p.Unprobed(); len(u) != 1 || u[0] != (HostSession{"b", "ahp-session:/b2"}) {
		t.Fatalf("Unprobed() = %v", u)
	}
	view := ansi.Strip(p.View(&st))
	for title, state := range map[string]string{"asks on b": "needs you", "running on b": "working", "failed on a": "error", "idle on a": "done"} {
		if !regexp.MustCompile(regexp.QuoteMeta(title) + ` [^·]*· ` + state + ` · `).MatchString(view) {
			t.Fatalf("%q is not %q in the rows:\n%s", title, state, view)
		}
	}
	p.SetWaiting("b", "ahp-session:/b2", WaitApproval)
	if view := p.View(&st); !strings.Contains(view, "needs approval") || len(p.Unprobed()) != 0 {
		t.Fatalf("the kind is not shown or still unprobed:\n%s", view)
	}
	if p.Needing() != 2 {
		t.Fatalf("Needing() = %d, want 2", p.Needing())
	}
	p.SetHostSessions("b", nil)
	p.SetHostSessions("a", []ahpwire.SessionSummary{{Resource: "ahp-session:/a1", Status: ahpwire.StatusIdle}})
	p, _ = p.Update(testkit.KeyPress("tab"))
	if !strings.Contains(p.View(&st), "no session needs you") {
		t.Fatal("tab with nothing needing the user said nothing")
	}
}
