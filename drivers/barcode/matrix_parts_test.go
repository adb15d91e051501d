package barcode

import "testing"

// TestSmallQRMergedWithClutter reads camera frames (tuning range) whose small QR symbol
// (modules of 2.2 px, defocused) the locator merges with the block of clutter beside it into
// one candidate too large to magnify, so that only its parts (decodeParts) can read it: plain,
// as the equalised crop loses it, and within the parts' own budget, as the candidates before
// it spend the pass's.
func TestSmallQRMergedWithClutter(t *testing.T) {
	if testing.Short() {
		t.Skip("camera frames skipped in -short mode")
	}
	needZint(t)
	for _, i := range []int{29430, 30288, 30365} {
		cf, text, err := camFrameAt(QRCode, i)
		if err != nil {
			t.Fatal(err)
		}
		g := toGray(cf.img)
		merged := false
		for _, r := range locate(&g) {
			if !r.linear {
				merged = len(candidateParts(r)) > 0 // the best matrix candidate
				break
			}
		}
		if !merged {
			t.Errorf("frame %d: the best matrix candidate is not read in parts", i)
		}
		res, err := NewDecoder(Options{Formats: AllFormats}).Decode(cf.img)
		if err != nil || res.Text != text || res.Format != QRCode {
			t.Errorf("frame %d (%s): got %+v, %v; want QR %q", i, cf.p.Class, res, err, text)
		}
	}
}
