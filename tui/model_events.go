package tui

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
)

// onHistory handles the messages of the prompt history.
func (m *Model) onHistory(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case app.HistoryLoadedMsg:
		if msg.Err != nil {
			m.c.Log.Warn("prompt history", "err", msg.Err)
		}
		m.c.History.Loaded(msg.Entries)
		if m.chat != nil && m.chat.Composer.Value() == "" {
			m.chat.Composer.SeedHistory(m.c.History)
		}
		return nil
	case app.HistorySavedMsg:
		if msg.Err != nil {
			m.c.Log.Warn("prompt history", "err", msg.Err)
		}
		return nil
	case dialog.HistoryPickedMsg:
		if m.chat == nil {
			return nil
		}
		m.chat.Composer.SetDraft(msg.Text)
		m.chat.Relayout()
		return m.chat.SetFocus(chat.FocusComposer)
	}
	return nil
}

// Channel URI schemes.
const (
	rootChannel   = "ahp-root://"
	sessionScheme = "ahp-session:"
	chatScheme    = "ahp-chat:"
)

// handleEvent applies one client event. Envelopes are acknowledged only
// after they have been applied.
func (m *Model) handleEvent(ev ahpclient.Event) tea.Cmd {
	switch ev := ev.(type) {
	case ahpclient.ConnStateEvent:
		return m.onConnState(ev.State)
	case ahpclient.SessionsEvent:
		if ev.Err != nil {
			return m.errNotice("could not list the sessions", ev.Err)
		}
		cmd := m.setHostSessions(m.here(), ev.Result.Items)
		if ev.Result.NextCursor != "" { // the connection's first page: read them all
			cmd = tea.Batch(cmd, app.ListSessions(m.c.Ctx, m.c.Backend))
		}
		return cmd
	case ahpclient.NotificationEvent:
		return m.onNotification(ev)
	case ahpclient.SnapshotEvent:
		return m.onSnapshot(ev.Snapshot, nil)
	case ahpclient.EnvelopeEvent:
		cmd := m.onEnvelope(ev.Envelope)
		ev.Ack()
		return cmd
	case ahpclient.ChannelLostEvent:
		m.c.Mirror.Drop(ev.Channel)
		return m.onChannelLost(ev.Channel)
	case ahpclient.OutboxEvent:
		return m.onOutbox(ev.Entry)
	case ahpclient.TurnsFetchedEvent:
		return m.onTurnsFetched(ev)
	}
	return nil
}

// onTurnsFetched hands the end of a fetchTurns of the open chat to it, in
// stream order: its page (chat/turnsLoaded) has been applied already.
func (m *Model) onTurnsFetched(ev ahpclient.TurnsFetchedEvent) tea.Cmd {
	if m.chat == nil || m.chat.URI != ev.Channel {
		return nil
	}
	if ev.Cursor == "" { // a re-read of the newest turns (chat/refturns.go): older pages have a cursor
		m.chat.RefsFetched(ev.Err)
		return nil
	}
	err := ev.Err
	if err != nil {
		err = fmt.Errorf("load older turns: %w", err)
	}
	return m.chat.Update(app.TurnsFetchedMsg{Channel: ev.Channel, Err: err})
}

func (m *Model) onConnState(s ahpclient.ConnState) tea.Cmd {
	prev := m.conn.Phase
	m.wasConnected = m.wasConnected || prev == ahpclient.Connected
	if s.Phase == ahpclient.Failed && m.wasConnected && errors.Is(s.Err, ahpclient.ErrUnauthorized) {
		// The token worked before: the host restarted with another one
		// (serve --new-token, another --token, or --ephemeral).
		s.Err = &app.TokenRefusedAgain{Err: s.Err}
	}
	m.wasConnected = m.wasConnected || s.Phase == ahpclient.Connected
	m.conn = s
	if m.chat != nil {
		m.chat.Conn = s
	}
	m.picker.Reconnecting = s.Phase == ahpclient.Reconnecting
	if h := m.hostByBackend(m.c.Backend); h != nil {
		h.conn = s
	}
	m.syncHosts()
	m.c.Log.Info("connection", "state", s.String())
	if s.Phase != ahpclient.Connected {
		m.stalled = 0
	}
	tick := tea.Batch(m.syncRetryTick(), m.syncStallTick())
	if s.Phase == ahpclient.Connected && prev == ahpclient.Reconnecting {
		var refs, older tea.Cmd
		if m.chat != nil {
			refs = m.chat.ScanRefTurns()  // a re-read lost with the link is asked again
			older = m.pageInEmptyWindow() // the snapshot came while reconnecting (onChatSnapshot)
		}
		return tea.Batch(tick, refs, older, m.setNotice(reconnectedNotice(s.Recovery), false))
	}
	return tick
}

