package barcode

import "testing"

// TestQRDimensionBetweenVersions reads a clean QR symbol on gently curved paper (tuning
// frame 29833, version 2) whose finders' module gozxing's finder judges 15 % small: the
// finder centres' distance then gives 27 modules, halfway between two versions, which
// ZXing refuses; both neighbours are tried.
func TestQRDimensionBetweenVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("camera frames skipped in -short mode")
	}
	needZint(t)
	cf, text, err := camFrameAt(QRCode, 29833)
	if err != nil {
		t.Fatal(err)
	}
	res, err := NewDecoder(Options{Formats: AllFormats}).Decode(cf.img)
	if err != nil || res.Text != text || res.Format != QRCode {
		t.Errorf("frame 29833 (%s): got %+v, %v; want QR %q", cf.p.Class, res, err, text)
	}
}
