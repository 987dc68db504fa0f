package cli

import (
	"net/url"
	"os"
	"strconv"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
)

// `/demo url` inside `ahptui demo`: the demo host's token goes to a file of
// mode 0600 in the state directory (one per demo process, removed when it
// ends), and the demo agent learns the host's URL without the token and
// that file's path; it answers with commands that read the token from the
// file. The token is never on screen, in the transcript or in a log.

// connectAgent is implemented by agents that tell users how their host is
// reached (the demo agent).
type connectAgent interface{ SetConnectInfo(demo.ConnectInfo) }

// announceDemoHost writes the host's token file and hands the URL and
// the file to every agent that answers /demo url. It returns a function
// that removes the file; a failure to write it leaves the answer without a
// token file (the demo says how else to get the token).
func announceDemoHost(agents []ahphost.Agent, hostURL, token string) (remove func(), err error) {
	ci := demo.ConnectInfo{URL: urlWithoutToken(hostURL)}
	remove = func() {}
	if token != "" {
		ci.TokenFile, remove, err = writeDemoToken(token)
		if err != nil {
			ci.TokenFile = ""
		}
	}
	for _, a := range agents {
		if ca, ok := a.(connectAgent); ok {
			ca.SetConnectInfo(ci)
		}
	}
	return remove, err
}

// urlWithoutToken drops the tkn parameter from a host URL.
func urlWithoutToken(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Del("tkn")
	u.RawQuery = q.Encode()
	return u.String()
}

// writeDemoToken writes token to demo-PID.token (mode 0600) in the state
// directory and returns its path and a function removing it.
func writeDemoToken(token string) (string, func(), error) {
	path, err := writeStateFile("demo token file", "demo-"+strconv.Itoa(os.Getpid())+".token", []byte(token))
	if err != nil {
		return "", func() {}, err
	}
	return path, func() { _ = os.Remove(path) }, nil
}
