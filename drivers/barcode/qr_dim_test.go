package barcode

import "testing"

// TestQRDimensionBetweenVersions reads a clean QR symbol on gently curved paper (tuning
// frame 29833, version 2) whose finders' module gozxing's finder judges 15 % small: the
// finder centres' distance then gives 27 modules, halfway between two versions, which
// ZXing refuses; both neighbours are tried.
func TestQRDimensionBetweenVersions(t *testing.T) {
	eachCamFrame(t, []camCase{{QRCode, 29833}}, func(c camCase, cf camFrame, text string) {
		wantDecoded(t, c, cf, text)
	})
}
