package bytesize

import "testing"

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 512: "512 B", 1023: "1023 B", 1024: "1.0 KB", 2048: "2.0 KB", 3 << 20: "3.0 MB", 1536 << 10: "1.5 MB"} {
		if got := Format(n); got != want {
			t.Errorf("Format(%d) = %q, want %q", n, got, want)
		}
	}
}
