//go:build !race

package barcode

import "testing"

const raceEnabled = false

// skipUnderRace: see race_on_test.go.
func skipUnderRace(*testing.T) {}
