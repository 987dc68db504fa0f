package ahpclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// schemeUnix is the URL scheme of a host listening on a Unix socket:
// ws+unix:///path/to/socket (the query, e.g. ?tkn=, is kept).
const schemeUnix = "ws+unix"

// unixSocket rewrites a ws+unix:// URL in place to the ws:// URL sent in
// the handshake (host "localhost", path "/") and returns the socket path;
// "" for any other scheme.
func unixSocket(u *url.URL) (string, error) {
	if u.Scheme != schemeUnix {
		return "", nil
	}
	path := u.Path
	if u.Host != "" || path == "" || !strings.HasPrefix(path, "/") && !strings.HasPrefix(path, "@") {
		return "", errors.New("ahpclient: a ws+unix URL needs an absolute socket path (ws+unix:///path/to/socket)")
	}
	u.Scheme, u.Host, u.Path, u.RawPath = "ws", "localhost", "/", ""
	return path, nil
}

// unixHTTPClient returns a handshake client that dials the socket at path
// whatever the URL's host. No keep-alives: the connection is hijacked.
func unixHTTPClient(path string) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(ctx, "unix", path)
			if err != nil {
				return nil, fmt.Errorf("dial unix socket %s: %w", path, err)
			}
			return c, nil
		},
		DisableKeepAlives: true,
	}}
}
