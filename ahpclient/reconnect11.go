package ahpclient

import (
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// versionAtLeast reports whether the protocol version v (MAJOR.MINOR.PATCH)
// is at least major.minor.
func versionAtLeast(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

// cursors returns the 1.1 reconnect cursor of each channel in subs: the
// highest serverSeq handed out on it (or its snapshot's fromSeq), but never
// past the connection-wide applied watermark — envelopes handed out and not
// yet applied are asked again (the replay is idempotent: envelopes at or
// below a channel's delivered seq are skipped on arrival).
func (t *seqTracker) cursors(subs []string) []ahpwire.ChannelReplayCursor {
	applied := t.lastSeen()
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]ahpwire.ChannelReplayCursor, 0, len(subs))
	for _, ch := range subs {
		cur := uint64(0)
		if cs := t.chans[ch]; cs != nil {
			cur = min(cs.delivered, applied)
		}
		out = append(out, ahpwire.ChannelReplayCursor{Channel: ch, LastSeenServerSeq: cur})
	}
	return out
}

// recoverChannels applies a 1.1 reconnect result: each channel on its own
// (replayed envelopes, a fresh snapshot, or lost), and a requested channel
// the host left out counts as missing. The recovery is "replay" when every
// channel replayed, else "snapshot".
func (c *Client) recoverChannels(chans []channelRecoveryWire, subs []string) Recovery {
	rec := RecoveryReplay
	seen := make(map[string]bool, len(chans))
	for _, r := range chans {
		if seen[r.Channel] {
			continue
		}
		seen[r.Channel] = true
		switch r.Kind {
		case ahpwire.RecoveryKindReplay:
			c.replayed(r.Actions, func(ch string) bool {
				if ch != r.Channel {
					c.log.Warn("replayed envelope of another channel ignored", "channel", r.Channel, "envelopeChannel", ch)
					return false
				}
				return true
			})
		case ahpwire.RecoveryKindSnapshot:
			if r.Snapshot == nil {
				c.lose(r.Channel)
				continue
			}
			rec = RecoverySnapshot
			s := *r.Snapshot
			s.Resource = r.Channel // the channel is what was asked for
			c.seq.setSnapshot(r.Channel, s.FromSeq)
			c.emit(SnapshotEvent{Snapshot: s, Reason: SnapshotReconnect}, dataEventNoWait)
		default: // "missing", or a kind this client does not know
			rec = RecoverySnapshot
			c.lose(r.Channel)
		}
	}
	for _, ch := range subs {
		if !seen[ch] {
			rec = RecoverySnapshot
			c.lose(ch)
		}
	}
	return rec
}

// replayed hands a reconnect's replayed envelopes to the stream in order,
// as both dialects replay them (1.0's one list, 1.1's per channel): those
// keep refuses (a missing channel's, another channel's) are skipped, and so
// is one whose header does not decode, with a WARN (its serverSeq advances
// nothing: see onActionParams).
func (c *Client) replayed(actions []envelopeParams, keep func(channel string) bool) {
	for i := range actions {
		p := &actions[i]
		if !keep(p.Channel) {
			continue
		}
		env, err := p.header()
		if err != nil {
			c.log.Warn("replayed action envelope ignored", "serverSeq", p.ServerSeq, "err", err)
			continue
		}
		c.onEnvelope(env, p.Action, replayedEnvelope)
	}
}

// lose gives up on a channel the host could not recover: its sequence is
// forgotten and the consumer told (ChannelLostEvent).
func (c *Client) lose(ch string) {
	c.seq.drop(ch)
	c.refs.forget(ch)
	c.emit(ChannelLostEvent{Channel: ch}, dataEventNoWait)
}
