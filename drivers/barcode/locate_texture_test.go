package barcode

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// faintNoisyFrame draws text as a DataMatrix symbol of module px (supersampled 4×4 a pixel)
// turned by angle about (cx, cy) on paper of 200 levels at contrast (0–1), blurs it
// (Gaussian σ 0.8 px) and adds white Gaussian noise of σ sigma: the third generator's
// `noise` class at its faintest, the held-out DataMatrix misses' regime.
func faintNoisyFrame(t testing.TB, rng *rand.Rand, text string, module, angle, cx, cy, contrast, sigma float64) *gray {
	t.Helper()
	sym, err := Render(DataMatrix, text, RenderOptions{Module: 1, QuietZone: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := sym.Bounds().Dx()
	const paper = 200.0
	ink := paper * (1 - contrast)
	fr := make([]float64, frameW*frameH)
	for i := range fr {
		fr[i] = paper
	}
	cs, sn := math.Cos(angle), math.Sin(angle)
	half := float64(n) * module / 2
	r := half * math.Sqrt2
	for y := max(0, int(cy-r)); y < min(frameH, int(cy+r)+1); y++ {
		for x := max(0, int(cx-r)); x < min(frameW, int(cx+r)+1); x++ {
			dark := 0
			for k := range 16 {
				dx := float64(x) + (float64(k%4)+0.5)/4 - cx
				dy := float64(y) + (float64(k/4)+0.5)/4 - cy
				u := (dx*cs + dy*sn + half) / module
				v := (-dx*sn + dy*cs + half) / module
				if u >= 0 && v >= 0 && int(u) < n && int(v) < n && sym.GrayAt(int(u), int(v)).Y < 128 {
					dark++
				}
			}
			fr[y*frameW+x] = paper + (ink-paper)*float64(dark)/16
		}
	}
	gaussBlur(fr, 0.8)
	g := &gray{w: frameW, h: frameH, pix: make([]byte, frameW*frameH)}
	for i, v := range fr {
		g.pix[i] = byte(min(255, max(0, math.Round(v+sigma*rng.NormFloat64()))))
	}
	return g
}

// TestLocateTexturedFaintSymbol locates DataMatrix symbols of 1.5–2.2-px modules at 25 %
// contrast, blurred (σ 0.8), under white noise of σ 15–19 levels: their cells' gradient
// energy stays under the locator's noise floor (1.7× the quiet cells'), so without the
// texture candidates (appendTextured) most of these frames have no matrix candidate on the
// symbol at all; every one must now have one, no larger than three times the symbol.
func TestLocateTexturedFaintSymbol(t *testing.T) {
	skipUnderRace(t)
	rng := rand.New(rand.NewPCG(34, 6))
	const frames = 12
	found := 0
	for k := range frames {
		module := 1.5 + 0.7*rng.Float64()
		angle := 2 * math.Pi * rng.Float64()
		cx, cy := 80+480*rng.Float64(), 80+320*rng.Float64()
		sigma := 15 + 4*rng.Float64()
		g := faintNoisyFrame(t, rng, randDigits(rng, 20), module, angle, cx, cy, 0.25, sigma)
		ok := false
		for _, r := range locate(g) {
			side := 2 * max(r.halfU, r.halfV)
			if !r.linear && math.Hypot(r.cx-cx, r.cy-cy) < side/2 && side < 3*22*module {
				ok = true
				break
			}
		}
		if ok {
			found++
		} else {
			t.Logf("frame %d (module %.2f px, σ %.1f, at %.0f,%.0f): no matrix candidate on the symbol", k, module, sigma, cx, cy)
		}
	}
	if found < frames {
		t.Errorf("%d of %d faint symbols under strong noise located", found, frames)
	}
}

// TestLocateTexturedNoiseAlone proposes no texture candidate on frames of white noise alone
// (σ 8–20 levels, no symbol) nor on a noise-free frame: the clusters need a cell 3.2× the
// noise level, which 64 blocks of noise do not reach.
func TestLocateTexturedNoiseAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 7))
	for k := range 10 {
		sigma := 8 + 12*rng.Float64()
		if k == 9 {
			sigma = 0
		}
		g := &gray{w: frameW, h: frameH, pix: make([]byte, frameW*frameH)}
		for i := range g.pix {
			g.pix[i] = byte(min(255, max(0, math.Round(180+sigma*rng.NormFloat64()))))
		}
		cells, cw, ch := cellStats(g)
		markActive(cells)
		if rs := appendTextured(nil, g, cells, cw, ch); len(rs) > 0 {
			t.Errorf("noise σ %.1f: %d texture candidates, the first at %.0f,%.0f", sigma, len(rs), rs[0].cx, rs[0].cy)
		}
	}
}

// TestLocateTexturedReads reads two DataMatrix symbols at 29 and 28 % contrast under the
// third generator's strongest noise (×10.0 and ×9.8 the base, σ about 18 levels; 2.1 and
// 1.9-px modules), 192-px crops of tuning frames drawn with frame.sh's GEN3_CONTRAST=25,30
// GEN3_NOISE=8.5,10 GEN3_MODULE=1.5,2.2 (class noise, seeds 0 and 44). Their crops'
// neighbouring pixels correlate under the 0.35 that tells sensor noise (minNeighbourCorr),
// so without the texture that marks their regions as print (region.textured) neither was
// cropped and neither read; each must now read its text.
func TestLocateTexturedReads(t *testing.T) {
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-faint"))
}

// TestSmoothedTexturedReads reads a DataMatrix symbol of 2.1-px modules at 29 % contrast
// under noise ×9.6 the base (a 320-px crop of the faint tuning draw's seed 22, as
// TestLocateTexturedReads's): its textured candidate reads only smoothed over 5×5 (about a
// module of its crop) — the smoothed pass's 7×7 box blurs the module grid at that scale,
// and without the 5×5 try for textured candidates it did not read.
func TestSmoothedTexturedReads(t *testing.T) {
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-faint-smooth"))
}
