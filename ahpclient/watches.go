package ahpclient

import (
	"context"
	"errors"

	"github.com/ahptui/ahptui/ahpwire"
)

// CreateResourceWatch asks the host to watch p.URI (on a host, a file: URI
// inside a session's working directories; p.Channel defaults to the root)
// and returns the ahp-resource-watch: channel to Subscribe to: its
// resourceWatch/changed envelopes then arrive in the event stream.
// Unsubscribing releases the watch (the host keeps it a short while, so a
// reconnect resumes it).
func (c *Client) CreateResourceWatch(ctx context.Context, p ahpwire.CreateResourceWatchParams) (string, error) {
	if p.Channel == "" {
		p.Channel = ahpwire.RootURI
	}
	var res ahpwire.CreateResourceWatchResult
	if err := c.request(ctx, ahpwire.MethodCreateResourceWatch, p, &res, nil); err != nil {
		return "", err
	}
	if res.Channel == "" {
		return "", &ProtocolError{Detail: "createResourceWatch result", Err: errors.New("no channel")}
	}
	return res.Channel, nil
}
