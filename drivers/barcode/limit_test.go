//go:build !race

package barcode

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The readable limit under sensor noise (issue 34: "below that, say where the readable limit
// lies and how close to it we read"). The matched-filter bound: a reader that knew a module's
// place, the blur, the paper and ink levels and every neighbouring module exactly could do no
// better than weigh the pixels by the module's footprint, and its decision then errs with
// probability Q(s), s = (ΔL/2)·‖h‖/σn: ΔL the ink's depth under the paper (levels), h the
// module's footprint over the pixels (the third generator's: its EWA triangle filter, a cone
// of one pixel's radius, then its Gaussian blur), ΔL under the paper as the uneven light
// leaves it at the label (lightf=), σn the sensor noise (ImageMagick's Gaussian
// noise at -attenuate a: σ = 19.8·a levels, measured; 8-bit rounding added). No reader of a
// module, ours included, beats it. A symbol then reads when Reed–Solomon corrects its
// codewords: "by confidence" erases the s least sure codewords (the lowest |z| of their 8
// modules) for the best s, 2e + s ≤ ecc; "genie" erases exactly the wrong ones (e ≤ ecc), a
// bound no bounded-distance decoder reaches. Perspective is left out (and the light where the
// text file has no lightf=), so the bound is generous on frames that have it.
//
// JPEG (frame.sh's jpegmf=, measured per frame): its error at the label, passed through a
// module's footprint, counts as noise added in quadrature, σ² = σn² + jpegmf², jpegmf being
// the RMS of the white noise that would put as much power at the matched filter as JPEG's
// error does. White noise of JPEG's RMS at the pixels (jpegrms=) would overcount it about
// threefold: JPEG's error is mostly high frequencies, which a module's footprint passes
// little (measured on tuning frames' stages, limit_jpeg_test.go). JPEG's error is neither
// Gaussian nor independent from module to module nor independent of the symbol, so where a
// frame has JPEG the figure is an estimate, not a bound; without JPEG it is the bound above.

// limitSymbol is a symbol's Reed–Solomon shape: codewords, of which ecc are for correction.
type limitSymbol struct {
	name           string
	codewords, ecc int
}

var (
	limitQR = limitSymbol{"QR v2-M", 44, 16}          // gen3: zint --vers=2 --secure=2
	limitDM = limitSymbol{"DataMatrix 18×18", 32, 14} // gen3: zint --square on its 25 characters
)

// limitCase is a frame's parameters as far as the bound uses them.
type limitCase struct {
	module, blur float64 // px; Gaussian σ (motion in quadrature)
	contrast     float64 // %
	paper        float64 // % of white
	noise        float64 // frame.sh's noise (× a tenth: -attenuate)
	jpeg         float64 // JPEG's error at a module's matched filter (levels, white-equivalent; 0: none)
}

// limitCaseOf is the bound's case for a third-generator frame (p, its text line info).
func limitCaseOf(p gen3Params, info string) limitCase {
	return limitCase{module: p.narrow, blur: p.sigma(), contrast: p.contrast, paper: gen3Paper(info), noise: p.noise, jpeg: p.jpegFilterRMS()}
}

// limitJPEGShare is the share of JPEG's error power at the pixels that reaches a module's
// matched filter, for text files with jpegrms= but no jpegmf=: the median measured on the
// DataMatrix tuning stages (TestJPEGErrorModel; its 10–90 % range 0.22–0.54).
const limitJPEGShare = 0.35

// jpegFilterRMS is JPEG's error at a module's matched filter (grey levels, as white noise of
// that σ would put there): frame.sh's jpegmf=, or from jpegrms= by limitJPEGShare; 0 without
// JPEG or in a text file older than either.
func (p gen3Params) jpegFilterRMS() float64 {
	switch {
	case !p.jpeg:
		return 0
	case p.jpegMF > 0:
		return p.jpegMF
	}
	return math.Sqrt(limitJPEGShare) * p.jpegRMS
}

// footprintNorms returns ‖h‖ of a module of side m px for n random placements (angle and
// sub-pixel phase), the footprint being the module's indicator through the cone of radius
// one pixel and a Gaussian of σ blur, integrated on a 1/6-pixel lattice.
func footprintNorms(rng *rand.Rand, m, blur float64, n int) []float64 {
	cone, sum := footprintCone()
	out := make([]float64, n)
	for k := range out {
		a := rng.Float64() * math.Pi / 2
		cx, cy := rng.Float64(), rng.Float64()
		var norm2 float64
		for _, h := range footprint(cone, sum, m, blur, a, cx, cy) {
			norm2 += h * h
		}
		out[k] = math.Sqrt(norm2)
	}
	return out
}

// coneTap is a lattice point of the generator's triangle filter around a pixel centre.
type coneTap struct{ dx, dy, w float64 }

// footprintCone is the cone's weights on the 1/6-pixel lattice around a pixel centre and
// their sum (footprint divides by it).
func footprintCone() ([]coneTap, float64) {
	const step = 1.0 / 6
	var cone []coneTap
	var sum float64
	for y := -1 + step/2; y < 1; y += step {
		for x := -1 + step/2; x < 1; x += step {
			if w := 1 - math.Hypot(x, y); w > 0 {
				cone = append(cone, coneTap{x, y, w})
				sum += w
			}
		}
	}
	return cone, sum
}

// footprintReach is how many pixels a module's footprint reaches from its centre's pixel.
func footprintReach(m, blur float64) int { return int(math.Ceil(m/math.Sqrt2 + 1 + 3*blur)) }

// footprint returns a module's footprint h over the pixels (py, px) from −reach to reach+1
// (row by row, footprintReach): the module of side m px turned by a (radians), its centre
// at (cx, cy) in pixel 0's square, through the cone and a Gaussian of σ blur.
func footprint(cone []coneTap, sum, m, blur, a, cx, cy float64) []float64 {
	edge := func(u float64) float64 { // the blurred indicator of |u| ≤ m/2
		if blur < 0.02 {
			if math.Abs(u) <= m/2 {
				return 1
			}
			return 0
		}
		return 0.5 * (math.Erf((u+m/2)/(blur*math.Sqrt2)) - math.Erf((u-m/2)/(blur*math.Sqrt2)))
	}
	c, s := math.Cos(a), math.Sin(a)
	reach := footprintReach(m, blur)
	out := make([]float64, 0, (2*reach+2)*(2*reach+2))
	for py := -reach; py <= reach+1; py++ {
		for px := -reach; px <= reach+1; px++ {
			var h float64
			for _, p := range cone {
				x, y := float64(px)+p.dx-cx, float64(py)+p.dy-cy
				u, v := c*x+s*y, -s*x+c*y
				h += p.w * edge(u) * edge(v)
			}
			out = append(out, h/sum)
		}
	}
	return out
}

// limitRead returns the share of trials in which the symbol reads by confidence and with
// the genie's erasures, under the matched-filter bound at c.
func limitRead(rng *rand.Rand, sym limitSymbol, c limitCase, trials int) (byConf, genie float64) {
	norms := footprintNorms(rng, c.module, c.blur, 150)
	paper := 255 * c.paper / 100
	half := paper * c.contrast / 100 / 2
	sn := limitSensorSigma(c.noise)
	if c.jpeg > 0 {
		sn = math.Hypot(sn, c.jpeg)
	}
	type cw struct {
		conf  float64
		wrong bool
	}
	cws := make([]cw, sym.codewords)
	okConf, okGenie := 0, 0
	for range trials {
		wrongs := 0
		for i := range cws {
			cws[i] = cw{conf: math.Inf(1)}
			for range 8 {
				s := half * norms[rng.IntN(len(norms))] / sn
				z := s + rng.NormFloat64() // the true side is +
				cws[i].conf = min(cws[i].conf, math.Abs(z))
				cws[i].wrong = cws[i].wrong || z < 0
			}
			if cws[i].wrong {
				wrongs++
			}
		}
		if wrongs <= sym.ecc {
			okGenie++
		}
		slices.SortFunc(cws, func(a, b cw) int { return cmp.Compare(a.conf, b.conf) })
		e := wrongs
		for s := 0; s <= sym.ecc; s++ { // erase the s least sure
			if s > 0 && cws[s-1].wrong {
				e--
			}
			if 2*e+s <= sym.ecc {
				okConf++
				break
			}
		}
	}
	return float64(okConf) / float64(trials), float64(okGenie) / float64(trials)
}

// limitSensorSigma is the sensor noise's σ (grey levels) at frame.sh's noise: ImageMagick's
// Gaussian noise at -attenuate noise/10, 19.8 levels a unit (measured), and 8-bit rounding.
func limitSensorSigma(noise float64) float64 { return math.Hypot(19.8*noise/10, 1/math.Sqrt(12)) }

func TestReadableLimitModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Clean symbols read; a symbol whose modules are a coin toss does not.
	if conf, genie := limitRead(rng, limitQR, limitCase{module: 2, contrast: 80, paper: 80, noise: 2}, 200); conf != 1 || genie != 1 {
		t.Errorf("clean QR: bound reads %.2f / %.2f, want 1", conf, genie)
	}
	if conf, genie := limitRead(rng, limitDM, limitCase{module: 1.5, contrast: 5, paper: 80, noise: 10}, 200); conf != 0 || genie != 0 {
		t.Errorf("DataMatrix at 5 %% under noise ×10: bound reads %.2f / %.2f, want 0", conf, genie)
	}
	// A module's footprint: without blur or filter its norm would be its side; the cone
	// spreads it, so the norm falls below that and grows with the module.
	n15 := footprintNorms(rng, 1.5, 0, 50)
	n3 := footprintNorms(rng, 3, 0, 50)
	if m15, m3 := limitMean(n15), limitMean(n3); !(m15 < 1.5 && m3 > 1.7*m15) {
		t.Errorf("footprint norms: 1.5 px %.2f, 3 px %.2f", m15, m3)
	}
}

