package barcode

import (
	"path/filepath"
	"testing"
)

// TestBandFitsWaitForThePlainPass: the bands' profile fits (a blurred Code 128 or ITF,
// edgeRow) cost tens of ms on a block of print, which the locator takes for bars. They
// wait until every candidate had its plain read: ZXing's photo of a QR code in a newspaper
// ad (qrcode-1/13.png, real) reads its QR with no band fitted (before, the print beside
// it was fitted first: 60 ms of the camera's 40-ms budget, and the frame did not read
// under it). The print alone, the matrix formats left out, is still fitted after the
// plain pass (refitLinear).
func TestBandFitsWaitForThePlainPass(t *testing.T) {
	if raceEnabled {
		t.Skip("a real photograph's decode: seconds under -race")
	}
	img := loadImage(t, filepath.Join(realPhotoDir(t), "qrcode/testdata/qrcode-1/13.png"))
	opt := Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}}
	d := NewDecoder(opt)
	r, err := d.Decode(img)
	if err != nil || r.Text != "http://google.com/gwt/n?u=bluenile.com" {
		t.Fatalf("read %q, %v", r.Text, err)
	}
	if d.bandFits != 0 {
		t.Errorf("%d bands fitted before the QR code's plain read, want none", d.bandFits)
	}
	opt.Formats = OneD
	d = NewDecoder(opt)
	if r, err := d.Decode(img); err == nil {
		t.Fatalf("read %v %q in a photo without a linear code", r.Format, r.Text)
	}
	if d.bandFits == 0 {
		t.Error("the print's bands were never fitted: the fits the plain pass left out must come after it")
	}
}
