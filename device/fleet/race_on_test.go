//go:build race

package fleet_test

// raceEnabled: under the race detector the cluster tests race 50 terminals for 250
// tickets and the real servers' test (race-built nats-server processes) is left out;
// scripts/test.sh's full-size stage runs them whole without it.
const raceEnabled = true
