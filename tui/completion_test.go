package tui

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/uikit"
)

// fakeCompleter answers completions from a fixed list, optionally slowly
// or with an error, and counts calls.
type fakeCompleter struct {
	fakeBackend
	items []ahpwire.CompletionItem
	delay time.Duration
	err   error
	calls atomic.Int32
	last  atomic.Value // the last (text, offset) as "text|offset"
}

func (f *fakeCompleter) Completions(ctx context.Context, chat, text string, offset int) ([]ahpwire.CompletionItem, error) {
	f.calls.Add(1)
	f.last.Store(text + "|" + itoaTest(offset))
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return f.items, f.err
}

func itoaTest(n int) string { return strconv.Itoa(n) }

func fileItem(path string) ahpwire.CompletionItem {
	return ahpwire.CompletionItem{InsertText: "@" + path, Attachment: ahpwire.MessageAttachment{
		Type: ahpwire.AttachmentResource, Label: path, URI: "file:///w/" + path, DisplayKind: "document"}}
}

// typeInto types s into the composer and lets the completer observe each key.
func typeInto(t *testing.T, comp *chat.Composer, c *chat.Completer, s string) tea.Cmd {
	t.Helper()
	var last tea.Cmd
	for _, r := range s {
		*comp, _, _ = comp.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		if cmd := c.Observe(comp); cmd != nil {
			last = cmd
		}
	}
	return last
}

// fire runs a debounce tick command and returns its message.
func fire(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	return cmd()
}

func TestCompleterDebouncesFiltersAndAccepts(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	be := &fakeCompleter{items: []ahpwire.CompletionItem{fileItem("main.go"), fileItem("sub/notes.txt"), fileItem("README.md")}}
	comp := chat.NewComposer(km.Composer, &st)
	c := chat.NewCompleter(km.Completion, "ahp-chat:/c", []string{"@", "/"}, be)
	tick1 := typeInto(t, &comp, &c, "é see @")
	tick2 := typeInto(t, &comp, &c, "n")
	if be.calls.Load() != 0 {
		t.Fatal("the host was asked before the debounce")
	}
	// The first tick is stale: the token changed since.
	if cmd := c.Due(context.Background(), fire(t, tick1).(chat.CompletionDueMsg), &comp); cmd != nil {
		t.Fatal("a stale debounce started a request")
	}
	req := c.Due(context.Background(), fire(t, tick2).(chat.CompletionDueMsg), &comp)
	if req == nil || be.calls.Load() != 0 {
		t.Fatal("the request must run in the returned command, not in Update")
	}
	res := req().(chat.CompletionResultMsg)
	if got := be.last.Load(); got != "é see @n|8" {
		t.Fatalf("asked %v", got)
	}
	c.Result(res)
	if !c.Open() || len(c.Shown) != 2 {
		t.Fatalf("shown %v (want main.go and sub/notes.txt for 'n')", c.Shown)
	}
	typeInto(t, &comp, &c, "ot")
	if len(c.Shown) != 1 || c.Items[c.Shown[0]].InsertText != "@sub/notes.txt" {
		t.Fatalf("local filter %v", c.Shown)
	}
	view := ansi.Strip(strings.Join(c.View(&st, 80, 6), "\n"))
	if !strings.Contains(view, "@sub/notes.txt") || !strings.HasPrefix(view, "      ") {
		t.Fatalf("popup %q", view)
	}
	used, it := c.Update(keyPress("tab"))
	if !used || it == nil {
		t.Fatal("tab did not accept")
	}
	c.Accept(&comp, *it)
	if comp.Value() != "é see @sub/notes.txt " || c.Open() {
		t.Fatalf("after accept %q open=%v", comp.Value(), c.Open())
	}
	typeInto(t, &comp, &c, "please")
	atts := c.TakeAttachments(comp.Value())
	if len(atts) != 1 || atts[0].URI != "file:///w/sub/notes.txt" {
		t.Fatalf("attachments %+v", atts)
	}
	if len(c.TakeAttachments(comp.Value())) != 0 {
		t.Fatal("attachments sent twice")
	}
}

