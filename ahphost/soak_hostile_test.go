package ahphost

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// Issue 24's hostile surfaces in the soak: a hostile terminal stream, a
// hostile diff, a hostile schema and a resourceRead flood.

// aread reads messages until match returns true or timeout; false on a
// read error or the timeout.
func aread(ctx context.Context, c *websocket.Conn, timeout time.Duration, match func([]byte) bool) bool {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		_, data, err := c.Read(rctx)
		if err != nil {
			return false
		}
		if match(data) {
			return true
		}
	}
}

// adispatch sends a dispatchAction.
func adispatch(ctx context.Context, c *websocket.Conn, channel string, seq int, action string) error {
	return asend(ctx, c, fmt.Sprintf(`{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":%q,"clientSeq":%d,"action":%s}}`, channel, seq, action))
}

var (
	defaultChatRe = regexp.MustCompile(`"defaultChat":"([^"]+)"`)
	terminalRe    = regexp.MustCompile(`"resource":"(ahp-terminal:[^"]+)"`)
	contentRe     = regexp.MustCompile(`"uri":"(ahp-content:[^"]+)"`)
	partRe        = regexp.MustCompile(`"uri":"(ahptui-part:[^"]+)"`)
)

// asession creates a session and returns its default chat, subscribed.
func asession(ctx context.Context, c *websocket.Conn, name string) string {
	session := "ahp-session:/" + name
	_ = asend(ctx, c, areq(2, "createSession", map[string]any{"channel": session}))
	if _, err := aresponse(ctx, c, 2, 30*time.Second); err != nil {
		return ""
	}
	_ = asend(ctx, c, areq(3, "subscribe", map[string]any{"channel": session}))
	var chat string
	aread(ctx, c, 30*time.Second, func(b []byte) bool {
		if m := defaultChatRe.FindSubmatch(b); m != nil {
			chat = string(m[1])
			return true
		}
		return false
	})
	if chat != "" {
		_ = asend(ctx, c, areq(4, "subscribe", map[string]any{"channel": chat}))
		_, _ = aresponse(ctx, c, 4, 30*time.Second)
	}
	return chat
}

// aturn starts a turn in chat with text.
func aturn(ctx context.Context, c *websocket.Conn, chat, id, text string, seq int) {
	_ = adispatch(ctx, c, chat, seq, fmt.Sprintf(`{"type":"chat/turnStarted","turnId":%q,"startedAt":"2026-11-27T00:00:00.000Z","message":{"text":%q,"origin":{"kind":"user"}}}`, id, text))
}

// aclient dials u and initializes as client me; nil (after a short
// pause) when the dial fails.
func aclient(ctx context.Context, u, me string) *websocket.Conn {
	c, _, err := adial(ctx, u, "")
	if err != nil {
		pause(ctx, 200*time.Millisecond)
		return nil
	}
	_ = asend(ctx, c, ainit(me, nil))
	_, _ = aresponse(ctx, c, 1, 30*time.Second)
	return c
}

// achatTurn connects as client me, opens a chat and starts a turn with
// text in it; nil when the dial or the chat fails.
func achatTurn(ctx context.Context, u, me, text string) (*websocket.Conn, string) {
	c := aclient(ctx, u, me)
	if c == nil {
		return nil, ""
	}
	chat := asession(ctx, c, me)
	if chat == "" {
		_ = c.CloseNow()
		return nil, ""
	}
	aturn(ctx, c, chat, me+"-t", text, 1)
	return c, chat
}

// attackTerminal: a client retitles a demo terminal with 1 MiB titles,
// resizes it to 1e9×1e9 and −5×0 (issue 24 item 3): every such action
// must come back rejected.
func attackTerminal(ctx context.Context, u string, st *soakStats) {
	title := strings.Repeat("T", 1<<20)
	for n := 0; ctx.Err() == nil; n++ {
		me := fmt.Sprintf("hterm-%d", n)
		c, _ := achatTurn(ctx, u, me, "/demo shell")
		if c == nil {
			continue
		}
		var term string
		aread(ctx, c, 30*time.Second, func(b []byte) bool {
			if m := terminalRe.FindSubmatch(b); m != nil {
				term = string(m[1])
				return true
			}
			return false
		})
		if term == "" {
			_ = c.CloseNow()
			continue
		}
		_ = asend(ctx, c, areq(5, "subscribe", map[string]any{"channel": term}))
		for i := 0; i < 20 && ctx.Err() == nil; i++ {
			st.count("terminal")
			_ = adispatch(ctx, c, term, 10+3*i, fmt.Sprintf(`{"type":"terminal/titleChanged","title":%q}`, title))
			_ = adispatch(ctx, c, term, 11+3*i, `{"type":"terminal/resized","cols":1000000000,"rows":1000000000}`)
			_ = adispatch(ctx, c, term, 12+3*i, `{"type":"terminal/resized","cols":-5,"rows":0}`)
		}
		// Every echo of ours carries a rejection.
		seen := 0
		aread(ctx, c, 20*time.Second, func(b []byte) bool {
			var m struct {
				Params struct {
					Channel string
					Origin  *struct {
						ClientID string
					}
					RejectionReason string
				}
			}
			if json.Unmarshal(b, &m) != nil || m.Params.Channel != term || m.Params.Origin == nil || m.Params.Origin.ClientID != me {
				return false
			}
			if m.Params.RejectionReason == "" {
				st.violate("hostile terminal action accepted: %.200s", b)
			}
			seen++
			return seen == 60
		})
		_ = c.CloseNow()
		pause(ctx, 500*time.Millisecond)
	}
}