// reconnectedNotice says how a reconnection restored the chats, in the
// user's words (not the protocol's: "reinitialized").
func reconnectedNotice(r ahpclient.Recovery) string {
	switch r {
	case ahpclient.RecoveryReplay:
		return "reconnected — nothing was missed"
	case ahpclient.RecoverySnapshot:
		return "reconnected — the open chats were reloaded from the host"
	case ahpclient.RecoveryReinitialized:
		return "reconnected — the host had restarted; the open chats were reloaded from it"
	}
	return "reconnected"
}

func (m *Model) onNotification(ev ahpclient.NotificationEvent) tea.Cmd {
	switch ev.Method {
	case ahpwire.MethodAuthRequired:
		return m.onAuthRequired(ev.Params)
	case ahpwire.MethodSessionRemoved:
		var p ahpwire.SessionRemovedParams
		if json.Unmarshal(ev.Params, &p) == nil && m.chat != nil && m.chat.Session == p.Session {
			// The transcript stays, ended (SESSION_END); the channels go.
			m.picker.Remove(m.here(), p.Session)
			m.chat.EndSession(reducer.SessionEnd{Reason: "session removed"})
			m.c.Mirror.Drop(m.chat.URI)
			m.c.Mirror.Drop(m.chat.Session)
			return tea.Batch(app.Unsubscribe(m.c.Ctx, m.c.Backend, m.chat.URI, m.chat.Session),
				m.setNotice("the session was removed", true), m.syncPrompts())
		}
	case ahpwire.MethodSessionSummaryChanged:
		var p ahpwire.SessionSummaryChangedParams
		if json.Unmarshal(ev.Params, &p) == nil && m.chat != nil && m.chat.Session == p.Session && p.Changes.Title != nil {
			m.chat.Title = *p.Changes.Title
		}
	}
	return m.onRootNotification(m.here(), ev)
}

// onRootNotification applies a host's session-list notification to the
// picker and notifies when a session's status calls for it (the attached
// host's and the watched hosts' alike, keyed by host and session).
func (m *Model) onRootNotification(host string, ev ahpclient.NotificationEvent) tea.Cmd {
	switch ev.Method {
	case ahpwire.MethodSessionAdded:
		var p ahpwire.SessionAddedParams
		if json.Unmarshal(ev.Params, &p) == nil {
			m.picker.Upsert(host, p.Summary)
		}
	case ahpwire.MethodSessionRemoved:
		var p ahpwire.SessionRemovedParams
		if json.Unmarshal(ev.Params, &p) == nil {
			m.picker.Remove(host, p.Session)
		}
	case ahpwire.MethodSessionSummaryChanged:
		var p ahpwire.SessionSummaryChangedParams
		if json.Unmarshal(ev.Params, &p) != nil {
			return nil
		}
		before, known := m.picker.HostSession(host, p.Session)
		m.picker.Change(host, p.Session, p.Changes)
		after, ok := m.picker.HostSession(host, p.Session)
		if !ok || !known || p.Changes.Status == nil {
			return nil
		}
		return m.notifyStatus(host, before, after)
	}
	return nil
}

// notifyStatus notifies for a session whose status moved (at most once
// per session per event, keyed by host and session).
func (m *Model) notifyStatus(host string, before, after ahpwire.SessionSummary) tea.Cmd {
	here := host == m.here() && m.screen == screenChat && m.chat != nil && m.chat.Session == after.Resource
	title := after.Title
	if len(m.hosts) > 1 && host != "" { // which host, when there are several
		title = cmp.Or(title, "a session") + " on @" + host
	}
	return m.notify.onStatus(host+" "+after.Resource, title, before.Status, after.Status, here)
}

