package ahphost

import (
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
)

// channelsResult is a 1.1 ReconnectResult: one outcome per requested
// channel. Replayed envelopes are the replay log's bytes, copied as they
// are.
type channelsResult struct {
	Channels     []channelOutcome      `json:"channels"`
	Capabilities *ahpwire.Capabilities `json:"capabilities,omitempty"`
}

// channelOutcome is one channel's recovery: Actions (present, possibly
// empty) for "replay", Snapshot for "snapshot", neither for "missing".
type channelOutcome struct {
	Kind     string             `json:"kind"`
	Channel  string             `json:"channel"`
	Actions  *[]json.RawMessage `json:"actions,omitempty"`
	Snapshot *ahpwire.Snapshot  `json:"snapshot,omitempty"`
}

// recoverChannels answers a 1.1 reconnect: each channel recovers from its
// own cursor — a replay of the actions after it when the replay log still
// holds them, else a snapshot — and a channel this host no longer has is
// "missing". The channels are already subscribed on c (see reconnect).
func (c *conn) recoverChannels(cursors []ahpwire.ChannelReplayCursor, live map[string]bool, views map[string]subscription,
	hostCaps *ahpwire.Capabilities, rollback func()) *deferred {
	s := c.h.st
	type plan struct {
		channel string
		envs    []json.RawMessage
		replay  bool
		ref     snapRef
		hasRef  bool
	}
	seen := make(map[string]bool, len(cursors))
	plans := make([]plan, 0, len(cursors))
	var refs []snapRef
	replayBytes := 0
	for _, cur := range cursors {
		if seen[cur.Channel] {
			continue
		}
		seen[cur.Channel] = true
		pl := plan{channel: cur.Channel}
		if live[cur.Channel] {
			pl.envs, pl.replay = s.replay(cur.LastSeenServerSeq, map[string]bool{cur.Channel: true})
			pl.ref, pl.hasRef = s.snapshot(cur.Channel, views[cur.Channel])
			if !pl.replay && !pl.hasRef {
				pl.replay = true // a stateless channel replays (nothing)
			}
			if pl.replay {
				for _, e := range pl.envs {
					replayBytes += len(e)
				}
			}
			if pl.hasRef {
				refs = append(refs, pl.ref)
			}
		}
		plans = append(plans, pl)
	}
	c.h.log.Info("client reconnected (per-channel cursors)", "conn", c.id, "channels", len(plans), "replayBytes", replayBytes)
	build := func(limit int64) (any, error) {
		// A replay larger than the peer accepts falls back to snapshots.
		tooBig := int64(replayBytes)+int64(len(plans))*64 > limit-1024
		var snapRefs []snapRef
		for _, pl := range plans {
			if live[pl.channel] && pl.hasRef && (!pl.replay || tooBig) {
				snapRefs = append(snapRefs, pl.ref)
			}
		}
		snaps, _, err := encodeSnapshots(snapRefs, limit)
		if err != nil {
			return nil, err
		}
		byURI := make(map[string]*ahpwire.Snapshot, len(snaps))
		for i := range snaps {
			byURI[snaps[i].Resource] = &snaps[i]
		}
		res := channelsResult{Channels: make([]channelOutcome, 0, len(plans)), Capabilities: hostCaps}
		for _, pl := range plans {
			out := channelOutcome{Channel: pl.channel}
			switch snap := byURI[pl.channel]; {
			case !live[pl.channel]:
				out.Kind = ahpwire.RecoveryKindMissing
			case snap != nil:
				out.Kind, out.Snapshot = ahpwire.RecoveryKindSnapshot, snap
			default:
				envs := pl.envs
				if envs == nil {
					envs = []json.RawMessage{}
				}
				out.Kind, out.Actions = ahpwire.RecoveryKindReplay, &envs
			}
			res.Channels = append(res.Channels, out)
		}
		return res, nil
	}
	return &deferred{light: replayBytes < 1<<20 && lightRefs(refs), build: build, rollback: rollback}
}
