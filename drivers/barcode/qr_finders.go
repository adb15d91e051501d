package barcode

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/makiuchi-d/gozxing"
)

// QR finder patterns found by correlation with their template rather than by runs. At
// modules of 1.5–1.75 px under strong noise, low-quality JPEG or blur at 25–50 % contrast,
// a finder's 1:1:3:1:1 runs break on every row (gozxing's search, and so our sampler that
// starts from it, finds two finders or none), while the pattern's areas keep their means:
// the 7×7 dark square, its 5×5 light ring and the 3×3 dark centre. The Pearson correlation
// of the crop with that template over a 7×7-module window (box sums over an integral image:
// a few operations a pixel and scale) peaks at each finder whatever the runs; three peaks in
// an L (two sides alike and square) give the finders' centres, read as gozxing's would be
// (qrReadFinders: the affine grid, our sampler, the searched corner, soft decisions).

// qrCorrMin is the correlation (of the darkness with the finder's template) a peak must
// reach: the finders of the gen3 frames at 30–48 % contrast under noise and JPEG measure
// 0.63–0.78, data modules and clutter mostly under 0.5 (the L, the fixed modules' match and
// Reed–Solomon stand behind a false peak).
const qrCorrMin = 0.45

// qrCorrMinLeft is the time a frame's budget must have left for decodeQRCorr to start: the
// search takes about 3 ms of CPU and the reads from one triple 5–15 ms, the fit more (its
// steps look at the budget between them).
const qrCorrMinLeft = 15 * time.Millisecond

// qrCorrScaleStep is the ratio between the template's successive module sizes: at the
// nearest step the finders of the tuning frames this was written on (1.57–1.65-px modules,
// 3.4–4.4 crop pixels) peak at 0.63–0.78, the rest of their crops under 0.5.
const qrCorrScaleStep = 1.12

// qrCorrTriples is the number of L-shaped triples of peaks read, best first, and
// qrCorrFits the number of them also read by fitting (60–200 ms each on a symbol-like
// candidate: the fitted pass's refinement and blurs).
const qrCorrTriples, qrCorrFits = 3, 1

// qrCorrPeak is a correlation peak: a finder's centre (crop pixels, gozxing's convention)
// at a module of m pixels.
type qrCorrPeak struct {
	x, y, m, r float64
}

// integral holds the running sums of a crop's levels and squared levels, (w+1)×(h+1).
type integral struct {
	w, h   int
	s, ss  []float64
	stride int
}

func newIntegral(g *gray) integral {
	st := g.w + 1
	in := integral{w: g.w, h: g.h, s: make([]float64, st*(g.h+1)), ss: make([]float64, st*(g.h+1)), stride: st}
	for y := range g.h {
		var rs, rss float64
		for x := range g.w {
			v := float64(g.pix[y*g.w+x])
			rs += v
			rss += v * v
			in.s[(y+1)*st+x+1] = in.s[y*st+x+1] + rs
			in.ss[(y+1)*st+x+1] = in.ss[y*st+x+1] + rss
		}
	}
	return in
}

// box returns the sum of a over the pixels [x0, x1) × [y0, y1).
func (in *integral) box(a []float64, x0, y0, x1, y1 int) float64 {
	st := in.stride
	return a[y1*st+x1] - a[y0*st+x1] - a[y1*st+x0] + a[y0*st+x0]
}

// qrCorrFinders returns the correlation peaks of g with the finder template at modules
// from mLo to mHi crop pixels (steps of qrCorrScaleStep), strongest first, at most one within
// three modules of another.
func qrCorrFinders(g *gray, mLo, mHi float64) []qrCorrPeak {
	in := newIntegral(g)
	var peaks []qrCorrPeak
	rmap := make([]float64, g.w*g.h)
	for m := mLo; m <= mHi*1.0001; m *= qrCorrScaleStep {
		h7, h5, h3 := int(math.Round(3.5*m)), int(math.Round(2.5*m)), int(math.Round(1.5*m))
		if h3 < 1 || 2*h7+1 > min(g.w, g.h) {
			continue
		}
		// Every other pixel once a module spans three: the peak is as wide as the
		// centre's 3×3 modules.
		st := 1
		if m >= 3 {
			st = 2
		}
		n7, n5, n3 := float64((2*h7+1)*(2*h7+1)), float64((2*h5+1)*(2*h5+1)), float64((2*h3+1)*(2*h3+1))
		nd := n7 - n5 + n3 // the template's dark pixels
		p := nd / n7
		clear(rmap)
		for y := h7; y < g.h-h7; y += st {
			for x := h7; x < g.w-h7; x += st {
				s7 := in.box(in.s, x-h7, y-h7, x+h7+1, y+h7+1)
				ss7 := in.box(in.ss, x-h7, y-h7, x+h7+1, y+h7+1)
				mean := s7 / n7
				vi := ss7/n7 - mean*mean
				if vi < 4 { // flat paper
					continue
				}
				sd := s7 - in.box(in.s, x-h5, y-h5, x+h5+1, y+h5+1) + in.box(in.s, x-h3, y-h3, x+h3+1, y+h3+1)
				cov := sd/n7 - p*mean
				// Darkness correlates with the template: the negative of the levels'.
				rmap[y*g.w+x] = -cov / math.Sqrt(p*(1-p)*vi)
			}
		}
		// Local maxima over ±1.5 modules, sub-pixel by a parabola through each axis.
		for y := h7 + st; y < g.h-h7-st; y += st {
			for x := h7 + st; x < g.w-h7-st; x += st {
				r := rmap[y*g.w+x]
				if r < qrCorrMin || !localMax(rmap, g.w, g.h, x, y, h3) {
					continue
				}
				fx := float64(st) * parabola(rmap[y*g.w+x-st], r, rmap[y*g.w+x+st])
				fy := float64(st) * parabola(rmap[(y-st)*g.w+x], r, rmap[(y+st)*g.w+x])
				peaks = append(peaks, qrCorrPeak{x: float64(x) + fx + 0.5, y: float64(y) + fy + 0.5, m: m, r: r})
			}
		}
	}
	slices.SortFunc(peaks, func(a, b qrCorrPeak) int { return cmp.Compare(b.r, a.r) })
	// One peak per place: the strongest scale's.
	var out []qrCorrPeak
	for _, p := range peaks {
		near := false
		for _, q := range out {
			if math.Hypot(p.x-q.x, p.y-q.y) < 3*min(p.m, q.m) {
				near = true
				break
			}
		}
		if !near {
			out = append(out, p)
		}
		if len(out) == 12 {
			break
		}
	}
	return out
}

