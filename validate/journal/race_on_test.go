//go:build race

package journal

// raceEnabled: the race detector slows the sequential corruption and crash loops
// tenfold; they run fewer tries under it (scripts/test.sh runs validate/... again at full
// counts without it).
const raceEnabled = true
