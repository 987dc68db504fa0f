package cli

import (
	"context"
	"sync/atomic"
)

// A host started with `ahptui ssh --start` lives as long as the SSH
// connection that started it (serve --exit-with-stdin): when the link
// drops, that host ends and its sessions with it, and retrying the tunnel
// can only ever reach nothing. So the UI stops at once, with exit 3 and a
// message saying so, instead of retrying forever ("cannot reach the
// host"). Run `ahptui ssh HOST --start` again to start a new host.

// quitter is the part of a tea.Program that ends it.
type quitter interface{ Quit() }

// watchHostLost quits p when lost is closed (the started host ended) before
// ctx ends; the returned func reports whether that happened.
func watchHostLost(ctx context.Context, lost <-chan struct{}, p quitter) func() bool {
	var hit atomic.Bool
	if lost == nil {
		return hit.Load
	}
	go func() {
		select {
		case <-lost:
			hit.Store(true)
			p.Quit()
		case <-ctx.Done():
		}
	}()
	return hit.Load
}

// hostLostMessage is what the user reads after the started host ended.
func hostLostMessage(dest string) string {
	return "ahptui: ssh: the link to " + dest + " dropped, and the host that --start started there ended with it " +
		"(its sessions are gone); run `ahptui ssh " + dest + " --start` again for a new host, or run `ahptui serve` " +
		"there yourself for sessions that outlive the link\n"
}