// localMax reports whether rmap's value at (x, y) is the largest within ±rad.
func localMax(rmap []float64, w, h, x, y, rad int) bool {
	r := rmap[y*w+x]
	for j := max(0, y-rad); j <= min(h-1, y+rad); j++ {
		for i := max(0, x-rad); i <= min(w-1, x+rad); i++ {
			if v := rmap[j*w+i]; v > r || v == r && j*w+i < y*w+x {
				return false
			}
		}
	}
	return true
}

// parabola returns the offset of the vertex of the parabola through (−1, a), (0, b), (1, c)
// (within ±½).
func parabola(a, b, c float64) float64 {
	den := a - 2*b + c
	if den >= 0 {
		return 0
	}
	return max(-0.5, min(0.5, 0.5*(a-c)/den))
}

// qrCorrTriple is three peaks in an L: the corner's (top left) and the two others.
type qrCorrTriple struct {
	tl, tr, bl qrCorrPeak
	score      float64
}

// qrCorrLs returns the triples of peaks that lie as a QR symbol's finders: two sides from the
// corner alike within 15 % and at 90° within 12°, modules alike within a third, the sides 14
// to 50 modules (versions 1–8); best (sum of correlations) first.
func qrCorrLs(peaks []qrCorrPeak) []qrCorrTriple {
	var out []qrCorrTriple
	for a := range peaks {
		for b := range peaks {
			for c := b + 1; c < len(peaks); c++ {
				if a == b || a == c {
					continue
				}
				pa, pb, pc := peaks[a], peaks[b], peaks[c]
				ms := []float64{pa.m, pb.m, pc.m}
				if slices.Max(ms) > 1.35*slices.Min(ms) {
					continue
				}
				v1x, v1y, v2x, v2y := pb.x-pa.x, pb.y-pa.y, pc.x-pa.x, pc.y-pa.y
				d1, d2 := math.Hypot(v1x, v1y), math.Hypot(v2x, v2y)
				if d1 > 1.15*d2 || d2 > 1.15*d1 {
					continue
				}
				cos := (v1x*v2x + v1y*v2y) / (d1 * d2)
				if math.Abs(cos) > math.Sin(12*math.Pi/180) {
					continue
				}
				m := (pa.m + pb.m + pc.m) / 3
				if side := (d1 + d2) / 2 / m; side < 12 || side > 52 {
					continue
				}
				t := qrCorrTriple{tl: pa, tr: pb, bl: pc, score: pa.r + pb.r + pc.r}
				if v1x*v2y-v1y*v2x < 0 {
					t.tr, t.bl = pc, pb
				}
				out = append(out, t)
			}
		}
	}
	slices.SortFunc(out, func(a, b qrCorrTriple) int { return cmp.Compare(b.score, a.score) })
	return out
}

