// Package bytesize formats byte counts for people, the one way every
// screen shows them (render's tool output and resources, resload's
// loading and binary-content notes).
package bytesize

import (
	"fmt"
	"strconv"
)

// Format formats a byte count: "512 B", "4.0 KB", "1.2 MB".
func Format(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}
