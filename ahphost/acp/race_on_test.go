//go:build race

package acp

// raceEnabled reports whether the tests run under the race detector (which
// slows the host's per-line stderr masking below the logging rate).
const raceEnabled = true
