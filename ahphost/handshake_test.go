package ahphost

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

func TestTokenRequired(t *testing.T) {
	h, u := startHost(t, Options{Token: "s3cret-token"})
	base := strings.Split(u, "?")[0]
	tests := []struct {
		name string
		url  string
		hdr  http.Header
		ok   bool
	}{
		{"query token", base + "?tkn=s3cret-token", nil, true},
		{"bearer header", base, http.Header{"Authorization": {"Bearer s3cret-token"}}, true},
		{"no token", base, nil, false},
		{"wrong query token", base + "?tkn=s3cret-tokeN", nil, false},
		{"prefix of token", base + "?tkn=s3cret", nil, false},
		{"wrong scheme", base, http.Header{"Authorization": {"Basic s3cret-token"}}, false},
		{"wrong bearer", base, http.Header{"Authorization": {"Bearer nope"}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tryDial(tc.url, tc.hdr)
			if tc.ok {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				_ = c.CloseNow()
				return
			}
			if err == nil {
				_ = c.CloseNow()
				t.Fatal("dial succeeded without a valid token")
			}
			if !strings.Contains(err.Error(), "401") {
				t.Fatalf("want HTTP 401, got %v", err)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Fatalf("error leaks the token: %v", err)
			}
		})
	}
	if h.URL() != u || !strings.HasSuffix(u, "?tkn=s3cret-token") {
		t.Fatalf("URL() = %q", h.URL())
	}
}

func TestNoTokenURL(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true})
	if strings.Contains(u, "tkn") || !strings.HasPrefix(u, "ws://127.0.0.1:") {
		t.Fatalf("url %q", u)
	}
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	_ = h
}

func TestRandomTokenByDefault(t *testing.T) {
	h1, u1 := startHost(t, Options{})
	h2, _ := startHost(t, Options{})
	if len(h1.Token()) < 32 || h1.Token() == h2.Token() {
		t.Fatalf("tokens %q %q", h1.Token(), h2.Token())
	}
	w := dial(t, u1, nil)
	w.initialize("c1", nil, nil)
}

func TestVersionNegotiation(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	tests := []struct {
		offered []string
		want    string // "" = failure
	}{
		{[]string{"1.0.0", "0.9.0"}, "1.0.0"},
		{[]string{"0.9.0"}, "0.9.0"},
		{[]string{"0.9.3", "1.4.2"}, "0.9.3"}, // 1.4 has features this host does not serve
		{[]string{"1.1.0"}, "1.1.0"},
		{[]string{"1.2.0"}, ""},
		{[]string{"2.0.0", "1.1.0"}, "1.1.0"},
		{[]string{"0.10.0", "0.5.1"}, ""},
		{[]string{"2.0.0"}, ""},
		{[]string{"1.0.0-beta", "01.0.0", "1.0"}, ""},
		{[]string{}, ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.offered, ","), func(t *testing.T) {
			w := dial(t, u, nil)
			code, m := w.callErr("initialize", map[string]any{
				"channel": "ahp-root://", "protocolVersions": tc.offered, "clientId": "v",
			})
			if tc.want != "" {
				if code != 0 {
					t.Fatalf("error %d", code)
				}
				var res struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				must(t, json.Unmarshal(m.Result, &res))
				if res.ProtocolVersion != tc.want {
					t.Fatalf("version %q, want %q", res.ProtocolVersion, tc.want)
				}
				return
			}
			if code != -32005 {
				t.Fatalf("code %d, want -32005", code)
			}
			var data struct {
				SupportedVersions []string `json:"supportedVersions"`
			}
			must(t, json.Unmarshal(m.Error.Data, &data))
			if strings.Join(data.SupportedVersions, "|") != ">=1.0.0 <1.2.0|>=0.9.0 <0.10.0" {
				t.Fatalf("supportedVersions %v", data.SupportedVersions)
			}
			if st := w.closed(); st != websocket.StatusNormalClosure {
				t.Fatalf("close status %v, want normal closure", st)
			}
		})
	}
}

