package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// requestTimeout bounds every request command.
const requestTimeout = 30 * time.Second

// ReqCtx bounds one request by requestTimeout.
func ReqCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, requestTimeout)
}

// CreateSession creates a session with a client-chosen URI and subscribes.
func CreateSession(ctx context.Context, b Backend, uri, provider, dir string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		p := ahpwire.CreateSessionParams{Channel: uri, Provider: provider}
		if dir != "" {
			p.WorkingDirectories = []string{dir}
		}
		if err := b.CreateSession(ctx, p); err != nil {
			return SessionCreatedMsg{Session: uri, Err: fmt.Errorf("create session: %w", err)}
		}
		if _, err := b.Subscribe(ctx, uri, nil); err != nil {
			return SessionCreatedMsg{Session: uri, Err: fmt.Errorf("subscribe to new session: %w", err)}
		}
		return SessionCreatedMsg{Session: uri}
	}
}

// Subscribe subscribes to a channel; view bounds a chat snapshot.
func Subscribe(ctx context.Context, b Backend, channel string, turns int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		var view *ahpwire.SubscribeView
		if turns > 0 {
			view = &ahpwire.SubscribeView{Turns: ahpwire.Ptr(turns)}
		}
		_, err := b.Subscribe(ctx, channel, view)
		if err != nil {
			err = fmt.Errorf("subscribe %s: %w", channel, err)
		}
		return SubscribedMsg{Channel: channel, Err: err}
	}
}

// Unsubscribe drops channels; errors are irrelevant (the channel is gone
// locally either way), so it reports nothing.
func Unsubscribe(ctx context.Context, b Backend, channels ...string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		for _, ch := range channels {
			if ch != "" {
				_ = b.Unsubscribe(ctx, ch)
			}
		}
		return nil
	}
}

// DisposeSession disposes a session.
func DisposeSession(ctx context.Context, b Backend, session string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		err := b.DisposeSession(ctx, session)
		if err != nil {
			err = fmt.Errorf("dispose session: %w", err)
		}
		return SessionDisposedMsg{Session: session, Err: err}
	}
}

// Session list paging: ListSessions reads up to sessionPages pages of
// sessionsPage sessions.
const (
	sessionsPage = 200
	sessionPages = 50
)

// ListSessions refreshes the session list: every page the host has (up
// to sessionPages), so that a long-running host's older sessions are in
// the picker and its filter, not only the newest page. The result has no
// NextCursor (the list is as whole as it gets).
func ListSessions(ctx context.Context, b Backend) tea.Cmd {
	return func() tea.Msg {
		var all ahpwire.ListSessionsResult
		cursor := ""
		for range sessionPages {
			rctx, cancel := ReqCtx(ctx)
			res, err := b.ListSessions(rctx, sessionsPage, cursor)
			cancel()
			if err != nil {
				if len(all.Items) == 0 {
					return SessionsListedMsg{Event: ahpclient.SessionsEvent{Result: res, Err: err}, Backend: b}
				}
				break // show what came; the next refresh tries again
			}
			all.Items = append(all.Items, res.Items...)
			if res.NextCursor == "" || res.NextCursor == cursor {
				break
			}
			cursor = res.NextCursor
		}
		return SessionsListedMsg{Event: ahpclient.SessionsEvent{Result: all}, Backend: b}
	}
}

// Resend re-dispatches an uncertain action.
func Resend(ctx context.Context, b Backend, channel string, clientSeq uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		seq, err := b.Resend(ctx, clientSeq)
		if err != nil {
			err = fmt.Errorf("resend: %w", err)
		}
		return DispatchedMsg{Channel: channel, ClientSeq: seq, What: "resend", Err: err}
	}
}

// FetchTurns asks for older turns. The page arrives as chat/turnsLoaded
// and the end of the call as a TurnsFetchedEvent after it, both through
// the event stream (handleEvent), so the command itself reports nothing:
// its result, a separate message, could reach Update before the page.
func FetchTurns(ctx context.Context, b Backend, channel, cursor string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := ReqCtx(ctx)
		defer cancel()
		_ = b.FetchTurns(ctx, channel, cursor) // the error comes as TurnsFetchedEvent.Err
		return nil
	}
}

// PrepareEditor writes the draft to a temp file for $EDITOR.
func PrepareEditor(draft string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "ahptui-prompt-*.md")
		if err != nil {
			return EditorReadyMsg{Err: fmt.Errorf("editor temp file: %w", err)}
		}
		_, werr := f.WriteString(draft)
		cerr := f.Close()
		if err := errors.Join(werr, cerr); err != nil {
			_ = os.Remove(f.Name())
			return EditorReadyMsg{Err: fmt.Errorf("editor temp file: %w", err)}
		}
		return EditorReadyMsg{Path: f.Name()}
	}
}

// RunEditor suspends the TUI and runs $VISUAL/$EDITOR (default vi) on path.
func RunEditor(editor, path string) tea.Cmd {
	fields := strings.Fields(editor)
	if len(fields) == 0 {
		fields = []string{"vi"}
	}
	c := exec.Command(fields[0], append(fields[1:], path)...) //nolint:gosec // the user's own editor
	return tea.ExecProcess(c, func(err error) tea.Msg { return EditorClosedMsg{Path: path, Err: err} })
}

// ReadEditor reads back and removes the temp file.
func ReadEditor(path string) tea.Cmd {
	return func() tea.Msg {
		b, err := os.ReadFile(path)
		_ = os.Remove(path)
		if err != nil {
			return EditorResultMsg{Err: fmt.Errorf("read editor file: %w", err)}
		}
		return EditorResultMsg{Text: strings.TrimRight(string(b), "\n")}
	}
}

// ExpireNotice clears notice id after d.
func ExpireNotice(id int, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return NoticeExpiredMsg{ID: id} })
}

// FrameTick schedules the next streaming frame.
func FrameTick(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return FrameMsg{} })
}

// RunHook runs a side-effecting callback (the demo fault injector) off the
// update loop.
func RunHook(f func()) tea.Cmd {
	return func() tea.Msg { f(); return DemoFaultMsg{} }
}
