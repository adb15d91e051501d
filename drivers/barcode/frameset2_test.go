//go:build !race

package barcode

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// fullSets reports whether the full measurement (BARCODE_FULL=1: 550 camera frames and 500
// desk frames per symbology) is asked for instead of the CI size.
func fullSets() bool { return os.Getenv("BARCODE_FULL") != "" }

// formatsUnderTest is every symbology, or those FORMATS names (e.g. FORMATS=itf,qr).
func formatsUnderTest() []Format {
	all := []Format{Code128, ITF, QRCode, DataMatrix}
	v := os.Getenv("FORMATS")
	if v == "" {
		return all
	}
	var out []Format
	for _, name := range strings.Split(v, ",") {
		if f, ok := ParseFormat(name); ok {
			out = append(out, f)
		}
	}
	return out
}

// readFloor is the read rate each symbology must reach on the CI size of each held-out set:
// the lower of the rates measured on the CI subset and on the full held-out set
// (docs/codes.md: camera 50 frames per class and 50 large ones per symbology, desk 500), so
// that any regression fails.
var readFloor = map[string]map[Format]float64{
	"desk":   {Code128: 1, ITF: 1, QRCode: 1, DataMatrix: 1},
	"camera": {Code128: 0.996, ITF: 1, QRCode: 1, DataMatrix: 0.991},
}

// TestCameraFrameSet measures the camera frames (frames2_test.go) of the held-out range, and
// as many large frames (frames_large_test.go, class "large") as there are frames per class
// (LARGE=0 leaves them out): per symbology, ours must read ≥ readFloor["camera"], and no
// fewer than gozxing alone or zbarimg, in total and in every distortion class; a read of
// another text fails at once.
func TestCameraFrameSet(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("camera frame set skipped in -short mode and under -race")
	}
	needZint(t)
	per := 10
	if fullSets() {
		per = 50
	}
	per = frameSetSizeOr(per*int(numCamClasses)) / int(numCamClasses)
	for _, f := range formatsUnderTest() {
		out := measureSet(t, f, indices(frameBase(), per*int(numCamClasses)), camSource(f), true)
		if os.Getenv("LARGE") != "0" {
			out = append(out, measureSet(t, f, indices(frameBase(), per), largeSource(f), true)...)
		}
		checkSet(t, "camera", f, out)
	}
}

// checkSet logs the table and asserts the goal on one set of one symbology.
func checkSet(t *testing.T, set string, f Format, out []frameOutcome) {
	t.Helper()
	_, zbar := lookTool("zbarimg")
	total := summarize(t, set, f, out, zbar)
	if total.wrong > 0 {
		t.Errorf("%s %v: %d frames read as another text", set, f, total.wrong)
	}
	if rate := float64(total.ours) / float64(total.n); rate < readFloor[set][f] {
		t.Errorf("%s %v: read %d/%d = %.1f %% < %.1f %%", set, f, total.ours, total.n, 100*rate, 100*readFloor[set][f])
	}
	by := map[string]*tally{}
	for _, o := range out {
		if by[o.class] == nil {
			by[o.class] = &tally{}
		}
		by[o.class].add(o)
	}
	for c, a := range by {
		if compareOthers() && (a.ours < a.zxing || a.ours < a.zbar) {
			t.Errorf("%s %v %s: ours %d < gozxing %d or zbarimg %d of %d", set, f, c, a.ours, a.zxing, a.zbar, a.n)
		}
	}
}

// TestCameraClutterReadsNothing: camera frames of the desk alone (coins, pens, receipt text,
// calendar grids, striped mats; every class's optics), and large frames of it, must never
// yield a code, every symbology enabled and ITF of any length: a false read reaches the
// terminal as a scan.
func TestCameraClutterReadsNothing(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("camera clutter skipped in -short mode and under -race")
	}
	needZint(t)
	n := 66 // six a class
	if fullSets() {
		n = 550
	}
	d := NewDecoder(Options{Formats: AllFormats})
	for i := range n {
		rng := rand.New(rand.NewPCG(camSeed+1, uint64(heldOutBase+i)))
		cf, err := makeCamFrame(rng, 0, "", camClass(i%int(numCamClasses)))
		if err != nil {
			t.Fatal(err)
		}
		if r, err := d.Decode(cf.img); err == nil {
			t.Errorf("clutter frame %d (%s) read as %+v", i, cf.p.Class, r)
		}
	}
	// Large frames of the desk alone (phone photos): one for every 22 camera frames.
	for i := range n / 22 {
		rng := rand.New(rand.NewPCG(largeSeed+1, uint64(heldOutBase+i)))
		cf, err := makeLargeFrame(rng, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if r, err := d.Decode(cf.img); err == nil {
			t.Errorf("large clutter frame %d (%dx%d) read as %+v", i, cf.p.W, cf.p.H, r)
		}
	}
	t.Logf("%d clutter frames and %d large ones, none read", n, n/22)
}

// TestCameraRightAngles reads camera frames held near 0°, 90°, 180° and 270° (± 3°: how a
// hand holds a ticket to a fixed camera), 12 per angle and symbology (one per class, the
// large frames' included): at
// every angle ours reads no fewer than gozxing alone (which reads 1D along rows, so it also
// gets the frame turned by 90°), and no angle reads more than two frames fewer than another:
// no orientation is favoured.
func TestCameraRightAngles(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("camera frames skipped in -short mode and under -race")
	}
	needZint(t)
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
	for _, f := range formatsUnderTest() {
		lo, hi := 1<<30, 0
		for _, angle := range []float64{0, 90, 180, 270} {
			n, ours, zx := int(numCamClasses)+1, 0, 0
			for i := range n {
				rng := rand.New(rand.NewPCG(camSeed+2, uint64(f)<<32|uint64(heldOutBase+i)))
				text := codeText(rng, f)
				var cf camFrame
				var err error
				if camClass(i) == camLarge {
					cf, err = makeLargeFrame(rng, f, text, angle)
				} else {
					cf, err = makeCamFrame(rng, f, text, camClass(i), angle)
				}
				if err != nil {
					t.Fatal(err)
				}
				r, err := d.Decode(cf.img)
				if err == nil && r.Text != text {
					t.Errorf("%v at %v°: frame %d read as %q", f, angle, i, r.Text)
				}
				ours += b2i(err == nil && r.Text == text)
				zx += b2i(gozxingAlone(f, cf.img, text))
			}
			t.Logf("%-10v %3v°: ours %d/%d, gozxing alone %d", f, angle, ours, n, zx)
			if ours < zx {
				t.Errorf("%v at %v°: ours %d/%d < gozxing alone %d", f, angle, ours, n, zx)
			}
			lo, hi = min(lo, ours), max(hi, ours)
		}
		if hi-lo > 2 {
			t.Errorf("%v: reads vary from %d to %d with the angle", f, lo, hi)
		}
	}
}
