package tui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
)

// fakeBackend records calls; Next never yields (tests deliver events).
type fakeBackend struct {
	mu         sync.Mutex
	dispatched []dispatchCall
	queued     []dispatchCall // queued, not yet flushed
	subscribed []string
	created    []ahpwire.CreateSessionParams
	disposed   []string
	fetched    []string
	resent     []uint64
	retried    int // RetryNow calls
	seq        uint64
	sessions   []ahpwire.SessionSummary // what ListSessions returns
	subErr     map[string]error         // Subscribe fails for these channels
	// holdFetch, when set, makes FetchTurns wait until it is closed, so a
	// test delivers the pages (chat/turnsLoaded, then turnsFetchedMsg) itself
	// in the order the real client does.
	holdFetch chan struct{}
}

type dispatchCall struct {
	channel string
	action  ahpwire.Action
}

func (f *fakeBackend) RetryNow() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.retried++
	return true
}

func (f *fakeBackend) Next(ctx context.Context) (ahpclient.Event, error) {
	return nil, context.Canceled
}

func (f *fakeBackend) ListSessions(context.Context, int, string) (ahpwire.ListSessionsResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return ahpwire.ListSessionsResult{Items: f.sessions}, nil
}

func (f *fakeBackend) Subscribe(_ context.Context, ch string, _ *ahpwire.SubscribeView) (ahpwire.Snapshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subscribed = append(f.subscribed, ch)
	if err := f.subErr[ch]; err != nil {
		return ahpwire.Snapshot{}, err
	}
	return ahpwire.Snapshot{}, nil
}

func (f *fakeBackend) Unsubscribe(context.Context, string) error { return nil }

func (f *fakeBackend) CreateSession(_ context.Context, p ahpwire.CreateSessionParams) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.created = append(f.created, p)
	return nil
}

func (f *fakeBackend) DisposeSession(_ context.Context, ch string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.disposed = append(f.disposed, ch)
	return nil
}

func (f *fakeBackend) FetchTurns(_ context.Context, ch, cursor string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetched = append(f.fetched, cursor)
	hold := f.holdFetch
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	f.mu.Lock()
	return nil
}

func (f *fakeBackend) Dispatch(_ context.Context, ch string, a ahpwire.Action) (uint64, error) {
	seq, _ := f.Queue(ch, a)
	return seq, f.Flush(seq)
}

// Queue and Flush keep the real client's contract: what Update queued is
// dispatched, in queue order, by whichever command flushes first.
func (f *fakeBackend) Queue(ch string, a ahpwire.Action) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	f.queued = append(f.queued, dispatchCall{ch, a})
	return f.seq, nil
}

func (f *fakeBackend) Flush(uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dispatched = append(f.dispatched, f.queued...)
	f.queued = nil
	return nil
}

func (f *fakeBackend) Resend(_ context.Context, seq uint64) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resent = append(f.resent, seq)
	f.seq++
	return f.seq, nil
}

func (f *fakeBackend) lastDispatch(t *testing.T) dispatchCall {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.dispatched) == 0 {
		t.Fatal("nothing was dispatched")
	}
	return f.dispatched[len(f.dispatched)-1]
}

// fixedNow is the test clock.
var fixedNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// newTestModel builds a root model with a fake backend at w×h.
func newTestModel(t testing.TB, w, h int) (Model, *fakeBackend) {
	t.Helper()
	fb := &fakeBackend{}
	n := 0
	m := newModel(Options{
		Backend: fb, Host: "127.0.0.1:4321", Dark: true, Editor: "true",
		Now: func() time.Time { return fixedNow }, NewID: func() string { n++; return fmt.Sprintf("id-%d", n) },
		FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond,
	})
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return m, fb
}

// send delivers one message and runs the commands it returns (after the
// late results of earlier commands, see runCmds).
func send(t testing.TB, m Model, msg tea.Msg) Model {
	t.Helper()
	m = sendLate(t, m)
	nm, cmd := m.Update(msg)
	return runCmds(t, nm.(Model), cmd, 0)
}

// sendLate delivers the results of commands that came late (lateQueue).
func sendLate(t testing.TB, m Model) Model {
	t.Helper()
	for _, l := range lateFor(t).take() {
		nm, cmd := m.Update(l)
		m = runCmds(t, nm.(Model), cmd, 0)
	}
	return m
}

// cmdWait is how long runCmds waits for a command's result before it
// lets the command go (a timer) or, for I/O, delivers its result late.
const cmdWait = 200 * time.Millisecond

// testTick is the models' timer in tests (Options.Tick, set by newModel):
// a short one (frames and notices at 1 ns, the completion debounce) is
// tea.Tick; one of cmdWait or more was only ever waited for and let go by
// runCmds, so its command yields nothing, at once. A test that needs a
// timer's message sends it itself.
func testTick(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	if d < cmdWait {
		return tea.Tick(d, fn)
	}
	return func() tea.Msg { return nil }
}

// newModel is New with the test timer (testTick) unless o names one.
func newModel(o Options) Model {
	if o.Tick == nil {
		o.Tick = testTick
	}
	return New(o)
}

