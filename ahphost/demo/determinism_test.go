package demo

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// scenario is one scripted turn with its fake user.
type scenario struct {
	name, text string
	decide     decider
}

func scenarios() []scenario {
	return []scenario{
		{"plain", "Refactor the config loader", nil},
		{"help", "/demo help", nil},
		{"unknown", "/demo dance", nil},
		{"tools approve", "/demo tools", approveAll},
		{"tools deny", "/demo tools", policy{}.decider()},
		{"big", "/demo big 70000", nil},
		{"slow", "/demo slow 12", nil},
		{"error", "/demo error", nil},
		{"input", "/demo input", answerInput(ahpwire.InputAccept, nil, map[string]ahpwire.ChatInputAnswer{
			"name": submitted(ahpwire.TextAnswer("x")), "tests": submitted(ahpwire.BoolAnswer(true)),
			"language": submitted(ahpwire.SelectedAnswer("rust")),
		})},
	}
}

func TestDeterminism(t *testing.T) {
	dir := projectDir(t)
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			// A fresh agent each time, and one agent reused: same output.
			shared := testAgent(dir)
			var runs [][]string
			for _, ag := range []*Agent{testAgent(dir), shared, shared} {
				rec, err := runTurn(t, ag, "turn-1", sc.text, false, sc.decide)
				if err != nil {
					t.Fatal(err)
				}
				runs = append(runs, encode(t, rec.actions))
			}
			for i := 1; i < len(runs); i++ {
				if !slices.Equal(runs[0], runs[i]) {
					t.Fatalf("run %d differs from run 0:\n%s\n----\n%s", i, strings.Join(runs[0], "\n"), strings.Join(runs[i], "\n"))
				}
			}
		})
	}
}

func TestPaceDoesNotChangeOutput(t *testing.T) {
	dir := projectDir(t)
	instant, err := runTurn(t, testAgent(dir), "t1", "/demo tools", false, approveAll)
	if err != nil {
		t.Fatal(err)
	}
	paced, err := runTurn(t, New(Options{Dir: dir, Now: fixedNow, Pace: 50 * time.Microsecond}), "t1", "/demo tools", false, approveAll)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(encode(t, instant.actions), encode(t, paced.actions)) {
		t.Fatal("pacing changed the action sequence")
	}
}

func TestDurationFromClock(t *testing.T) {
	now := fixedNow()
	var mu sync.Mutex
	clock := func() time.Time { // advances 10 ms per reading
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(10 * time.Millisecond)
		return now
	}
	rec := newRecorder(t, nil)
	err := New(Options{Now: clock}).Run(t.Context(), Turn{TurnID: "t1", Text: "/demo help", StartedAt: fixedNow(), Emit: rec.emit, Client: rec.client})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := last(rec.actions).(*ahpwire.ChatTurnComplete)
	if !ok || c.Duration == nil || *c.Duration != 10 {
		t.Fatalf("turnComplete %+v", last(rec.actions))
	}
	// A StartedAt in the future (clock skew) never gives a negative duration.
	rec = newRecorder(t, nil)
	if err := testAgent("").Run(t.Context(), Turn{TurnID: "t1", Text: "/demo help", StartedAt: fixedNow().Add(time.Hour), Emit: rec.emit}); err != nil {
		t.Fatal(err)
	}
	if c := last(rec.actions).(*ahpwire.ChatTurnComplete); *c.Duration != 0 {
		t.Fatalf("negative clock gap gave duration %d", *c.Duration)
	}
}

// cancelAfter runs text with a real pace and cancels once the agent has
// emitted n actions (or the decider's trigger fires). It checks that Run
// returns promptly with context.Canceled and emits nothing after it.
func cancelAfter(t *testing.T, opts Options, text string, n int) []ahpwire.Action {
	t.Helper()
	before := testkit.Goroutines()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu       sync.Mutex
		got      []ahpwire.Action
		canceled bool
		late     bool
	)
	emit := func(a ahpwire.Action) {
		mu.Lock()
		defer mu.Unlock()
		if canceled {
			late = true
		}
		got = append(got, a)
		if len(got) == n {
			canceled = true
			cancel()
		}
	}
	client := make(chan ahpwire.Action)
	done := make(chan error, 1)
	go func() { done <- New(opts).Run(ctx, Turn{TurnID: "t1", Text: text, Emit: emit, Client: client}) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop after cancellation")
	}
	mu.Lock()
	defer mu.Unlock()
	if late {
		t.Fatal("Run emitted after cancellation")
	}
	if len(got) != n {
		t.Fatalf("emitted %d actions, want %d", len(got), n)
	}
	testkit.CheckNoLeak(t, before)
	return got
}