// setHostSessions replaces a host's list (a listSessions result, after
// every connect): a session whose status moved meanwhile (say while the
// host was unreachable) notifies as a live change would.
func (m *Model) setHostSessions(host string, items []ahpwire.SessionSummary) tea.Cmd {
	var cmds []tea.Cmd
	had := m.picker.HostSessions(host)
	for _, after := range items {
		if before, ok := had[after.Resource]; ok && before.Status != after.Status {
			cmds = append(cmds, m.notifyStatus(host, before, after))
		}
	}
	m.picker.SetHostSessions(host, items)
	return tea.Batch(cmds...)
}

func (m *Model) onSnapshot(s ahpwire.Snapshot, d *decodedState) tea.Cmd {
	uri := s.Resource
	switch {
	case uri == rootChannel:
		if ch, err := m.loadSnapshot(s, d); err == nil {
			_, rs, _ := ch.Root()
			m.setAgents(rs.Agents)
		}
	case app.IsSideChannel(uri):
		if !m.c.Channels.Subscribed(uri) {
			return nil // one this client no longer follows
		}
		ch, err := m.loadSnapshot(s, d)
		if err != nil {
			m.c.Log.Warn("side channel snapshot", "channel", uri, "err", err)
			return nil
		}
		m.c.Channels.OnSnapshot(ch)
		m.refreshExt()
		m.notesMoved(uri) // notes.go
	case m.isSessionURI(uri):
		m.c.Mirror.Expect(uri, ahpstate.ScopeSession) // whatever its URI's dialect
		ch, err := m.loadSnapshot(s, d)
		if err != nil {
			return m.setNotice("session state: "+err.Error(), true)
		}
		_, ss, _ := ch.Session()
		return m.onSessionState(uri, ss)
	case m.isChatURI(uri):
		if m.chat == nil || m.chat.URI != uri {
			return nil
		}
		m.c.Mirror.Expect(uri, ahpstate.ScopeChat) // whatever its URI's dialect
		ch, err := m.loadSnapshot(s, d)
		if err != nil {
			return m.setNotice("chat state: "+err.Error(), true)
		}
		return m.onChatSnapshot(ch)
	case m.open != nil:
		// Not a channel this client subscribed: say so rather than wait
		// for the opening session forever.
		uri := m.open.session
		m.open, m.picker.Status = nil, ""
		return tea.Batch(m.setNotice(fmt.Sprintf("cannot open %s: the host sent a snapshot of %s instead", uri, s.Resource), true),
			app.Unsubscribe(m.c.Ctx, m.c.Backend, uri))
	}
	return nil
}

// loadSnapshot loads a snapshot into the attached host's Mirror: with the
// state the event pump decoded off the UI goroutine when it decoded it as
// the kind the Mirror holds the channel as, else decoding it here.
func (m *Model) loadSnapshot(s ahpwire.Snapshot, d *decodedState) (ahpstate.Change, error) {
	if d == nil || d.kind != m.c.Mirror.KindOf(s.Resource) {
		return m.c.Mirror.Load(s)
	}
	if d.err != nil {
		return ahpstate.Change{}, fmt.Errorf("snapshot of %s: %w", s.Resource, d.err)
	}
	return m.c.Mirror.LoadState(s.Resource, d.state)
}

// isSessionURI reports whether uri is a session channel: an ahp-session:
// URI, or whatever URI this client subscribed as a session (hosts of the
// VS Code dialect publish <provider>:/<id>).
func (m *Model) isSessionURI(uri string) bool {
	return ahpstate.MirrorKind(uri) == ahpstate.ScopeSession || (m.open != nil && m.open.session == uri) ||
		(m.chat != nil && m.chat.Session == uri)
}

// isChatURI reports whether uri is a chat channel: an ahp-chat: URI, or
// the open chat's URI whatever its scheme.
func (m *Model) isChatURI(uri string) bool {
	return strings.HasPrefix(uri, chatScheme) || (m.chat != nil && m.chat.URI == uri)
}

