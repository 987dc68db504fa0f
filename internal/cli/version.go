package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

// versionString returns the text printed by --version.
func versionString() string {
	v := version
	if v == "dev" {
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	return fmt.Sprintf("ahptui %s (%s, %s/%s; AHP 1.0.0, 0.9.0)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
