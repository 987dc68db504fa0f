//go:build !windows

package cli

import (
	"bytes"
	"log/slog"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahphost"
)

// idleModel renders a line and waits.
type idleModel struct{ started chan struct{} }

func (m idleModel) Init() tea.Cmd {
	return func() tea.Msg { close(m.started); return nil }
}
func (m idleModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m idleModel) View() tea.View                      { return tea.NewView("idle") }

// panicModel panics in Update on its first message.
type panicModel struct{}

func (panicModel) Init() tea.Cmd                       { return func() tea.Msg { return "boom" } }
func (panicModel) Update(tea.Msg) (tea.Model, tea.Cmd) { panic("deliberate panic in Update") }
func (panicModel) View() tea.View                      { return tea.NewView("") }

func testProgram(m tea.Model, out *bytes.Buffer) *tea.Program {
	return tea.NewProgram(m, tea.WithInput(strings.NewReader("")), tea.WithOutput(out),
		tea.WithWindowSize(40, 10), tea.WithoutSignalHandler())
}

// TestRunUIPanicExitsOne: a panic inside the Bubble Tea program gives exit
// code 1 and a message, not 0 (it used to be taken for a normal kill) and
// not 2 (the usage code).
func TestRunUIPanicExitsOne(t *testing.T) {
	var out, errb bytes.Buffer
	_, code := runUI(testProgram(panicModel{}, &out), stdio{out: &out, err: &errb}, slog.New(slog.DiscardHandler))
	if code != exitError {
		t.Fatalf("exit code %d, want %d", code, exitError)
	}
	if !strings.Contains(errb.String(), "internal error") || !strings.Contains(errb.String(), "terminal was restored") {
		t.Fatalf("message %q", errb.String())
	}
}

// TestRunUISignals: SIGHUP, SIGTERM and SIGINT end the program through
// Bubble Tea's shutdown (which restores the terminal) with 128+signo.
func TestRunUISignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			var out, errb bytes.Buffer
			m := idleModel{started: make(chan struct{})}
			done := make(chan int, 1)
			go func() {
				_, code := runUI(testProgram(m, &out), stdio{out: &out, err: &errb}, slog.New(slog.DiscardHandler))
				done <- code
			}()
			select {
			case <-m.started:
			case <-time.After(testTimeout):
				t.Fatal("program did not start")
			}
			time.Sleep(50 * time.Millisecond) // runUI's signal watch is armed before Run
			if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case code := <-done:
				if code != 128+int(sig) {
					t.Fatalf("exit code %d, want %d", code, 128+int(sig))
				}
			case <-time.After(testTimeout):
				t.Fatalf("%v did not end the program", sig)
			}
		})
	}
}

// TestExecInterrupted: SIGINT during `exec` cancels the turn on the host
// and exits 130.
func TestExecInterrupted(t *testing.T) {
	startTestHost(t) // private state and config directories
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: execToken, Pace: 10 * time.Millisecond})
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	u, err := h.Listen("127.0.0.1:0")
	must(t, err)
	out, errb := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"exec", "--json", u, "/demo slow 200"}, stdio{in: strings.NewReader(""), out: out, err: errb})
	}()
	deadline := time.Now().Add(testTimeout)
	for !strings.Contains(out.String(), `"type":"text"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no text streamed: %q %q", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	must(t, syscall.Kill(syscall.Getpid(), syscall.SIGINT))
	select {
	case code := <-done:
		if code != execInterrupted || !strings.Contains(out.String(), `"state":"cancelled"`) {
			t.Fatalf("exit %d; out %q", code, out.String())
		}
	case <-time.After(testTimeout):
		t.Fatal("exec did not end on SIGINT")
	}
}