// attackDiff: a /demo edit changeset whose contents are read 50 times over
// without reading the answers, and a review of 10,000 bogus 100-byte file
// ids (issue 24's hostile diff, host side).
func attackDiff(ctx context.Context, u string, st *soakStats) {
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmt.Sprintf("file:///%0100d", i)
	}
	bogus, _ := json.Marshal(ids)
	for n := 0; ctx.Err() == nil; n++ {
		me := fmt.Sprintf("hdiff-%d", n)
		c, chat := achatTurn(ctx, u, me, "/demo edit")
		if c == nil {
			continue
		}
		var uris []string
		aread(ctx, c, 30*time.Second, func(b []byte) bool {
			for _, m := range contentRe.FindAllSubmatch(b, -1) {
				uris = append(uris, string(m[1]))
			}
			return len(uris) > 0
		})
		cs := "ahp-changeset:/" + strings.TrimPrefix(strings.TrimPrefix(chat, "ahp-chat:"), "/") + "/session"
		_ = asend(ctx, c, areq(5, "subscribe", map[string]any{"channel": cs}))
		st.count("diff")
		_ = adispatch(ctx, c, cs, 2, fmt.Sprintf(`{"type":"changeset/filesReviewChanged","files":%s,"reviewed":true}`, bogus))
		for i := 0; i < 50 && len(uris) > 0; i++ {
			_ = asend(ctx, c, areq(100+i, "resourceRead", map[string]any{"channel": "ahp-root://", "uri": uris[i%len(uris)]}))
		}
		pause(ctx, 2*time.Second)
		_ = c.CloseNow()
	}
}

// attackSchema: session configuration requests with 100,000 keys, a 1 MiB
// value and a 1 MiB completion query (issue 24's hostile schema, host
// side): each is answered (a result or an error), never a stall.
func attackSchema(ctx context.Context, u string, st *soakStats) {
	cfg := make(map[string]json.RawMessage, 100000)
	for i := range 100000 {
		cfg[fmt.Sprintf("k%d", i)] = json.RawMessage(`"v"`)
	}
	big := map[string]json.RawMessage{"model": json.RawMessage(`"` + strings.Repeat("m", 1<<20) + `"`)}
	for n := 0; ctx.Err() == nil; n++ {
		c := aclient(ctx, u, fmt.Sprintf("hschema-%d", n))
		if c == nil {
			continue
		}
		reqs := []string{
			areq(2, "resolveSessionConfig", map[string]any{"channel": "ahp-root://", "provider": "demo", "config": cfg}),
			areq(3, "resolveSessionConfig", map[string]any{"channel": "ahp-root://", "provider": "demo", "config": big}),
			areq(4, "sessionConfigCompletions", map[string]any{"channel": "ahp-root://", "provider": "demo", "property": "model", "query": strings.Repeat("q", 1<<20)}),
			areq(5, "createSession", map[string]any{"channel": fmt.Sprintf("ahp-session:/hschema-%d", n), "provider": "demo", "config": cfg}),
		}
		for i, r := range reqs {
			st.count("schema")
			_ = asend(ctx, c, r)
			if _, err := aresponse(ctx, c, i+2, 30*time.Second); err != nil && ctx.Err() == nil && !isTimeout(err) {
				break // closed by the host (e.g. message too large): fine
			} else if isTimeout(err) && ctx.Err() == nil {
				st.violate("hostile schema request %d not answered in 30 s", i+2)
			}
		}
		_ = c.CloseNow()
		pause(ctx, 500*time.Millisecond)
	}
}

// attackReadFlood: connections that send 100 resourceReads of a page of
// the big chat's stored replies each and never read (issue 24 item 2).
func attackReadFlood(ctx context.Context, u, bigChat string, st *soakStats) {
	var page string
	for n := 0; ctx.Err() == nil; n++ {
		c := aclient(ctx, u, fmt.Sprintf("flood-%d", n))
		if c == nil {
			continue
		}
		if page == "" {
			_ = asend(ctx, c, areq(2, "subscribe", map[string]any{"channel": bigChat}))
			aread(ctx, c, 30*time.Second, func(b []byte) bool {
				if m := partRe.FindSubmatch(b); m != nil {
					page = string(m[1])
					return true
				}
				return false
			})
			if page == "" {
				_ = c.CloseNow()
				pause(ctx, time.Second)
				continue
			}
		}
		for i := range 100 {
			st.count("readFlood")
			if asend(ctx, c, areq(10+i, "resourceRead", map[string]any{"channel": "ahp-root://", "uri": page})) != nil {
				break
			}
		}
		pause(ctx, 3*time.Second) // never reading
		_ = c.CloseNow()
	}
}
