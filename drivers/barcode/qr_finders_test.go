package barcode

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// TestQRCorrFindersReadBrokenRuns reads a tuning frame of the third generator's jpeg class
// (testdata/gen3-corr: QR version 2, 1.57-px modules at 30 % contrast, JPEG quality 35, a
// 160-px crop of seed 18): JPEG's blocks break every finder's 1:1:3:1:1 runs, so neither
// gozxing's finder search nor the fitted pass's start (the ink's centroid, thrown off by the
// blocks around the symbol) finds the symbol; the finders found by correlation with their
// template do (qr_finders.go). Nothing read it before.
func TestQRCorrFindersReadBrokenRuns(t *testing.T) {
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-corr"))
}

// TestQRCorrFindersOnBlurredSymbol finds the three finders of a rendered QR symbol of 4-px
// modules, blurred and under noise, at their centres within a pixel, as an L whose corner
// is the top-left finder.
func TestQRCorrFindersOnBlurredSymbol(t *testing.T) {
	const m, dim, q = 4.0, 25, 12
	side := int(dim*m) + 2*q
	g := gray{w: side, h: side, pix: make([]byte, side*side)}
	for y := range side {
		for x := range side {
			u, v := int((float64(x-q))/m), int((float64(y-q))/m)
			dark := false
			if x >= q && y >= q && u < dim && v < dim {
				f := qrFixedModule(u, v, dim)
				dark = f == 1 || f < 0 && (u*7+v*13)%3 == 0
			}
			g.pix[y*side+x] = 200
			if dark {
				g.pix[y*side+x] = 150 // 25 % contrast
			}
		}
	}
	b := g.boxMean(2)
	for i := range b.pix {
		b.pix[i] = byte(int(b.pix[i]) + int(12*math.Sin(float64(i)*12.9898)))
	}
	ls := qrCorrLs(qrCorrFinders(&b, 3, 5))
	if len(ls) == 0 {
		t.Fatal("no L of finders found")
	}
	at := func(p qrCorrPeak, i, j float64) bool {
		return math.Hypot(p.x-(q+i*m), p.y-(q+j*m)) < 1.5
	}
	if l := ls[0]; !at(l.tl, 3.5, 3.5) || !at(l.tr, dim-3.5, 3.5) || !at(l.bl, 3.5, dim-3.5) {
		t.Errorf("finders at %+v %+v %+v, want (%v, %v) (%v, %v) (%v, %v)", l.tl, l.tr, l.bl,
			q+3.5*m, q+3.5*m, q+(dim-3.5)*m, q+3.5*m, q+3.5*m, q+(dim-3.5)*m)
	}
}

// BenchmarkQRCorrFinders times the correlation search (qrCorrFinders and qrCorrLs) on the
// smoothed 240-px crop of the checked-in jpeg frame's candidate, modules of 1.2 to 3.5
// frame pixels as decodeQRCorr searches them.
func BenchmarkQRCorrFinders(b *testing.B) {
	img, _ := loadCrop(b, filepath.Join("testdata", "gen3-corr", "qr-jpeg-18.png"))
	g := toGray(img)
	var r region
	for _, c := range locate(&g) {
		if !c.linear {
			r = c
			break
		}
	}
	s, k := cropSpan(r)
	c := matrixCropAt(&g, r, s, k)
	sm := c.boxMean(1)
	sm.stretch()
	b.ResetTimer()
	for range b.N {
		if len(qrCorrLs(qrCorrFinders(&sm, 1.2*k, min(3.5*k, 0.9*float64(sm.w)/21)))) == 0 {
			b.Fatal("no L")
		}
	}
}

// TestQRCorrFitFindsVersion reads the checked-in jpeg frame's symbol (version 2, 25 modules)
// by fitting from its correlated finders when the version the template's module suggests is
// one off (29 modules: the template's 12 % steps put its module a step under the symbol's):
// of the suggested version and those beside it, the fixed modules' match picks the right
// one. Before, the suggested version alone was fitted, and the frame itself did not read.
func TestQRCorrFitFindsVersion(t *testing.T) {
	skipUnderRace(t)
	img, want := loadCrop(t, filepath.Join("testdata", "gen3-corr", "qr-jpeg-18.png"))
	g := toGray(img)
	d := NewDecoder(Options{Formats: QRCode})
	for _, r := range locate(&g) {
		if r.linear {
			continue
		}
		s, k := cropSpan(r)
		c := matrixCropAt(&g, r, s, k)
		sm := c.boxMean(1)
		sm.stretch()
		ls := qrCorrLs(qrCorrFinders(&sm, 1.2*k, min(3.5*k, 0.9*float64(sm.w)/21)))
		if len(ls) == 0 {
			t.Fatal("no L of finders found")
		}
		res, ok := d.qrFitFinders(&g, r, s, k, ls[0], 29)
		if !ok || res.Text != want {
			t.Errorf("read %v %q, want %q", ok, res.Text, want)
		}
		return
	}
	t.Fatal("no matrix candidate")
}

// TestQRCorrWantsTimeLeft: under a frame budget, the correlated finders' search starts only
// with qrCorrMinLeft left (a fake clock that does not move), and the frame is then given up
// rather than not found; with the time, the same candidate reads.
func TestQRCorrWantsTimeLeft(t *testing.T) {
	img, want := loadCrop(t, filepath.Join("testdata", "gen3-corr", "qr-jpeg-18.png"))
	g := toGray(img)
	for _, r := range locate(&g) {
		if r.linear {
			continue
		}
		s, k := cropSpan(r)
		c := matrixCropAt(&g, r, s, k)
		for _, left := range []time.Duration{qrCorrMinLeft - time.Millisecond, time.Second} {
			clk := clockwork.NewFakeClock()
			d := NewDecoder(Options{Formats: QRCode, Clock: clk})
			d.deadline = clk.Now().Add(left)
			res, ok := d.decodeQRCorr(&g, r, &c, s, k)
			short := left < qrCorrMinLeft
			if ok == short || short && !d.gaveUp || !short && res.Text != want {
				t.Errorf("%v left: read %v %q, given up %v", left, ok, res.Text, d.gaveUp)
			}
		}
		return
	}
	t.Fatal("no matrix candidate")
}
