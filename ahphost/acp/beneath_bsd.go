//go:build !linux && !windows

package acp

// openat opens rel beneath root one component at a time (this system has
// no openat2).
func openat(root int, rel string, flags int, perm uint32) (int, error) {
	return walkOpen(root, rel, flags, perm)
}