// TestBeyondLimit places frames of the third generator against the limit: under noise ×9.9
// at 31 % a 1.65-px QR symbol's modules are a coin toss too often for any reader (tuning
// noise 13); at ×5.6 and 48 %, or at the base's noise, far inside.
func TestBeyondLimit(t *testing.T) {
	for _, c := range []struct {
		f      Format
		info   string
		beyond bool
	}{
		{QRCode, "sym=qr seed=13 class=noise module=1.6541 angle=314.1650 blur=0.3618 contrast=30.6304 paper=78.4893 persp=0 motion=0 light=0 jpeg=0 noise=9.9376 clutter=0 narrow=1.6541 mblur=0 quality=0", true},
		{QRCode, "sym=qr seed=1 class=mixed module=1.65 angle=334 blur=0.1 contrast=48 paper=80 noise=5.6 narrow=1.65 mblur=0.68", false},
		{DataMatrix, "sym=dm seed=5 class=plain module=1.5 angle=10 blur=0.3 contrast=25 paper=75 noise=2 narrow=1.5 mblur=0", false},
		{DataMatrix, "sym=dm seed=7 class=noise module=1.64 angle=293 blur=0.35 contrast=25 paper=80 noise=9.8 narrow=1.64 mblur=0", true},
		// Held-out mixed 1000058's parameters, its light's factor at the label checked on the frame
		// (0.668): unlit it would be within; lit, its ink is 40 levels deep under noise σ 20.
		{DataMatrix, "sym=dm seed=58 class=mixed module=2.006 angle=285 blur=0.09 contrast=32.06 paper=74.13 light=1 noise=9.96 narrow=2.006 mblur=0", false},
		{DataMatrix, "sym=dm seed=58 class=mixed module=2.006 angle=285 blur=0.09 contrast=32.06 paper=74.13 light=1 noise=9.96 narrow=2.006 mblur=0 lightf=0.668", true},
		// Tuning mixed 315: lit, noise ×7.2, JPEG at quality 37; its JPEG error at the
		// filter (jpegmf 9.7 levels) takes the genie from 100 % to 99.3 %. Without the
		// measure (an older text file) it counts as it did.
		{DataMatrix, "sym=dm seed=315 class=mixed module=1.6821 angle=329.7985 blur=0.0833 contrast=37.0449 paper=73.0685 persp=0 motion=0 light=1 jpeg=1 noise=7.1598 clutter=1 narrow=1.6821 mblur=0 quality=37 lightf=0.726574 jpegrms=13.898 jpegmf=9.662", true},
		{DataMatrix, "sym=dm seed=315 class=mixed module=1.6821 angle=329.7985 blur=0.0833 contrast=37.0449 paper=73.0685 persp=0 motion=0 light=1 jpeg=1 noise=7.1598 clutter=1 narrow=1.6821 mblur=0 quality=37 lightf=0.726574", false},
	} {
		p, err := parseGen3Params(c.info)
		if err != nil {
			t.Fatal(err)
		}
		if beyond, genie := beyondLimit(c.f, p, c.info); beyond != c.beyond {
			t.Errorf("%v %s: beyond the limit %v (genie %.3f), want %v", c.f, p, beyond, genie, c.beyond)
		}
	}
}

