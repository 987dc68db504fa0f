package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Update is the root's one router: each message type is routed once, to
// the handler of its feature (the table in docs/ARCHITECTURE.md names
// their files); afterUpdate then keeps what depends on the whole screen in
// line. It performs no I/O: every effect is a tea.Cmd.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.drawn.view.reuse = false // viewcache.go
	cmd := m.route(msg)
	if m.onlyStreamedText(msg) { // nothing moved on screen before the next frame (stream_batch.go)
		m.drawn.view.reuse = true // nor is anything drawn anew (viewcache.go)
		return m, cmd
	}
	after := m.afterUpdate() // before m is returned: it changes m
	return m, tea.Batch(cmd, after)
}

// route hands msg to the handler of its feature.
func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	// The terminal and the window.
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m.fitTermViewers() // terminals.go
	case tea.FocusMsg, tea.BlurMsg:
		if m.notify != nil {
			_, m.notify.focused = msg.(tea.FocusMsg)
		}
		return nil
	case tea.BackgroundColorMsg:
		if m.c.AutoTheme {
			m.setTheme(msg.IsDark())
		}
		return nil
	case tea.KeyPressMsg:
		return m.handleKey(msg) // model_keys.go
	case tea.MouseWheelMsg:
		if len(m.overlays) > 0 {
			return m.wheelOverlay(msg)
		}
		return m.updateScreen(msg)
	case tea.PasteMsg:
		if len(m.overlays) > 0 {
			return m.updateOverlay(msg)
		}
		return m.updateScreen(msg)

	// The host's event stream (model_events.go, stream_batch.go, model_hosts.go).
	case connEventMsg:
		return m.onConnEvent(msg)
	case connBatchMsg:
		return m.onBatch(msg)
	case pumpStoppedMsg:
		return m.onPumpStopped(msg)

	// Connecting, reconnecting and the other hosts.
	case connectTickMsg, connectDoneMsg:
		return m.onConnect(msg) // connecting.go
	case retryTickMsg:
		return m.onRetryTick(msg) // reconnect.go
	case retryNowMsg:
		return m.onRetryNow(msg)
	case stallTickMsg:
		return m.onStallTick(msg) // stall.go
	case hostConnectedMsg, hostRetryMsg, hostTickMsg, backendClosedMsg:
		return m.onHostMsg(msg) // model_hosts.go

	// Sessions: list, open, create (with its config form and sign-in), act on.
	case app.SessionsListedMsg:
		return m.onSessionsListed(msg) // session_open.go
	case picker.OpenSessionMsg:
		return m.openSession(msg)
	case picker.OpenChatMsg:
		return m.openChat(msg.Session, msg.Chat)
	case app.SubscribedMsg:
		return m.onSubscribed(msg)
	case app.BackToPickerMsg:
		return m.leaveChat()
	case picker.PeekMsg:
		return m.onPeek(msg) // inbox.go
	case peekLoadedMsg:
		return m.onPeekLoaded(msg)
	case inboxDoneMsg:
		return m.onInboxDone(msg)
	case waitingProbedMsg:
		return m.onWaitingProbed(msg) // inbox_waiting.go
	case picker.RefreshSessionsMsg:
		if m.c.Backend == nil {
			return nil
		}
		return app.ListSessions(m.c.Ctx, m.c.Backend)
	case picker.NewSessionMsg:
		return m.onNewSession(msg) // session_create.go
	case dialog.ConfigAgentMsg, dialog.ConfigResolvedMsg, dialog.ConfigValuesMsg, dialog.ConfigQueryMsg, dialog.ConfigDirMsg,
		dialog.ConfigDirCheckedMsg, dialog.ConfigSubmitMsg, dialog.ConfigCheckedMsg:
		return m.onConfigForm(msg)
	case app.SessionCreatedMsg:
		return m.onSessionCreated(msg)
	case dialog.AuthSignInMsg, dialog.AuthenticateMsg, authenticatedMsg:
		return m.onSignIn(msg) // signin_flow.go
	case signedOutMsg:
		return m.onSignedOut(msg) // signout.go
	case app.OpenSettingsMsg, dialog.ConfigChangeMsg:
		return m.onSettings(msg) // session_settings.go
	case picker.RenameRequestMsg, dialog.SessionActionMsg, picker.DisposeRequestMsg, app.DisposeConfirmedMsg, app.SessionDisposedMsg:
		return m.onSessionRequest(msg) // session_actions.go
	case app.DispatchedMsg:
		return m.onDispatched(msg) // commands.go

	// The open chat's features.
	case chat.OpenChildMsg:
		return m.openChild(msg) // subagents.go
	case app.OpenArtifactsMsg, dialog.OpenArtifactMsg, artifactReadMsg:
		return m.onArtifacts(msg) // artifacts.go
	case app.OpenTerminalMsg:
		return m.openTerminal(msg.URI) // terminals.go
	case app.ResourceLoadedMsg:
		return m.onResourceLoaded(msg) // visible_sync.go
	case commentOnFileMsg:
		return m.onCommentOnFile(msg) // notes_changes.go
	case app.WatchCreatedMsg:
		return m.c.Channels.OnWatchCreated(msg) // the changes view's watch (notes_changes.go)
	case app.OpenPromptMsg:
		if !m.openFirstPending(true) {
			return m.setNotice("nothing is waiting for you", false)
		}
		return nil
	case dialog.ToolDecisionMsg:
		return m.decideTool(msg) // prompts.go
	case dialog.InputDecisionMsg:
		return m.decideInput(msg)
	case dialog.AuthGiveUpMsg:
		return m.giveUpAuth(msg)
	case promptGuardEndedMsg:
		return nil // redraw: the prompt's keys are live again
	case app.HistoryLoadedMsg, app.HistorySavedMsg, dialog.HistoryPickedMsg:
		return m.onHistory(msg) // app/prompthistory.go
	case chat.ClientCommandMsg:
		return m.runClientCommand(msg) // slashcmds.go
	case dialog.CopyChosenMsg:
		return app.CopyCmd(msg.Text, msg.What, "/export") // /copy's list (slashcmds.go)
	case chat.CompletionDueMsg, chat.CompletionResultMsg, chat.ExportDoneMsg, chat.SearchFoundMsg, app.TurnsFetchedMsg:
		if m.chat == nil {
			return nil
		}
		return m.chat.Update(msg) // chat/update.go

	// Notices, quitting, the demo.
	case uikit.NoticeMsg:
		return m.setNotice(msg.Text, msg.IsErr)
	case app.NoticeExpiredMsg:
		if msg.ID == m.noticeID {
			m.notice = ""
		}
		return nil
	case app.QuitConfirmedMsg:
		m.quitting = true
		return tea.Quit
	case app.DemoFaultMsg:
		return m.setNotice("demo: connection dropped", false)
	}
	return m.updateScreen(msg) // the chat's or picker's own messages
}

