//go:build race

package ledger

// raceEnabled lets heavy statistical tests do fewer tries under the race detector.
const raceEnabled = true