func TestCancelSlowStopsPromptly(t *testing.T) {
	// cancelAfter fails if Run emits after the cancellation or does not
	// return: a pace that ignored it would do one or the other.
	got := cancelAfter(t, Options{SlowPace: 20 * time.Millisecond, Now: fixedNow}, "/demo slow", 4)
	if slices.ContainsFunc(got, func(a ahpwire.Action) bool { return a.ActionType() == ahpwire.ActionChatTurnComplete }) {
		t.Fatal("cancelled turn completed")
	}
}

func TestCancelWhileStreamingAndWaiting(t *testing.T) {
	dir := projectDir(t)
	// Mid-stream of a paced plain answer.
	cancelAfter(t, Options{Dir: dir, Pace: time.Millisecond, Now: fixedNow}, "hello there", 10)
	// While waiting for a confirmation: cancel on the edit's toolCallReady.
	rec, err := runTurn(t, testAgent(dir), "t1", "/demo tools", false, approveAll)
	if err != nil {
		t.Fatal(err)
	}
	idx := slices.IndexFunc(rec.emitted, func(a ahpwire.Action) bool {
		r, ok := a.(*ahpwire.ChatToolCallReady)
		return ok && r.Confirmed == ""
	})
	cancelAfter(t, Options{Dir: dir, Now: fixedNow}, "/demo tools", idx+1)
	// While waiting for input answers.
	idx = slices.IndexFunc(mustRun(t, "/demo input"), func(a ahpwire.Action) bool { return a.ActionType() == ahpwire.ActionChatInputRequested })
	cancelAfter(t, Options{Now: fixedNow}, "/demo input", idx+1)
}

// mustRun runs text to completion (input declined) and returns the emitted
// actions.
func mustRun(t *testing.T, text string) []ahpwire.Action {
	t.Helper()
	rec, err := runTurn(t, testAgent(""), "t1", text, false, answerInput(ahpwire.InputDecline, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	return rec.emitted
}

func TestClientClosedWhileWaiting(t *testing.T) {
	before := testkit.Goroutines()
	client := make(chan ahpwire.Action)
	close(client)
	var got []ahpwire.Action
	err := testAgent("").Run(t.Context(), Turn{TurnID: "t1", Text: "/demo input", Emit: func(a ahpwire.Action) { got = append(got, a) }, Client: client})
	if !errors.Is(err, ErrClientClosed) {
		t.Fatalf("Run = %v, want ErrClientClosed", err)
	}
	if find[*ahpwire.ChatInputRequested](got) == nil || find[*ahpwire.ChatTurnComplete](got) != nil {
		t.Fatalf("actions:\n%s", dump(got))
	}
	testkit.CheckNoLeak(t, before)
}

func TestConcurrentTurns(t *testing.T) {
	dir := projectDir(t)
	ag := testAgent(dir)
	want, err := runTurn(t, ag, "t1", "/demo tools", false, approveAll)
	if err != nil {
		t.Fatal(err)
	}
	wantEnc := encode(t, want.actions)
	var wg sync.WaitGroup
	results := make([][]string, 8)
	for i := range results {
		wg.Go(func() {
			rec := newRecorder(t, approveAll)
			if err := ag.Run(t.Context(), Turn{TurnID: "t1", Text: "/demo tools", StartedAt: fixedNow(), Emit: rec.emit, Client: rec.client}); err != nil {
				t.Error(err)
				return
			}
			out := make([]string, len(rec.actions))
			for j, a := range rec.actions {
				b, _ := ahpwire.MarshalAction(a)
				out[j] = string(b)
			}
			results[i] = out
		})
	}
	wg.Wait()
	for i, r := range results {
		if !slices.Equal(r, wantEnc) {
			t.Fatalf("concurrent run %d differs", i)
		}
	}
}