// onChatSnapshot hands the open chat the snapshot the Mirror loaded.
func (m *Model) onChatSnapshot(ch ahpstate.Change) tea.Cmd {
	_, _, ok := ch.Chat()
	if m.chat == nil || !ok {
		return nil
	}
	m.chat.OnSnapshot(ch)
	if m.conn.Phase == ahpclient.Reconnecting {
		// The client is restoring its subscriptions and has no connection
		// for requests yet: the fetch would fail ("not connected") and
		// the chat stay empty. onConnState pages in once connected.
		return m.syncPrompts()
	}
	return tea.Batch(m.syncPrompts(), m.pageInEmptyWindow())
}

// pageInEmptyWindow pages the older turns in at once when the open
// chat's window has nothing to show but the host holds older turns (a
// host leaves a large reply to fetchTurns, so a snapshot taken after one
// has an empty window).
func (m *Model) pageInEmptyWindow() tea.Cmd {
	if m.chat == nil || !m.chat.Ready || m.chat.Cursor == "" {
		return nil
	}
	if cs := m.chat.AHP(); len(cs.Turns) > 0 || cs.ActiveTurn != nil {
		return nil
	}
	return m.chat.MaybeFetchOlder()
}

// onSessionState records the session's state and, while opening it, picks
// the chat to show.
func (m *Model) onSessionState(uri string, ss ahpwire.SessionState) tea.Cmd {
	if m.chat != nil && m.chat.Session == uri {
		m.chat.OnSession(nil, ss)
		if ss.Title != "" {
			m.chat.Title = ss.Title
		}
		m.chat.SetWorkDirs(ss.WorkingDirectories)
		m.chat.Agent = cmp.Or(ss.Provider, m.chat.Agent)
		return nil
	}
	if m.open == nil || m.open.session != uri {
		return nil
	}
	return m.continueOpening()
}

// continueOpening moves an opening session forward once it is ready and
// has a chat.
func (m *Model) continueOpening() tea.Cmd {
	ss, uri := m.sessionState(), m.open.session
	if ss == nil {
		return nil
	}
	switch ss.Lifecycle {
	case ahpwire.LifecycleCreating:
		m.picker.Status = "waiting for the session to be ready…"
		return nil
	case ahpwire.LifecycleFailed, ahpwire.LifecycleCreationFailed:
		m.open, m.picker.Status = nil, ""
		msg := "session failed"
		if ss.CreationError != nil {
			msg += ": " + ss.CreationError.Message
		}
		m.c.Mirror.Drop(uri)
		return tea.Batch(m.setNotice(msg, true), app.Unsubscribe(m.c.Ctx, m.c.Backend, uri))
	}
	switch {
	case len(ss.Chats) > 1:
		var cs []picker.ChatChoice
		for _, c := range ss.Chats {
			cs = append(cs, picker.ChatChoice{Resource: c.Resource, Title: c.Title})
		}
		m.picker.Status = ""
		m.picker.ChooseChat(uri, cs)
		return nil
	case ss.DefaultChat != "":
		return m.openChat(uri, ss.DefaultChat)
	case len(ss.Chats) == 1:
		return m.openChat(uri, ss.Chats[0].Resource)
	}
	m.picker.Status = "waiting for the session's chat…"
	return nil
}

func (m *Model) onEnvelope(env ahpwire.ActionEnvelope) tea.Cmd {
	if m.chat != nil && m.chat.ClaimsEnvelope(env) {
		return m.chat.AdoptEnvelope(env) // a re-read of long replies, not a change (chat/refturns.go)
	}
	ch := m.c.Mirror.Apply(env)
	switch {
	case env.Channel == rootChannel:
		if _, rs, ok := ch.Root(); ok {
			if _, agents := env.Action.(*ahpwire.RootAgentsChanged); agents {
				m.setAgents(rs.Agents) // what to show again
			}
		}
	case app.IsSideChannel(env.Channel):
		m.c.Channels.OnEnvelope(env, ch)
		m.refreshExt()
		m.notesMoved(env.Channel) // notes.go
	case m.isSessionURI(env.Channel):
		return m.onSessionAction(env, ch)
	case m.chat != nil && env.Channel == m.chat.URI:
		cmd := m.chat.OnEnvelope(env, ch)
		return tea.Batch(cmd, m.syncPrompts())
	}
	return nil
}

