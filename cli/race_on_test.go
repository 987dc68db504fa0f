//go:build race

package cli

// raceEnabled reports whether the test binary runs with the race detector
// (which slows everything several times: timing budgets do not hold).
const raceEnabled = true
