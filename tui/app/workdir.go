package app

import (
	"github.com/ahptui/ahptui/render"
)

// DisplayDir shows a working directory the same way whichever form the
// host keeps it in: a local file: URI ("file:///tmp/x") as its path
// ("/tmp/x"); anything else (a plain path, a remote URI) as given.
func DisplayDir(s string) string {
	if p, ok := render.LocalPath(s); ok {
		return p
	}
	return s
}
