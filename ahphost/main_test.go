package ahphost

import (
	"os"
	"testing"
)

// buildDir holds the ahptui binary the soak test builds (see buildAhptui).
var buildDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}
