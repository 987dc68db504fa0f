//go:build !race

package acp

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
