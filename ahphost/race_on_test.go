//go:build race

package ahphost

// raceEnabled reports whether the test binary runs with the race detector
// (which multiplies memory use; the soak budget accounts for it).
const raceEnabled = true