// TestLimitJPEG: JPEG's error makes the bound stricter by its measure at the matched filter
// (jpegmf=, or jpegrms= by the measured share), and leaves frames without JPEG as they were.
func TestLimitJPEG(t *testing.T) {
	c := limitCase{module: 1.6, blur: 0.2, contrast: 27, paper: 75, noise: 7}
	_, g0 := limitRead(rand.New(rand.NewPCG(7, 8)), limitDM, c, 2000)
	c.jpeg = 10
	_, g1 := limitRead(rand.New(rand.NewPCG(7, 8)), limitDM, c, 2000)
	if !(g1 < g0 && g1 < 0.995) {
		t.Errorf("DataMatrix 1.6 px at 27 %% under noise ×7: genie %.3f, with JPEG's error 10 at the filter %.3f", g0, g1)
	}
	for _, c := range []struct {
		info string
		want float64
	}{
		{"module=2 jpeg=1 quality=40 jpegrms=12.5 jpegmf=7.25", 7.25},
		{"module=2 jpeg=1 quality=40 jpegrms=12.5", math.Sqrt(limitJPEGShare) * 12.5},
		{"module=2 jpeg=1 quality=40", 0},
		{"module=2 jpeg=0 quality=0 jpegrms=0 jpegmf=0", 0},
		{"module=2 jpeg=0 jpegrms=3 jpegmf=2", 0}, // no JPEG step: nothing to count
	} {
		p, err := parseGen3Params(c.info)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.jpegFilterRMS(); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%q: JPEG's error at the filter %.4f, want %.4f", c.info, got, c.want)
		}
	}
	// Frames without JPEG: the same figure with or without the new fields.
	for _, info := range []string{
		"sym=dm seed=7 class=noise module=1.64 angle=293 blur=0.35 contrast=25 paper=80 noise=9.8 narrow=1.64 mblur=0",
		"sym=qr seed=13 class=noise module=1.6541 angle=314.1650 blur=0.3618 contrast=30.6304 paper=78.4893 persp=0 motion=0 light=0 jpeg=0 noise=9.9376 clutter=0 narrow=1.6541 mblur=0 quality=0",
	} {
		f := DataMatrix
		if strings.HasPrefix(info, "sym=qr") {
			f = QRCode
		}
		p0, _ := parseGen3Params(info)
		p1, _ := parseGen3Params(info + " lightf=1 jpegrms=0 jpegmf=0")
		b0, g0 := beyondLimit(f, p0, info)
		b1, g1 := beyondLimit(f, p1, info+" lightf=1 jpegrms=0 jpegmf=0")
		if b0 != b1 || g0 != g1 {
			t.Errorf("%s: %v %.4f, with jpegrms=0 jpegmf=0 %v %.4f", info, b0, g0, b1, g1)
		}
	}
	// At the base's noise without JPEG the bound is not computed; with JPEG it is.
	base := "sym=dm seed=3 class=jpeg module=1.6 angle=10 blur=0.1 contrast=30 paper=80 noise=2 narrow=1.6 mblur=0"
	p, _ := parseGen3Params(base + " jpeg=0")
	pj, _ := parseGen3Params(base + " jpeg=1 quality=30 jpegrms=14 jpegmf=9")
	if limitComputed(p) || !limitComputed(pj) {
		t.Errorf("computed without JPEG %v, with %v; want false, true", limitComputed(p), limitComputed(pj))
	}
}