// onSessionAction applies a session envelope to the host's mirror and
// shows the opening or open session's new state. A session the host marks
// unread while the user has it open is marked read again: the user is
// looking at it.
func (m *Model) onSessionAction(env ahpwire.ActionEnvelope, ch ahpstate.Change) tea.Cmd {
	before, ss, ok := ch.Session()
	opening := m.open != nil && m.open.session == env.Channel
	ours := m.chat != nil && m.chat.Session == env.Channel
	if !ok || (!opening && !ours) {
		return nil
	}
	if opening {
		return m.continueOpening()
	}
	m.chat.OnSession(env.Action, ss)
	if ss.Title != before.Title {
		m.chat.Title = ss.Title
	}
	m.chat.SetWorkDirs(ss.WorkingDirectories)
	m.chat.Agent = cmp.Or(ss.Provider, m.chat.Agent)
	if _, read := env.Action.(*ahpwire.SessionIsReadChanged); read && !ss.Status.Has(ahpwire.StatusIsRead) && m.screen == screenChat {
		return m.c.Dispatch(m.chat.Session, &ahpwire.SessionIsReadChanged{IsRead: true}, "mark read")
	}
	return nil
}

func (m *Model) onChannelLost(ch string) tea.Cmd {
	if app.IsSideChannel(ch) {
		return m.c.Channels.Lost(ch)
	}
	if m.chat == nil {
		return nil
	}
	switch ch {
	case m.chat.URI:
		// The host could not resume it: subscribe again for a fresh snapshot.
		m.chat.Ready = false
		return tea.Batch(m.setNotice("chat subscription lost — reloading", true), app.Subscribe(m.c.Ctx, m.c.Backend, ch, m.c.Turns))
	case m.chat.Session:
		return app.Subscribe(m.c.Ctx, m.c.Backend, ch, 0)
	}
	return nil
}

// lateDecision says what happened to a tool decision the host rejected
// because its turn had ended before it arrived (typically made while the
// host was down: the restart ended the turn interrupted), and what to do;
// "" for another rejection.
func (m *Model) lateDecision(e ahpclient.OutboxEntry) string {
	var turn string
	switch a := e.Action.(type) {
	case *ahpwire.ChatToolCallConfirmed:
		turn = a.TurnID
	case *ahpwire.ChatToolCallResultConfirmed:
		turn = a.TurnID
	default:
		return ""
	}
	if m.chat == nil || e.Channel != m.chat.URI {
		return ""
	}
	if at := m.chat.AHP().ActiveTurn; at != nil && at.ID == turn {
		return ""
	}
	// Short: the status line holds it beside the connection on 80 columns
	// (the transcript says why the turn ended).
	if m.chat.ResumableTurn() == turn {
		return "decision not applied: its turn had ended — " + m.c.KM.Chat.Resume.Help().Key + " resumes it"
	}
	return "decision not applied: its turn had ended"
}

// strandSend keeps a user message the host refused or that failed on
// screen as unsent (ctrl+n takes it into a new session).
func (m *Model) strandSend(e ahpclient.OutboxEntry, why string) {
	if t := chat.SentText(e.Action); t != "" && m.chat != nil && e.Channel == m.chat.URI {
		m.chat.AddUnsent(t, why)
	}
}

func (m *Model) onOutbox(e ahpclient.OutboxEntry) tea.Cmd {
	if m.chat != nil {
		m.chat.TrackOutbox(e)
	}
	switch e.Status {
	case ahpclient.OutboxRejected:
		msg := app.ActionLabel(e.Action) + " was rejected by the host"
		var re *ahpclient.RejectedError
		if errors.As(e.Err, &re) && re.Reason != "" {
			msg += ": " + re.Reason
		}
		if late := m.lateDecision(e); late != "" {
			msg = late
		}
		m.strandSend(e, "rejected by the host")
		m.c.Log.Warn("action rejected", "action", e.Action.ActionType(), "err", e.Err)
		return m.setNotice(msg, true)
	case ahpclient.OutboxFailed:
		if e.Err != nil && !errors.Is(e.Err, ahpclient.ErrClosed) {
			m.strandSend(e, app.ErrText(e.Err))
			return m.errNotice(app.ActionLabel(e.Action)+" failed", e.Err)
		}
	}
	return nil
}
