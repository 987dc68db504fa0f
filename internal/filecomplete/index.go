package filecomplete

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Bounds of one walk.
const (
	// MaxFiles is the most files an index holds.
	MaxFiles = 20000
	// maxEntries is the most directory entries a walk looks at.
	maxEntries = 200000
	// maxDepth is the deepest directory a walk enters.
	maxDepth = 16
	// ttl is how long a walk is reused.
	ttl = 3 * time.Second
)

// Index lists the files of one directory, cached for a few seconds.
type Index struct {
	dir string
	now func() time.Time

	mu    sync.Mutex
	at    time.Time
	files []string // slash-separated, relative, sorted
}

// New returns the index of dir (absolute); now is the clock (nil = time.Now).
func New(dir string, now func() time.Time) *Index {
	if now == nil {
		now = time.Now
	}
	return &Index{dir: dir, now: now}
}

// Files returns the directory's files, walking it when the last walk is
// older than a few seconds.
func (x *Index) Files() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	now := x.now()
	if x.files != nil && now.Sub(x.at) < ttl && !now.Before(x.at) {
		return x.files
	}
	x.files, x.at = walk(x.dir), now
	return x.files
}

// walk lists dir's files breadth first (shallow files are kept when a
// bound cuts the walk), skipping what .gitignore ignores.
func walk(dir string) []string {
	g := &ignorer{}
	g.load(filepath.Join(dir, ".git", "info", "exclude"), "")
	files := []string{}
	entries := 0
	queue := []string{""}
	for len(queue) > 0 && len(files) < MaxFiles && entries < maxEntries {
		rel := queue[0]
		queue = queue[1:]
		abs := filepath.Join(dir, filepath.FromSlash(rel))
		g.load(filepath.Join(abs, ".gitignore"), rel)
		ents, err := os.ReadDir(abs)
		if err != nil {
			continue
		}
		for _, e := range ents {
			entries++
			name := e.Name()
			p := join(rel, name)
			isDir := e.IsDir()
			if e.Type()&os.ModeSymlink != 0 {
				continue // a link may leave the tree or loop
			}
			if isDir && (name == ".git" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				continue
			}
			if g.ignored(p, isDir) {
				continue
			}
			if isDir {
				if strings.Count(p, "/") < maxDepth {
					queue = append(queue, p)
				}
				continue
			}
			if len(files) < MaxFiles {
				files = append(files, p)
			}
		}
	}
	sort.Strings(files)
	return files
}
