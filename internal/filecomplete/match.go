package filecomplete

import (
	"path"
	"sort"
	"strings"
)

// Match returns at most limit of files matching query (case-insensitive):
// base names starting with it first, then paths containing it, then paths
// holding its characters in order; shorter paths first within each.
func Match(files []string, query string, limit int) []string {
	q := strings.ToLower(query)
	type hit struct {
		rank int
		p    string
	}
	var hits []hit
	for _, f := range files {
		low := strings.ToLower(f)
		rank := -1
		switch {
		case q == "" || strings.HasPrefix(strings.ToLower(path.Base(f)), q):
			rank = 0
		case strings.Contains(low, q):
			rank = 1
		case subsequence(low, q):
			rank = 2
		}
		if rank >= 0 {
			hits = append(hits, hit{rank, f})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].rank != hits[j].rank {
			return hits[i].rank < hits[j].rank
		}
		if len(hits[i].p) != len(hits[j].p) {
			return len(hits[i].p) < len(hits[j].p)
		}
		return hits[i].p < hits[j].p
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.p
	}
	return out
}

// subsequence reports whether q's bytes appear in s in order.
func subsequence(s, q string) bool {
	i := 0
	for j := 0; j < len(s) && i < len(q); j++ {
		if s[j] == q[i] {
			i++
		}
	}
	return i == len(q)
}
