//go:build !race

package cli

// raceEnabled reports whether the test binary runs with the race detector.
const raceEnabled = false