func TestFramesBeforeInitialize(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true})
	w := dial(t, u, nil)
	tests := []struct {
		name  string
		frame string
		want  string // substring of the response
	}{
		{"ping before initialize", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"channel":"ahp-root://"}}`, `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"listSessions before initialize", `{"jsonrpc":"2.0","id":2,"method":"listSessions","params":{"channel":"ahp-root://"}}`, `"code":-32600`},
		{"parse error", `{"jsonrpc":"2.0","id":3,`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700`},
		{"string id", `{"jsonrpc":"2.0","id":"x","method":"ping"}`, `"id":"x","error":{"code":-32600`},
		{"unknown method", `{"jsonrpc":"2.0","id":4,"method":"nope","params":{}}`, `"code":-32601`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w.sendRaw(tc.frame)
			got := string(w.next())
			if !strings.Contains(got, tc.want) {
				t.Fatalf("got %s, want it to contain %s", got, tc.want)
			}
		})
	}
}

func TestInitializeResult(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, MaxFrameBytes: 1 << 20})
	w := dial(t, u, nil)
	raw := w.initialize("c1", []string{"ahp-root://", "ahp-session:/missing"}, map[string]any{
		"maxIncomingFrameBytes": 65536, "maxIncomingMessageBytes": 1 << 25,
	})
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerSeq       uint64 `json:"serverSeq"`
		Snapshots       []struct {
			Resource string `json:"resource"`
			State    struct {
				Agents []struct {
					Provider string `json:"provider"`
				} `json:"agents"`
			} `json:"state"`
		} `json:"snapshots"`
		ServerInfo struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
		Capabilities struct {
			Chunking struct {
				MaxIncomingFrameBytes   int64 `json:"maxIncomingFrameBytes"`
				MaxIncomingMessageBytes int64 `json:"maxIncomingMessageBytes"`
			} `json:"chunking"`
		} `json:"capabilities"`
	}
	must(t, json.Unmarshal(raw, &res))
	if res.ProtocolVersion != "1.0.0" || res.ServerInfo.Name != ServerName {
		t.Fatalf("result %s", raw)
	}
	if len(res.Snapshots) != 1 || res.Snapshots[0].Resource != "ahp-root://" ||
		len(res.Snapshots[0].State.Agents) == 0 || res.Snapshots[0].State.Agents[0].Provider != "demo" {
		t.Fatalf("snapshots %s", raw)
	}
	if res.Capabilities.Chunking.MaxIncomingFrameBytes != 1<<20 || res.Capabilities.Chunking.MaxIncomingMessageBytes != 32<<20 {
		t.Fatalf("capabilities %s", raw)
	}
	code, _ := w.callErr("initialize", map[string]any{"channel": "ahp-root://", "protocolVersions": []string{"1.0.0"}, "clientId": "c1"})
	if code != -32600 {
		t.Fatalf("second initialize: code %d", code)
	}
}

func TestHandlerWithHTTPTest(t *testing.T) {
	h, err := New(Options{Token: "tk", Dir: t.TempDir()})
	must(t, err)
	defer h.Close()
	srv := httptest.NewServer(h.Handler())
	defer srv.Close()
	u := "ws" + strings.TrimPrefix(srv.URL, "http")
	w := dial(t, u+"/any/path?tkn=tk", nil)
	w.initialize("c1", nil, nil)
	if h.URL() != "" {
		t.Fatalf("URL() = %q without Listen", h.URL())
	}
	if got := h.ConnectURL("127.0.0.1:5"); got != "ws://127.0.0.1:5?tkn=tk" {
		t.Fatalf("ConnectURL = %q", got)
	}
}

func TestServeUntilCancelled(t *testing.T) {
	h, err := New(Options{NoToken: true, Dir: t.TempDir()})
	must(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx, ln) }()
	waitUntil(t, "URL", func() bool { return h.URL() != "" })
	w := dial(t, h.URL(), nil)
	w.initialize("c1", nil, nil)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if st := w.closed(); st == websocket.StatusNormalClosure {
		t.Fatalf("unexpected clean close %v", st)
	}
}
