package chat

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/app"
)

// Long finished replies by reference.
//
// A client that watched a long reply stream holds its whole text (in AHP's
// state of the chat, shared with the transcript's block). A host that keeps
// finished long texts as content references (ahphost: parts above 1 MiB,
// in 64 KiB pages served by resourceRead) has the same turn in that form,
// but subscribers are not told: AHP has no action for it. So when a turn
// ends with a long markdown part, the chat asks for the newest turns again
// (fetchTurns without a cursor; the answer, chat/turnsLoaded, goes to this
// connection only). If the host's copy of the turn shows the same content
// by reference (reducer.AdoptRefTurn checks the pages' sizes against the
// text), the chat adopts it: the pages at the end of the reply (what a
// view following the tail shows) are put into the resource cache from the
// client's own copy, so nothing is fetched, and the inline text is dropped.
// Other pages are read when they come into view, like those of a reopened
// chat; copy and export read them as they do there, search sees the
// loaded ones. A host that
// answers with the text inline (any host that does not store references)
// changes nothing. That chat/turnsLoaded is consumed here: it must not
// replace the chat's cursor for older turns.

// RefAdoptBytes is the size of a finished markdown part above which the
// chat asks the host for its referenced form.
const RefAdoptBytes = 1 << 20

// RefSeedBytes is how much of the end of an adopted text goes into the
// resource cache from the client's own copy (the last pages that together
// reach it): many screens, so following the tail shows text at once and
// scrolling up a little reads nothing, while the one-off layout of the
// seeded pages at the adoption stays short (glamour: ~3 MB/s).
const RefSeedBytes = 64 << 10

// refTurns tracks the turns asked for again.
type refTurns struct {
	Asked    map[string]bool // turn id → asked for; kept once answered, so a turn is asked once
	Inflight int             // re-reads whose end (TurnsFetchedEvent) has not come yet
}

// askRefTurns asks for the newest turns again when a finished turn holds
// a markdown part above refAdoptBytes that is not asked for yet, and the
// connection can read content references. It runs after each envelope
// that ended a turn.
func (m *Model) askRefTurns(acts []reducer.Action) tea.Cmd {
	ended := false
	for _, a := range acts {
		if _, ok := a.(reducer.MessageEnd); ok {
			ended = true
		}
	}
	if !ended {
		return nil
	}
	return m.ScanRefTurns()
}

// ScanRefTurns asks for the newest turns again when a finished turn holds
// a long markdown part inline that is not asked for yet (after a turn
// ended, and after a reconnect).
func (m *Model) ScanRefTurns() tea.Cmd {
	if _, ok := m.c.Backend.(app.ResourceReader); !ok || !m.Ready {
		return nil
	}
	ask := false
	for _, t := range m.AHP().Turns {
		if !bigInline(t) || m.Extras.Refs.Asked[t.ID] {
			continue
		}
		if m.Extras.Refs.Asked == nil {
			m.Extras.Refs.Asked = map[string]bool{}
		}
		m.Extras.Refs.Asked[t.ID], ask = true, true
	}
	if !ask {
		return nil
	}
	m.Extras.Refs.Inflight++
	return refetchTurns(m.c.Ctx, m.c.Backend, m.URI)
}

// bigInline reports a finished turn with a markdown part above
// refAdoptBytes held inline.
func bigInline(t ahpwire.Turn) bool {
	for i := range t.ResponseParts {
		if p := &t.ResponseParts[i]; p.Kind == ahpwire.PartMarkdown && len(p.Content) > RefAdoptBytes {
			return true
		}
	}
	return false
}

// refetchTurns asks for the newest turns. The page arrives as
// chat/turnsLoaded, then the end of the call as a TurnsFetchedEvent
// without a cursor (older-turn pages always have one), both through the
// event stream: the command reports nothing itself.
func refetchTurns(ctx context.Context, b app.Backend, channel string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := app.ReqCtx(ctx)
		defer cancel()
		_ = b.FetchTurns(ctx, channel, "") // the error comes as TurnsFetchedEvent.Err
		return nil
	}
}

// RefsFetched handles the end of a re-read (its page came before it): if
// it failed, the turns still waiting are forgotten (they stay inline; a
// reconnect or a later turn's end asks again).
func (m *Model) RefsFetched(err error) {
	m.Extras.Refs.Inflight = max(0, m.Extras.Refs.Inflight-1)
	if err == nil {
		return
	}
	m.c.Log.Info("could not re-read long replies by reference; they stay inline", "err", err)
	clear(m.Extras.Refs.Asked)
}

// claimsRefPage reports whether a chat/turnsLoaded answers a re-read:
// one is under way and the page holds turns the chat already has (a page
// of older turns never does; the newest turns always do).
func (m *Model) claimsRefPage(tl *ahpwire.ChatTurnsLoaded) bool {
	if m.Extras.Refs.Inflight == 0 || len(tl.Turns) == 0 {
		return false
	}
	have := make(map[string]bool, len(m.AHP().Turns))
	for _, t := range m.AHP().Turns {
		have[t.ID] = true
	}
	for _, t := range tl.Turns {
		if have[t.ID] {
			return true
		}
	}
	return false
}

// adoptRefPage adopts the asked turns of a re-read page that the host
// holds by reference. While the user reads elsewhere (the transcript does
// not follow the tail) nothing is adopted, so the view does not move; the
// turn is asked for again when a later turn ends.
func (m *Model) adoptRefPage(tl *ahpwire.ChatTurnsLoaded) tea.Cmd {
	adopted := false
	for _, t := range tl.Turns {
		if !m.Extras.Refs.Asked[t.ID] {
			continue
		}
		if !m.Transcript.Following() {
			delete(m.Extras.Refs.Asked, t.ID)
			continue
		}
		cs, st, pages, ok := reducer.AdoptRefTurn(m.AHP(), m.State, t)
		if !ok {
			continue // inline at the host too (or changed): keep ours, do not ask again
		}
		if _, err := m.c.Mirror.LoadState(m.URI, cs); err != nil {
			m.c.Log.Warn("adopt a long reply by reference", "err", err)
			continue
		}
		m.seedRefPages(pages)
		m.State, adopted = st, true
	}
	if !adopted {
		return nil
	}
	// The renderer's caches still hold the layout state of the dropped
	// text (its markdown state keeps the whole text); resetting them with
	// the same styles forgets it. Only what is on screen is laid out again.
	if r := m.c.Renderer; r != nil {
		r.SetStyles(r.Styles())
	}
	m.syncTranscript()
	m.Relayout()
	if rel := m.c.Release; rel != nil {
		return func() tea.Msg { rel(); return nil }
	}
	return nil
}

// seedRefPages puts the last pages of an adopted text, up to
// refSeedBytes, into the resource cache as copies (a page cut from the
// dropped text would keep all of it in memory).
func (m *Model) seedRefPages(pages []reducer.RefPage) {
	if m.c.Channels == nil {
		return
	}
	n := 0
	for i := len(pages) - 1; i >= 0 && n < RefSeedBytes; i-- {
		m.c.Channels.Loader.Seed(pages[i].URI, strings.Clone(pages[i].Text), "text/markdown")
		n += len(pages[i].Text)
	}
}