func TestCompleterEscStaleAndErrors(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	be := &fakeCompleter{items: []ahpwire.CompletionItem{fileItem("a.go")}}
	comp := chat.NewComposer(km.Composer, &st)
	c := chat.NewCompleter(km.Completion, "ahp-chat:/c", []string{"@"}, be)
	tick := typeInto(t, &comp, &c, "@")
	res := c.Due(context.Background(), fire(t, tick).(chat.CompletionDueMsg), &comp)()
	typeInto(t, &comp, &c, " ") // leaving the token: the answer is stale
	c.Result(res.(chat.CompletionResultMsg))
	if c.Open() {
		t.Fatal("a stale answer opened the popup")
	}
	tick = typeInto(t, &comp, &c, "@")
	c.Result(c.Due(context.Background(), fire(t, tick).(chat.CompletionDueMsg), &comp)().(chat.CompletionResultMsg))
	if !c.Open() {
		t.Fatal("popup not open")
	}
	if used, _ := c.Update(keyPress("esc")); !used || c.Open() {
		t.Fatal("esc did not close")
	}
	// An erroring host: no popup.
	be.err = errors.New("boom")
	tick = typeInto(t, &comp, &c, " @")
	c.Result(c.Due(context.Background(), fire(t, tick).(chat.CompletionDueMsg), &comp)().(chat.CompletionResultMsg))
	if c.Open() || len(c.View(&st, 80, 0)) != 0 {
		t.Fatal("an error opened the popup")
	}
	// Without triggers or without backend support, nothing is scheduled.
	off := chat.NewCompleter(km.Completion, "ahp-chat:/c", nil, be)
	if cmd := typeInto(t, &comp, &off, "@x"); cmd != nil {
		t.Fatal("completions without triggers")
	}
}

func TestCompleterCancelsSlowRequest(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	be := &fakeCompleter{items: []ahpwire.CompletionItem{fileItem("a.go")}, delay: time.Hour}
	comp := chat.NewComposer(km.Composer, &st)
	c := chat.NewCompleter(km.Completion, "ahp-chat:/c", []string{"@"}, be)
	tick := typeInto(t, &comp, &c, "@")
	req := c.Due(context.Background(), fire(t, tick).(chat.CompletionDueMsg), &comp)
	done := make(chan tea.Msg, 1)
	go func() { done <- req() }()
	typeInto(t, &comp, &c, " ") // token gone: the request is cancelled
	select {
	case m := <-done:
		if r := m.(chat.CompletionResultMsg); !errors.Is(r.Err, context.Canceled) {
			t.Fatalf("result %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the slow request was not cancelled")
	}
}

func TestCompleterEnterOnCompleteTokenSends(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	be := &fakeCompleter{items: []ahpwire.CompletionItem{{InsertText: "/demo tools"}, {InsertText: "/demo tools extra"}}}
	comp := chat.NewComposer(km.Composer, &st)
	c := chat.NewCompleter(km.Completion, "ahp-chat:/c", []string{"@", "/"}, be)
	tick := typeInto(t, &comp, &c, "/demo tools")
	c.Result(c.Due(context.Background(), fire(t, tick).(chat.CompletionDueMsg), &comp)().(chat.CompletionResultMsg))
	if !c.Open() {
		t.Fatal("popup not open for a command")
	}
	if used, _ := c.Update(keyPress("enter")); used || c.Open() {
		t.Fatal("enter on an already complete command must send, not insert")
	}
	// Tab still inserts (with the trailing space).
	tick = typeInto(t, &comp, &c, "x")
	_ = tick
	c.Token = "/demo to"
	c.Items = be.items
	c.Refilter()
	if used, it := c.Update(keyPress("tab")); !used || it == nil || it.InsertText != "/demo tools" {
		t.Fatalf("tab %v %+v", used, it)
	}
}
