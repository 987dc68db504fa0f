package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/ahptui/ahptui/ahpclient"
)

// Build stamps, set by the release build (.goreleaser.yaml) with
// -ldflags "-X github.com/ahptui/ahptui/cli.version=v1.2.3 ...".
var (
	version = "dev"
	commit  = ""
	date    = ""
)

// versionString returns the text printed by --version.
func versionString() string {
	v, c := version, commit
	if c == "none" { // goreleaser's placeholder when it could not read git
		c = ""
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if c == "" && s.Key == "vcs.revision" {
				c = s.Value
			}
		}
	}
	stamp := ""
	if c != "" {
		if len(c) > 12 {
			c = c[:12]
		}
		stamp = ", commit " + c
	}
	if date != "" && date != "none" {
		stamp += ", built " + date
	}
	return fmt.Sprintf("ahptui %s (%s, %s/%s%s; AHP %s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH, stamp,
		strings.Join(ahpclient.ProtocolVersions, ", ")) // the versions the client offers
}
