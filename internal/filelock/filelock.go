// Package filelock takes exclusive advisory locks on files, across
// processes where the system can: flock on unix, an open with share mode
// 0 on Windows, and elsewhere only among the holders of one process. The
// OS drops a lock when its process dies. It serves the client-id slots
// (ahpclient) and the ACP session index (ahphost/acp).
package filelock

import (
	"errors"
	"os"

	"github.com/ahptui/ahptui/internal/safefile"
)

// ErrBusy is TryLock's answer when another holder has the lock: another
// process, or another open of the same file in this process.
var ErrBusy = errors.New("filelock: held elsewhere")

// Lock is a held lock on a file.
type Lock struct {
	// File is the locked file, open for reading and writing.
	File    *os.File
	release func() // what unlocking needs besides closing File
}

// TryLock opens path (creating it, mode 0600) and locks it without
// waiting: ErrBusy when another holder has it.
func TryLock(path string) (*Lock, error) {
	return tryLock(path) // filelock_*.go
}

// Close releases the lock and closes the file.
func (l *Lock) Close() error {
	if l.release != nil {
		l.release()
	}
	return l.File.Close() //nolint:wrapcheck // the file's own error
}

// open opens (creating) the lock file.
func open(path string) (*os.File, error) {
	return safefile.OpenLockFile(path, 0o600) //nolint:wrapcheck // callers wrap
}