// decodeQRCorr reads candidate r of g (its upright crop c, half side s, k crop pixels a
// frame pixel) as a QR symbol whose finders are found by correlation (above) on the crop
// smoothed over 3×3 pixels: modules of 1.2 to 3.5 frame pixels (larger ones keep their runs),
// at most a 21-module symbol over nine tenths of the crop. The best qrCorrTriples L-shaped
// triples are each read through qrReadFinders (gozxing's sampler and ours on the smoothed
// crop), the best qrCorrFits of them then, for versions 1–4, by fitting (qrFitFinders).
func (d *Decoder) decodeQRCorr(g *gray, r region, c *gray, s, k float64) (Result, bool) {
	if d.opt.Formats&QRCode == 0 || d.expired() {
		return Result{}, false
	}
	// Under a budget, only with time left for the search and a read (a step refused, as
	// affords refuses one: the frame is given up unless a smaller step reads).
	if !d.deadline.IsZero() && d.deadline.Sub(d.now) < qrCorrMinLeft {
		d.gaveUp = true
		return Result{}, false
	}
	sm := c.boxMean(1)
	sm.stretch()
	ls := qrCorrLs(qrCorrFinders(&sm, 1.2*k, min(3.5*k, 0.9*float64(sm.w)/21)))
	if len(ls) == 0 {
		return Result{}, false
	}
	bmp, err := bitmap(&sm)
	if err != nil {
		return Result{}, false
	}
	bits, err := bmp.GetBlackMatrix()
	if err != nil {
		return Result{}, false
	}
	for i, t := range ls {
		if i == qrCorrTriples || d.expired() {
			break
		}
		pt := func(p qrCorrPeak) gozxing.ResultPoint { return gozxing.NewResultPoint(p.x, p.y) }
		// The module from the sides (the template's scale steps by a tenth): the sides'
		// length over the nearest version's finder distance.
		m := (t.tl.m + t.tr.m + t.bl.m) / 3
		side := (math.Hypot(t.tr.x-t.tl.x, t.tr.y-t.tl.y) + math.Hypot(t.bl.x-t.tl.x, t.bl.y-t.tl.y)) / 2
		dim := int(4*math.Round((side/m+7-17)/4) + 17)
		if res, ok := qrReadFinders(&sm, bits, pt(t.tl), pt(t.tr), pt(t.bl), side/float64(dim-7), false, d.qrGridRead, d.expired); ok {
			return res, true
		}
		// The fit's window is the symbol's (qrFitFinders): a small symbol in a candidate
		// that took in clutter beside it (rings, a line of text) is fitted as well.
		small := fitSmall(r) || side/k*float64(dim+2*qrFitQuiet)/float64(dim-7) <= fitMaxSide
		if i < qrCorrFits && !d.noFit && small && !d.expired() {
			if res, ok := d.qrFitFinders(g, r, s, k, t, dim); ok {
				return res, true
			}
		}
	}
	return Result{}, false
}

// qrFitFinders reads the QR symbol whose finders are triple t on the upright crop of
// candidate r (half side s, k crop pixels a frame pixel) through the fitted pass's least
// squares (matrix_fit.go): the finders give the grid's pose (the symbol's centre halfway
// between the top-right and bottom-left finders, the pitch along each side), which is
// climbed finely on the fixed modules and refined on the fit's residual, where the fitted
// pass's own start (the ink's centroid and spread) is thrown off by JPEG's blocks or clutter
// beside the symbol. The template's module (steps of 12 %) tells the version only to within
// one: of dim and the versions of versions 1–4 beside it, the one whose fixed modules (the
// timing patterns, the alignment pattern) match best is read.
func (d *Decoder) qrFitFinders(g *gray, r region, s, k float64, t qrCorrTriple, dim int) (Result, bool) {
	cos, sin := math.Cos(r.angle), math.Sin(r.angle)
	ox, oy := r.cx-s*(cos-sin), r.cy-s*(sin+cos)
	frame := func(p qrCorrPeak) (float64, float64) {
		return ox + (p.x*cos-p.y*sin)/k, oy + (p.x*sin+p.y*cos)/k
	}
	tlx, tly := frame(t.tl)
	trx, try := frame(t.tr)
	blx, bly := frame(t.bl)
	cx, cy := (trx+blx)/2, (try+bly)/2
	var win fitWin
	best := fitHyp{score: math.Inf(-1)}
	for _, n := range []int{dim, dim - 4, dim + 4} {
		if !slices.Contains(qrFitDims, n) {
			continue
		}
		e1x, e1y := (trx-tlx)/float64(n-7), (try-tly)/float64(n-7)
		e2x, e2y := (blx-tlx)/float64(n-7), (bly-tly)/float64(n-7)
		m1, m2 := math.Hypot(e1x, e1y), math.Hypot(e2x, e2y)
		if m1 < fitMinModule || m2 < fitMinModule || m1 > fitMaxModule || m2 > fitMaxModule {
			continue
		}
		if win.pix == nil {
			win = newFitWin(g, cx, cy, int(math.Ceil((float64(n)/2+qrFitQuiet+3)*max(m1, m2))))
		}
		pat := patternOf(qrFitKnown(n), n, (m1+m2)/2)
		h := fitHyp{n: n, p: fitPose{cx, cy, math.Atan2(e1y, e1x), m1, m2}}
		if h.p, h.score = fitClimb(&win, &pat, n, h.p, 2, fitRounds); h.score > best.score {
			best = h
		}
	}
	if best.score >= fitMinScore { // as the fitted pass's own hypotheses: clutter matches at 0.2–0.4
		if res, ok := d.readFitted(&win, best, true, true); ok || d.expired() {
			return res, ok
		}
	}
	if best.score < d.perspNear(&win) || !d.deadline.IsZero() && (best.score < fitMinScore || d.deadline.Sub(d.now) < fitPerspMinLeft) {
		return Result{}, false // under a budget as in readCandidate
	}
	return d.readPersp(&win, best, QRCode)
}
