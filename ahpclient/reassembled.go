package ahpclient

import (
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// takeReassembled parses and routes a reassembled message, which
// FeedUnchecked has not checked as JSON-RPC, validating it once, where it is
// parsed: an action notification in the common shape by scanActionFrame,
// which validates every byte it accepts (and accepts nothing the RFC's check
// refuses: FuzzReassembledActionFrame); anything else by
// segment.ParseMessage, whose member spans become the ahpwire.Message
// without a second parse by encoding/json (messageFromParsed,
// FuzzMessageFromParsed). violation is the segment violation (close 4400);
// err is dispatch's. A message that is valid JSON-RPC but not one this client
// can decode is ignored, as handle ignores it.
func (k *conn) takeReassembled(b []byte) (violation, err error) {
	p, m, violation, undecodable := parseReassembled(b)
	switch {
	case violation != nil:
		return violation, nil
	case undecodable != nil:
		k.cl.log.Warn("undecodable message from host; ignored", "bytes", len(b), "err", undecodable)
		return nil, nil
	case p != nil:
		k.cl.onActionParams(k, p)
		return nil, nil
	}
	return nil, k.dispatch(m)
}

// parseReassembled is takeReassembled's parse: an action envelope p, or a
// message m, or the segment violation, or why a valid JSON-RPC message
// cannot be decoded by this client.
func parseReassembled(b []byte) (p *envelopeParams, m *ahpwire.Message, violation, undecodable error) {
	if p, ok := scanActionFrame(b); ok {
		return p, nil, nil, nil
	}
	parsed, err := segment.ParseMessage(b)
	if err != nil {
		return nil, nil, err, nil
	}
	m, err = messageFromParsed(parsed)
	return nil, m, nil, err
}

// messageFromParsed builds the message segment.ParseMessage validated from
// its member spans (ahpwire.MessageFromMembers), exactly as json.Unmarshal
// into ahpwire.Message would decode it (FuzzMessageFromParsed), without
// parsing the whole message again.
func messageFromParsed(p segment.Parsed) (*ahpwire.Message, error) {
	return ahpwire.MessageFromMembers(p.JSONRPC, p.ID, p.Method, p.Params, p.Result, p.Error)
}
