package acp

import (
	"errors"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel said it has no openat2 (before 5.6).
var noOpenat2 atomic.Bool

// openat opens rel beneath root: openat2 with RESOLVE_BENEATH (links
// inside root are followed, none out of it, no /proc magic links), else
// the walk with O_NOFOLLOW per component.
func openat(root int, rel string, flags int, perm uint32) (int, error) {
	if !noOpenat2.Load() {
		fd, err := unix.Openat2(root, rel, &unix.OpenHow{
			Flags:   uint64(flags),
			Mode:    uint64(perm),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
		})
		if !errors.Is(err, unix.ENOSYS) {
			return fd, err
		}
		noOpenat2.Store(true)
	}
	return walkOpen(root, rel, flags, perm)
}
