package barcode

import "testing"

// camCase names one camera frame of the second generator: its symbology and index.
type camCase struct {
	f Format
	i int
}

// eachCamFrame calls fn with each case's frame and text; it skips in -short mode and where
// zint (the frames' encoder) is missing.
func eachCamFrame(t *testing.T, cases []camCase, fn func(c camCase, cf camFrame, text string)) {
	t.Helper()
	if testing.Short() || raceEnabled { // scripts/test.sh's full-size stage runs them
		t.Skip("camera frames skipped in -short mode and under -race")
	}
	needZint(t)
	for _, c := range cases {
		cf, text, err := camFrameAt(c.f, c.i)
		if err != nil {
			t.Fatal(err)
		}
		fn(c, cf, text)
	}
}

// wantDecoded asserts that Decode, every format enabled (ITF at 14 digits), reads the
// frame as its text in its symbology.
func wantDecoded(t *testing.T, c camCase, cf camFrame, text string) {
	t.Helper()
	res, err := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}}).Decode(cf.img)
	if err != nil || res.Text != text || res.Format != c.f {
		t.Errorf("%v frame %d (%s): got %+v, %v; want %q", c.f, c.i, cf.p.Class, res, err, text)
	}
}
