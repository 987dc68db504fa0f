package app

import (
	"fmt"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
)

// StatusInfo is everything the status line shows.
type StatusInfo struct {
	Conn      ahpclient.ConnState
	Now       time.Time // for the reconnect countdown
	Host      string
	Title     string
	Model     string
	Usage     string
	Pending   int
	Mode      string // the session's mode (config), "" if none
	Running   int    // background work (shells, subagents) running
	Notice    string
	NoticeErr bool
	Stalled   time.Duration // an overdue host's silence while connected (tui/stall.go)
}

// FormatTokens renders a token count compactly (950, 12.3k, 1.2M).
func FormatTokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
