//go:build race

package barcode

import "testing"

// raceEnabled: the race detector slows decoding several times over; the measured frame
// sets skip under it (scripts/test.sh runs them in its stage without -race).
const raceEnabled = true

// skipUnderRace skips a test that decodes whole frames or symbols on one goroutine, about
// 20 times slower instrumented: scripts/test.sh's full-size stage runs it without -race.
func skipUnderRace(t *testing.T) {
	t.Helper()
	t.Skip("decodes whole frames on one goroutine: run without -race (scripts/test.sh, full-size stage)")
}
