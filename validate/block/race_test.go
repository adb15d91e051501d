//go:build race

package block

// raceEnabled: the race detector slows the solver tenfold; heavy loops run their short
// counts under it (scripts/test.sh also runs validate/... at full counts without it).
const raceEnabled = true
