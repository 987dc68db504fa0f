package app

import (
	"context"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// Backend is the part of *ahpclient.Client the TUI uses. Every method but
// Queue is called from a tea.Cmd, never from Update or View.
type Backend interface {
	Next(ctx context.Context) (ahpclient.Event, error)
	ListSessions(ctx context.Context, limit int, cursor string) (ahpwire.ListSessionsResult, error)
	Subscribe(ctx context.Context, channel string, view *ahpwire.SubscribeView) (ahpwire.Snapshot, error)
	Unsubscribe(ctx context.Context, channel string) error
	CreateSession(ctx context.Context, p ahpwire.CreateSessionParams) error
	DisposeSession(ctx context.Context, channel string) error
	// FetchTurns asks for older turns; the page (chat/turnsLoaded) and then
	// the call's end (ahpclient.TurnsFetchedEvent) come through Next.
	FetchTurns(ctx context.Context, channel, cursor string) error
	Dispatch(ctx context.Context, channel string, action ahpwire.Action) (uint64, error)
	// Queue takes an action's place in the client's send order, memory
	// only: the one method Update calls (App.Dispatch), so the order is
	// Update's. Flush, from the command, writes what is queued, in order.
	Queue(channel string, action ahpwire.Action) (uint64, error)
	Flush(clientSeq uint64) error
	Resend(ctx context.Context, clientSeq uint64) (uint64, error)
	// RetryNow ends a reconnect backoff early (false: none was running).
	RetryNow() bool
}

var _ Backend = (*ahpclient.Client)(nil)
