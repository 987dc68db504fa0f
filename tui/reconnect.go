package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/app"
)

// The reconnect countdown: while the client waits out a reconnect backoff
// the status line says when the next attempt is due ("Reconnecting 3 · next
// try in 4s"), redrawn by a once-a-second tick that runs only while
// Reconnecting, and the reconnect key (f5) makes the attempt happen now.

// retryTickInterval is how often the countdown is redrawn.
const retryTickInterval = time.Second

type (
	// retryTickMsg redraws the reconnect countdown; gen identifies the
	// tick chain so that a stale chain dies out.
	retryTickMsg struct{ gen int }
	// retryNowMsg reports Backend.RetryNow: waiting is false when the
	// client was not waiting out a backoff any more.
	retryNowMsg struct{ waiting bool }
)

// retryTick schedules the next countdown redraw of chain gen.
func retryTick(c *app.App, gen int) tea.Cmd {
	return c.Tick(retryTickInterval, func(time.Time) tea.Msg { return retryTickMsg{gen: gen} })
}

// retryNow asks the client to end its reconnect backoff now.
func retryNow(b app.Backend) tea.Cmd {
	return func() tea.Msg { return retryNowMsg{waiting: b.RetryNow()} }
}

// syncRetryTick starts the countdown tick when the connection is
// Reconnecting and none runs; a running chain stops by itself on its next
// tick once the phase changed.
func (m *Model) syncRetryTick() tea.Cmd {
	if m.conn.Phase != ahpclient.Reconnecting || m.retryTicking {
		return nil
	}
	m.retryTicking = true
	m.retryGen++
	return retryTick(m.c, m.retryGen)
}

// onRetryTick keeps the chain going while Reconnecting (the tick itself
// causes the redraw) and ends it otherwise.
func (m *Model) onRetryTick(msg retryTickMsg) tea.Cmd {
	if msg.gen != m.retryGen || !m.retryTicking {
		return nil
	}
	m.syncHosts() // the attached host's header counts down too
	if m.conn.Phase != ahpclient.Reconnecting {
		m.retryTicking = false
		return nil
	}
	return retryTick(m.c, m.retryGen)
}

// onRetryNow tells the user what the reconnect key did.
func (m *Model) onRetryNow(msg retryNowMsg) tea.Cmd {
	if msg.waiting {
		return m.setNotice("reconnecting now", false)
	}
	return nil // the attempt was already under way (or done)
}

// retryCountdown renders when the next reconnect attempt is due, relative
// to now: "next try in 4s", or "trying now" once it is under way. Empty
// when the state carries no NextRetry.
func retryCountdown(c ahpclient.ConnState, now time.Time) string {
	if c.Phase != ahpclient.Reconnecting || c.NextRetry.IsZero() {
		return ""
	}
	left := c.NextRetry.Sub(now)
	if left <= 0 {
		return "trying now"
	}
	secs := int64((left + time.Second - 1) / time.Second) // round up: never "in 0s"
	if secs < 60 {
		return fmt.Sprintf("next try in %ds", secs)
	}
	return fmt.Sprintf("next try in %dm%02ds", secs/60, secs%60)
}
