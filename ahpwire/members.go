package ahpwire

import (
	"encoding/json"
	"fmt"
)

// MessageFromMembers builds a Message from the raw JSON of its members
// (nil when absent), as a validating parser located them (for instance
// segment.ParseMessage on a reassembled message), exactly as json.Unmarshal
// into Message would decode the whole message, without parsing it again:
// params and result alias their slices, only the small members (jsonrpc,
// id, method, error) go through encoding/json. The caller must have checked
// that the message is valid JSON with no duplicate or case-folded envelope
// member; this function does not check it again.
func MessageFromMembers(jsonrpc, id, method, params, result, errv []byte) (*Message, error) {
	m := &Message{Params: params, Result: result}
	for _, f := range []struct {
		raw []byte
		dst any
	}{{jsonrpc, &m.JSONRPC}, {method, &m.Method}, {id, &m.ID}, {errv, &m.Error}} {
		if f.raw != nil {
			if err := json.Unmarshal(f.raw, f.dst); err != nil {
				return nil, fmt.Errorf("ahpwire: decode jsonrpc message: %w", err)
			}
		}
	}
	return m, nil
}
