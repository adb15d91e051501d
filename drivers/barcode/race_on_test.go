//go:build race

package barcode

// raceEnabled: the race detector slows decoding several times over; the measured frame
// sets skip under it (scripts/test.sh runs them in its stage without -race).
const raceEnabled = true
