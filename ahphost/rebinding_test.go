package ahphost

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/internal/testkit"
)

// dialHost dials u sending hostHeader as the Host header and returns the
// HTTP status of a refused upgrade (0 when the upgrade succeeded).
func dialHost(t *testing.T, u, hostHeader string) int {
	t.Helper()
	return testkit.DialWithHost(t, u, hostHeader, testTimeout)
}

// TestDNSRebindingHostCheck: without a connection token, a Host header
// naming an attacker's domain (DNS rebinding) is refused with 403; IP
// literals, localhost and allowed names are accepted. With a token any
// Host is accepted (the token is the defence).
func TestDNSRebindingHostCheck(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, AllowedHosts: []string{"devbox.lan"}})
	port := u[strings.LastIndex(u, ":"):]
	for _, tc := range []struct {
		host string
		want int
	}{
		{"attacker.example" + port, http.StatusForbidden},
		{"rebind.127.0.0.1.nip.io" + port, http.StatusForbidden},
		{"127.0.0.1" + port, 0},
		{"localhost" + port, 0},
		{"LOCALHOST." + port, 0},
		{"[::1]" + port, 0},
		{"devbox.lan" + port, 0},
	} {
		if got := dialHost(t, u, tc.host); got != tc.want {
			t.Errorf("Host %q: status %d, want %d", tc.host, got, tc.want)
		}
	}
	_, withToken := startHost(t, Options{Token: "tok", Agent: idleAgent{}})
	if got := dialHost(t, withToken, "attacker.example"+port); got != 0 {
		t.Errorf("with a token, Host attacker.example refused: %d", got)
	}
}
