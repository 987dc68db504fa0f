package filecomplete

import (
	"path/filepath"
	"testing"
)

// BenchmarkWalkRepo walks this repository (what "@" walks at most every
// few seconds in a session of it).
func BenchmarkWalkRepo(b *testing.B) {
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for i := 0; i < b.N; i++ {
		n = len(walk(root))
	}
	b.ReportMetric(float64(n), "files")
}

// BenchmarkMatch matches a short query against this repository's files
// (what each "@" keystroke costs).
func BenchmarkMatch(b *testing.B) {
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	files := walk(root)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Match(files, "acptrn", 50)
	}
}
