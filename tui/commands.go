package tui

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

// waitForEvent blocks on the next client event. The root re-arms it after
// handling each connEventMsg, so exactly one is outstanding. A chat
// snapshot is decoded here, off the UI goroutine: its size is the chat's
// (tens of MB from a host that sends long replies inline), and Update then
// only projects the decoded state.
func waitForEvent(ctx context.Context, b Backend) tea.Cmd {
	return waitForEventAfter(ctx, b, time.Time{})
}

// waitForEventAfter is waitForEvent taking nothing before notBefore (a
// batch's pumpPace, stream_batch.go).
func waitForEventAfter(ctx context.Context, b Backend, notBefore time.Time) tea.Cmd {
	if bb, ok := b.(batchBackend); ok {
		return waitForBatch(ctx, b, bb, notBefore) // stream_batch.go
	}
	return func() tea.Msg {
		ev, err := b.Next(ctx)
		if err != nil {
			return pumpStoppedMsg{err: err, b: b}
		}
		return eventMsg(ev, b)
	}
}

// eventMsg wraps a client event for Update, decoding a chat snapshot's
// state (it runs in the event pump's command).
func eventMsg(ev ahpclient.Event, b Backend) connEventMsg {
	msg := connEventMsg{ev: ev, b: b}
	if se, ok := ev.(ahpclient.SnapshotEvent); ok && mayBeChat(se.Snapshot.Resource) {
		cs, err := ahpwire.DecodeChatState(se.Snapshot.State)
		msg.chat = &decodedChat{state: cs, err: err}
	}
	return msg
}

// mayBeChat reports whether a snapshot of uri may be a chat's: an ahp-chat:
// URI, or one of another dialect (<provider>:/…) that only the model can
// place; root, session and terminal/changeset URIs are not.
func mayBeChat(uri string) bool {
	return strings.HasPrefix(uri, chatScheme) || !(uri == rootChannel || strings.HasPrefix(uri, sessionScheme) || isExtChannel(uri))
}

func reqCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, requestTimeout)
}

// createSession creates a session with a client-chosen URI and subscribes.
func createSession(ctx context.Context, b Backend, uri, provider, dir string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		p := ahpwire.CreateSessionParams{Channel: uri, Provider: provider}
		if dir != "" {
			p.WorkingDirectories = []string{dir}
		}
		if err := b.CreateSession(ctx, p); err != nil {
			return sessionCreatedMsg{session: uri, err: fmt.Errorf("create session: %w", err)}
		}
		if _, err := b.Subscribe(ctx, uri, nil); err != nil {
			return sessionCreatedMsg{session: uri, err: fmt.Errorf("subscribe to new session: %w", err)}
		}
		return sessionCreatedMsg{session: uri}
	}
}

// subscribe subscribes to a channel; view bounds a chat snapshot.
func subscribe(ctx context.Context, b Backend, channel string, turns int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		var view *ahpwire.SubscribeView
		if turns > 0 {
			view = &ahpwire.SubscribeView{Turns: ahpwire.Ptr(turns)}
		}
		_, err := b.Subscribe(ctx, channel, view)
		if err != nil {
			err = fmt.Errorf("subscribe %s: %w", channel, err)
		}
		return subscribedMsg{channel: channel, err: err}
	}
}

// unsubscribe drops channels; errors are irrelevant (the channel is gone
// locally either way), so it reports nothing.
func unsubscribe(ctx context.Context, b Backend, channels ...string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		for _, ch := range channels {
			if ch != "" {
				_ = b.Unsubscribe(ctx, ch)
			}
		}
		return nil
	}
}

// disposeSession disposes a session.
func disposeSession(ctx context.Context, b Backend, session string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		err := b.DisposeSession(ctx, session)
		if err != nil {
			err = fmt.Errorf("dispose session: %w", err)
		}
		return sessionDisposedMsg{session: session, err: err}
	}
}

// listSessions refreshes the session list.
func listSessions(ctx context.Context, b Backend) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		res, err := b.ListSessions(ctx, 200, "")
		return sessionsListedMsg{ev: ahpclient.SessionsEvent{Result: res, Err: err}, b: b}
	}
}

// dispatch sends an action; what names it for error messages.
func dispatch(ctx context.Context, b Backend, channel string, a ahpwire.Action, what string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		seq, err := b.Dispatch(ctx, channel, a)
		if err != nil {
			err = fmt.Errorf("%s: %w", what, err)
		}
		return dispatchedMsg{channel: channel, clientSeq: seq, what: what, action: a, err: err}
	}
}

// resend re-dispatches an uncertain action.
func resend(ctx context.Context, b Backend, channel string, clientSeq uint64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		seq, err := b.Resend(ctx, clientSeq)
		if err != nil {
			err = fmt.Errorf("resend: %w", err)
		}
		return dispatchedMsg{channel: channel, clientSeq: seq, what: "resend", err: err}
	}
}

// fetchTurns asks for older turns. The page arrives as chat/turnsLoaded
// and the end of the call as a TurnsFetchedEvent after it, both through
// the event stream (handleEvent), so the command itself reports nothing:
// its result, a separate message, could reach Update before the page.
func fetchTurns(ctx context.Context, b Backend, channel, cursor string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		_ = b.FetchTurns(ctx, channel, cursor) // the error comes as TurnsFetchedEvent.Err
		return nil
	}
}

// prepareEditor writes the draft to a temp file for $EDITOR.
func prepareEditor(draft string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "ahptui-prompt-*.md")
		if err != nil {
			return editorReadyMsg{err: fmt.Errorf("editor temp file: %w", err)}
		}
		_, werr := f.WriteString(draft)
		cerr := f.Close()
		if err := errors.Join(werr, cerr); err != nil {
			_ = os.Remove(f.Name())
			return editorReadyMsg{err: fmt.Errorf("editor temp file: %w", err)}
		}
		return editorReadyMsg{path: f.Name()}
	}
}

// runEditor suspends the TUI and runs $VISUAL/$EDITOR (default vi) on path.
func runEditor(editor, path string) tea.Cmd {
	fields := strings.Fields(editor)
	if len(fields) == 0 {
		fields = []string{"vi"}
	}
	c := exec.Command(fields[0], append(fields[1:], path)...) //nolint:gosec // the user's own editor
	return tea.ExecProcess(c, func(err error) tea.Msg { return editorClosedMsg{path: path, err: err} })
}

// readEditor reads back and removes the temp file.
func readEditor(path string) tea.Cmd {
	return func() tea.Msg {
		b, err := os.ReadFile(path)
		_ = os.Remove(path)
		if err != nil {
			return editorResultMsg{err: fmt.Errorf("read editor file: %w", err)}
		}
		return editorResultMsg{text: strings.TrimRight(string(b), "\n")}
	}
}

// expireNotice clears notice id after d.
func expireNotice(id int, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return noticeExpiredMsg{id: id} })
}

// frameTick schedules the next streaming frame.
func frameTick(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return frameMsg{} })
}

// runHook runs a side-effecting callback (the demo fault injector) off the
// update loop.
func runHook(f func()) tea.Cmd {
	return func() tea.Msg { f(); return demoFaultMsg{} }
}

// onDispatched: a failed dispatch is a notice, and a message that did not
// reach the open chat is kept visibly (chat_unsent.go).
func (m *Model) onDispatched(msg dispatchedMsg) tea.Cmd {
	if msg.err != nil {
		if t := sentText(msg.action); t != "" && m.chat != nil && msg.channel == m.chat.chat {
			m.chat.addUnsent(t, errText(msg.err))
		}
		return m.errNotice("", msg.err)
	}
	return nil
}
