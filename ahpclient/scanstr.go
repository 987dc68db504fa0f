package ahpclient

import (
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/jsonscan"
)

var streamKeys = []string{"type", "turnId", "partId", "content", "_meta"}

// scanStreamAction decodes a chat/delta or chat/reasoning action with the
// shared scanner (strings are validated and unescaped by jsonscan, whose
// SWAR loops dominate big deltas); ok is false for anything else or
// anything unusual, and the caller falls back to encoding/json, so the
// result never differs from it (FuzzStreamAction checks this).
func scanStreamAction(raw []byte) (ahpwire.Action, bool) {
	var s streamAction
	var meta []byte
	if !jsonscan.Object(raw, func(key []byte, i int) (int, bool) {
		var end int
		var ok bool
		switch string(key) {
		case "type":
			s.Type, end, ok = jsonscan.String(raw, i)
		case "turnId":
			s.TurnID, end, ok = jsonscan.String(raw, i)
		case "partId":
			s.PartID, end, ok = jsonscan.String(raw, i)
		case "content":
			s.Content, end, ok = jsonscan.String(raw, i)
		case "_meta":
			if meta != nil { // encoding/json would merge duplicate maps
				return i, false
			}
			end, ok = jsonscan.SkipValue(raw, i)
			meta = raw[i:end]
		default:
			end, ok = skipUnknown(raw, i, key, streamKeys)
		}
		return end, ok
	}) {
		return nil, false
	}
	if meta != nil && string(meta) != "null" {
		var m ahpwire.Meta // not &s.Meta, which would move s to the heap
		if json.Unmarshal(meta, &m) != nil {
			return nil, false
		}
		s.Meta = m
	}
	return s.action()
}
