package render

import "testing"

// TestDisplayFile: a file edit names its file by its path, relative to the
// session's working directory that holds it; other URIs are shown as they
// are.
func TestDisplayFile(t *testing.T) {
	dirs := []string{"file:///home/me/other", "file:///home/me/proj/"}
	for _, c := range []struct{ uri, want string }{
		{"file:///home/me/proj/app.go", "app.go"},
		{"file:///home/me/proj/cmd/main%20x.go", "cmd/main x.go"},
		{"file:///home/me/project2/a.go", "/home/me/project2/a.go"}, // not under proj/ for sharing a prefix
		{"file:///home/me/proj", "/home/me/proj"},                   // the directory itself
		{"file://localhost/etc/hosts", "/etc/hosts"},
		{"file://server/share/a.go", "file://server/share/a.go"}, // another machine's
		{"untitled:/scratch", "untitled:/scratch"},
	} {
		if got := displayFile(c.uri, dirs); got != c.want {
			t.Errorf("displayFile(%q) = %q, want %q", c.uri, got, c.want)
		}
	}
	if got := displayFile("file:///home/me/proj/app.go", nil); got != "/home/me/proj/app.go" {
		t.Errorf("without working directories: %q", got)
	}
}
