package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/internal/safefile"
)

// A durable `serve` given no token keeps the random one it makes in its
// state directory, beside the sessions it protects, and uses it again at
// the next start: clients attached before a restart reconnect with the
// token they have (issue 28: a restart is a non-event for them), where a
// new token at every start turned them away for good. --new-token makes
// a new one; --token and --without-connection-token keep nothing.

// tokenFile is the kept token's file in the state directory.
const tokenFile = "serve-token.txt" // (not "…token: …" in an error: the log masker would hide what follows)

// maxKeptToken bounds a kept token's length (a random one is 32).
const maxKeptToken = 256

// keptToken returns the token kept in dir, or a new random one (when there
// is none, or renew), which it keeps (mode 0600, replacing the file rather
// than writing through a link). made reports a new token.
func keptToken(dir string, renew bool) (tok string, made bool, err error) {
	path := filepath.Join(dir, tokenFile)
	if !renew {
		tok, err := readKeptToken(path)
		if err == nil {
			return tok, false, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", false, err
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("state directory: %w", err)
	}
	if tok, err = ahphost.NewToken(); err != nil {
		return "", false, err //nolint:wrapcheck // ahphost's error says what failed
	}
	if err := safefile.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", false, fmt.Errorf("keep the token in the state directory: %w", err)
	}
	return tok, true, nil
}

// readKeptToken reads a kept token: a regular file of the user's alone
// (not a link), one line of printable characters.
func readKeptToken(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return "", err //nolint:wrapcheck // fs.ErrNotExist is looked for by the caller
	}
	bad := func(why string) error {
		return fmt.Errorf("the kept token %s %s: remove it, or start with --new-token", path, why)
	}
	switch {
	case !st.Mode().IsRegular():
		return "", bad("is not a regular file")
	case st.Mode().Perm()&0o077 != 0:
		return "", bad(fmt.Sprintf("is readable by others (mode %v)", st.Mode().Perm()))
	case st.Size() > maxKeptToken+1:
		return "", bad("is too long to be a token")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read the kept token: %w", err)
	}
	tok := strings.TrimSuffix(string(b), "\n")
	if tok == "" || strings.IndexFunc(tok, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		return "", bad("does not hold a token")
	}
	return tok, nil
}
