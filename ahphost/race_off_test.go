//go:build !race

package ahphost

// raceEnabled reports whether the test binary runs with the race detector.
const raceEnabled = false