// runCmds executes cmd (expanding batches) and feeds our own messages back
// into Update. Messages of Bubble Tea itself (clipboard, exec) and the
// event pump's stop are dropped.
func runCmds(t testing.TB, m Model, cmd tea.Cmd, depth int) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	if depth > 20 {
		t.Fatal("command feedback loop")
	}
	late := lateFor(t)
	msg, ok := runWithinLate(cmd, cmdWait, func(msg tea.Msg) {
		if isOurMsg(msg) && !isTimerMsg(msg) {
			late.push(msg) // slow I/O (-race, a loaded machine), not a timer
		}
	})
	if !ok {
		return m // a timer (cursor blink, notice expiry): not ours to wait for
	}
	switch msg := msg.(type) {
	case nil, pumpStoppedMsg, tea.QuitMsg, app.EditorReadyMsg:
		return m
	case tea.BatchMsg:
		for _, c := range msg {
			m = runCmds(t, m, c, depth+1)
		}
		return m
	}
	if !isOurMsg(msg) {
		return m
	}
	nm, next := m.Update(msg)
	return runCmds(t, nm.(Model), next, depth+1)
}

// runWithin runs cmd, giving up after d (the goroutine ends with the cmd).
func runWithin(cmd tea.Cmd, d time.Duration) (tea.Msg, bool) {
	return runWithinLate(cmd, d, func(tea.Msg) {})
}

// runWithinLate is runWithin handing what a cmd that outlived d returns
// to onLate. One goroutine runs cmd and, if it was given up on, hands its
// result over itself, so an abandoned timer command is one goroutine
// inside bubbletea's Tick (which the live rig's leak check can tell apart).
func runWithinLate(cmd tea.Cmd, d time.Duration, onLate func(tea.Msg)) (tea.Msg, bool) {
	ch := make(chan tea.Msg, 1)
	var mu sync.Mutex
	abandoned := false
	go func() {
		msg := cmd()
		mu.Lock()
		late := abandoned
		mu.Unlock()
		if late {
			onLate(msg)
			return
		}
		ch <- msg
	}()
	select {
	case msg := <-ch:
		return msg, true
	case <-time.After(d):
		mu.Lock()
		abandoned = true
		mu.Unlock()
		select {
		case msg := <-ch: // it finished just before
			return msg, true
		default:
			return nil, false
		}
	}
}

// isTimerMsg reports whether msg is one of the UI's timers (tea.Tick):
// a timer runCmds gave up on is let go, not delivered late, or a 1 s
// tick would re-arm itself for the rest of the test.
func isTimerMsg(msg tea.Msg) bool {
	switch msg.(type) {
	case connectTickMsg, hostTickMsg, hostRetryMsg, app.NoticeExpiredMsg, app.FrameMsg, chat.CompletionDueMsg,
		promptGuardEndedMsg, retryTickMsg, stallTickMsg:
		return true
	}
	return false
}

// lateQueue holds the results of a test's I/O commands that outlived
// runWithin's wait (a resource read, a request on a slow machine); send
// delivers them first, as Bubble Tea would once they arrive, and a live
// rig's pump wakes up for them (wait).
type lateQueue struct {
	mu   sync.Mutex
	msgs []tea.Msg
	wake chan struct{} // closed by the next push
}

var lateQueues sync.Map // testing.TB → *lateQueue

// lateFor returns t's queue of late results.
func lateFor(t testing.TB) *lateQueue {
	q, loaded := lateQueues.LoadOrStore(t, &lateQueue{})
	if !loaded {
		t.Cleanup(func() { lateQueues.Delete(t) })
	}
	return q.(*lateQueue)
}

func (q *lateQueue) push(msg tea.Msg) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.msgs = append(q.msgs, msg)
	if q.wake != nil {
		close(q.wake)
		q.wake = nil
	}
}

// wait returns a channel closed once a late result is queued (at once if
// one is).
func (q *lateQueue) wait() <-chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.wake == nil {
		q.wake = make(chan struct{})
	}
	ch := q.wake
	if len(q.msgs) > 0 {
		close(q.wake)
		q.wake = nil
	}
	return ch
}

func (q *lateQueue) take() []tea.Msg {
	q.mu.Lock()
	defer q.mu.Unlock()
	msgs := q.msgs
	q.msgs = nil
	return msgs
}

func isOurMsg(msg tea.Msg) bool {
	// the root's, its screens', its dialogs' and the UI kit's messages
	t := reflect.TypeOf(msg)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && strings.HasPrefix(t.PkgPath(), "github.com/ahptui/ahptui/tui")
}

// keyPress builds a key press from a key name (testkit.KeyPress).
var keyPress = testkit.KeyPress

// typeText sends each rune as a key press.
func typeText(t testing.TB, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		m = send(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

func viewText(m Model) string { return ansi.Strip(m.View().Content) }

// golden compares got with testdata/golden/<test name>/<name>.golden
// (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	testkit.Golden(t, testkit.TestName(t)+"/"+name, got)
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