func limitMean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// TestReadableLimit (BARCODE_LIMIT=1) prints the bound's read rate over a grid of module ×
// contrast × noise, then, with BARCODE_LIMIT_DIR=DIR (a gen3 cache), every class frame of
// qr/ and dm/ with noise above the base or JPEG: the bound at its parameters beside whether
// ours reads it, binned by the bound.
func TestReadableLimit(t *testing.T) {
	if os.Getenv("BARCODE_LIMIT") == "" {
		t.Skip("BARCODE_LIMIT unset: the readable limit is computed on request")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sym := range limitSymbols() {
		var b strings.Builder
		fmt.Fprintf(&b, "%s, paper 80 %%, σ 0.3 px: bound by confidence (genie)\n| module | contrast | noise 4 | 6 | 8 | 10 |\n", sym.name)
		for _, m := range []float64{1.5, 1.75, 2, 2.5} {
			for _, ct := range []float64{25, 35, 50} {
				fmt.Fprintf(&b, "| %.2f | %.0f |", m, ct)
				for _, nz := range []float64{4, 6, 8, 10} {
					conf, genie := limitRead(rng, sym, limitCase{module: m, blur: 0.3, contrast: ct, paper: 80, noise: nz}, 1000)
					fmt.Fprintf(&b, " %.0f (%.0f) |", 100*conf, 100*genie)
				}
				b.WriteString("\n")
			}
		}
		t.Log(b.String())
	}
	if dir := os.Getenv("BARCODE_LIMIT_DIR"); dir != "" {
		limitFrames(t, rng, dir)
	}
}

// limitFrames decodes every class frame under dir/qr and dir/dm whose noise is above the
// base or that has JPEG (limitComputed) and logs ours against the bound, binned by the
// bound's read rate by confidence.
func limitFrames(t *testing.T, rng *rand.Rand, dir string) {
	bins := []float64{0.99, 0.9, 0.5, 0}
	for _, f := range []Format{QRCode, DataMatrix} {
		sym := limitQR
		if f == DataMatrix {
			sym = limitDM
		}
		txts, _ := filepath.Glob(filepath.Join(dir, gen3Sym(f), "*-*.txt"))
		d := NewDecoder(Options{Formats: f})
		var read, n [2][]int          // tuning, held out
		var expect, genies [2]float64 // the bound's expected reads (by confidence, genie)
		for h := range 2 {
			read[h], n[h] = make([]int, len(bins)), make([]int, len(bins))
		}
		for _, txt := range txts {
			sf, p, _, ok := limitFrame(t, txt)
			if !ok || !limitComputed(p) || p.contrast < 25 || p.narrow < 1.5 || p.sigma() > 0.8 {
				continue
			}
			conf, genie := limitRead(rng, sym, limitCaseOf(p, sf.info), 400)
			r, err := d.Decode(sf.img)
			ours := err == nil && r.Text == sf.text
			k := slices.IndexFunc(bins, func(lo float64) bool { return conf >= lo })
			h := b2i(p.seed >= gen3HeldOut)
			n[h][k]++
			expect[h] += conf
			genies[h] += genie
			read[h][k] += b2i(ours)
			if !ours || conf < 0.9 {
				t.Logf("%v %s: bound %.2f (genie %.2f), ours %v", f, p, conf, genie, ours)
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%v, frames in the envelope with noise above the base or JPEG: ours by the bound's read rate\n| bound | tuning | held out |\n", f)
		for i, lo := range bins {
			fmt.Fprintf(&b, "| ≥ %.0f %% | %d / %d | %d / %d |\n", 100*lo, read[0][i], n[0][i], read[1][i], n[1][i])
		}
		for h, name := range []string{"tuning", "held out"} {
			fmt.Fprintf(&b, "%s: ours %d of %d, the bound expects %.1f by confidence, %.1f with the genie\n",
				name, limitSum(read[h]), limitSum(n[h]), expect[h], genies[h])
		}
		t.Log(b.String())
	}
}

func limitSum(x []int) int {
	s := 0
	for _, v := range x {
		s += v
	}
	return s
}

// limitFrame loads a gen3 class frame's text file and image; ok is false for sweep frames and
// files that are not class frames.
func limitFrame(t *testing.T, txt string) (sf sourceFrame, p gen3Params, paper float64, ok bool) {
	meta, err := os.ReadFile(txt)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(strings.TrimSpace(string(meta)), "\n", 2)
	if len(lines) < 2 || !strings.Contains(lines[1], "class=") || strings.Contains(lines[1], "class=sweep") {
		return sf, p, 0, false
	}
	if p, err = parseGen3Params(lines[1]); err != nil {
		return sf, p, 0, false
	}
	paper = gen3Paper(lines[1])
	base := strings.TrimSuffix(txt, ".txt")
	for _, e := range []string{"png", "jpg"} {
		if _, err := os.Stat(base + "." + e); err == nil {
			class, _, _ := strings.Cut(filepath.Base(base), "-")
			if sf, err = gen3Load(txt, base+"."+e, e, class); err != nil {
				t.Fatal(err)
			}
			return sf, p, paper, paper > 0
		}
	}
	return sf, p, 0, false
}

// limitSymbols are the symbols of the grid: none with BARCODE_LIMIT=frames (the frames alone).
func limitSymbols() []limitSymbol {
	if os.Getenv("BARCODE_LIMIT") == "frames" {
		return nil
	}
	return []limitSymbol{limitQR, limitDM}
}

// beyondLimit reports whether a third-generator frame of f (its parameters p, its text line
// info) lies beyond the readable limit: even the genie's bound reads such a frame less than
// 99.5 % of the time, so no reader meets issue 34's goal there (with JPEG: the genie's
// estimate). Only frames whose noise is above the base or that have JPEG are computed: at the
// base's noise every frame in the envelope is far inside (the grid above). genie is the
// bound's read rate (1 when not computed).
func beyondLimit(f Format, p gen3Params, info string) (beyond bool, genie float64) {
	if !limitComputed(p) || (f != QRCode && f != DataMatrix) {
		return false, 1
	}
	sym := limitQR
	if f == DataMatrix {
		sym = limitDM
	}
	rng := rand.New(rand.NewPCG(uint64(p.seed), uint64(f)))
	_, genie = limitRead(rng, sym, limitCaseOf(p, info), 2000)
	return genie < 0.995, genie
}

// limitComputed reports whether the bound is computed for a frame: noise above the base, or
// JPEG's error measured.
func limitComputed(p gen3Params) bool { return p.noise > 2 || p.jpegFilterRMS() > 0 }

// gen3Paper is a frame's paper level (%) at its label from its text line: paper= (80 when
// it has none) times the uneven light's factor there, lightf= (frame.sh since the readable
// limit; 1 when it has none, so that an older text file's lit frame counts as unlit: the
// bound is then generous to it). The light scales the ink's depth; the noise comes after.
func gen3Paper(info string) float64 {
	paper, light := 80.0, 1.0
	for _, kv := range strings.Fields(info) {
		k, v, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(v, 64)
		switch {
		case err != nil:
		case k == "paper":
			paper = x
		case k == "lightf" && x > 0 && x <= 1:
			light = x
		}
	}
	return paper * light
}