// afterUpdate runs after every message but streamed text: the quick
// start, the notices that went stale, and the terminal subscriptions and
// content fetches of what is on screen.
func (m *Model) afterUpdate() tea.Cmd {
	var cmd tea.Cmd
	if m.quick {
		cmd = m.quickStart() // quickstart.go
	}
	m.dropStaleNotices()                                 // hints.go
	return tea.Batch(cmd, m.syncExt(), m.probeWaiting()) // visible_sync.go, inbox_waiting.go
}

// onConnEvent applies an event of the attached host (or of a watched one).
func (m *Model) onConnEvent(msg connEventMsg) tea.Cmd {
	if msg.b != nil && msg.b != m.c.Backend {
		return m.onWatchEvent(msg.b, msg)
	}
	return tea.Batch(m.applyEvent(msg), waitForEvent(m.c.Ctx, m.c.Backend))
}

// applyEvent applies one event of the attached host: a snapshot with the
// state the pump decoded, any other event as it came.
func (m *Model) applyEvent(msg connEventMsg) tea.Cmd {
	if se, ok := msg.ev.(ahpclient.SnapshotEvent); ok {
		return m.onSnapshot(se.Snapshot, msg.decoded)
	}
	return m.handleEvent(msg.ev)
}

// onPumpStopped: the attached host's event stream ended (or a watched one's).
func (m *Model) onPumpStopped(msg pumpStoppedMsg) tea.Cmd {
	if msg.b != nil && msg.b != m.c.Backend {
		return m.onWatchStopped(msg.b, msg.err)
	}
	if m.quitting {
		return tea.Quit
	}
	return m.setNotice("connection closed", true)
}
