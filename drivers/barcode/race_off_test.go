//go:build !race

package barcode

const raceEnabled = false
