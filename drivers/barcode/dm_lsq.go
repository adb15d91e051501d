package barcode

import (
	"cmp"
	"math"
	"slices"
)

// Least-squares reads of our DataMatrix reader's hypotheses, when every other step of a frame
// (the passes, the halved and turned scans, the full-frame fallback) read nothing. Under JPEG
// at quality 30–70 with sensor noise and uneven light, a symbol of 1.5–2-px modules whose
// outline and size our reader finds samples 18–60 of its 324 modules wrong at the modules'
// centres at every threshold: each centre sees a third or more of its neighbours' ink.
// Fitted by least squares on the same grid (matrix_fit_ls.go: the modules blurred, the paper
// and the contrast from the fixed modules, the sure modules fixed round by round and the
// others solved again: a module's estimate weighs the pixels by its blurred footprint with
// its neighbours' spill taken out), the same symbols sample 3–26 wrong, and
// Chase's search over the least sure bits reads many of them. Each hypothesis our reader
// sampled and did not read (dmReadFits) is kept with its grids as fitted and as polished, and
// so is each outline it looked at: where an outline's timing sides are smeared past the
// timing gate (dmTimingScore), its best sizes by the blurred fixed pattern's match (the
// fitted pass's) are read the same way. They run last, within the frame's budget, so a frame
// that reads before pays nothing for them.

// dmLSQPitch is the pitch, in window pixels, at which the least-squares reads sample a
// hypothesis's crop: two pixels a module, about the frame's own at the small modules they
// are for (the crop magnifies them up to 4×: every crop pixel would cost 4–16 times more).
const dmLSQPitch = 2.0

// dmLSQWindow resamples crop c at dmLSQPitch pixels a module of hypothesis fit (bilinear,
// every stride crop pixels) and returns the window and the stride.
func dmLSQWindow(c *gray, fit dmFit) (fitWin, float64, bool) {
	var per float64
	for k := range 4 {
		a, e := fit.corners[k], fit.corners[(k+1)%4]
		per += math.Hypot(e.x-a.x, e.y-a.y)
	}
	stride := max(1, per/float64(2*(fit.cols+fit.rows))/dmLSQPitch)
	w, h := int(float64(c.w)/stride), int(float64(c.h)/stride)
	if w < 8 || h < 8 {
		return fitWin{}, 0, false
	}
	win := fitWin{w: w, h: h, pix: make([]float32, w*h)}
	for y := range h {
		for x := range w {
			win.pix[y*w+x] = float32(c.at((float64(x)+0.5)*stride-0.5, (float64(y)+0.5)*stride-0.5))
		}
	}
	return win, stride, true
}

// dmLSQGrid is fit's grid in the pixels of a window of c sampled every stride pixels.
func dmLSQGrid(fit dmFit, stride float64) (fitGrid, bool) {
	var q fitQuad
	for k, p := range fit.corners {
		q[k] = [2]float64{(p.x+0.5)/stride - 0.5, (p.y+0.5)/stride - 0.5}
	}
	return quadGrid(q, fit.cols, fit.rows, 1)
}

// dmLateHyp is a hypothesis our DataMatrix reader sampled on crop c (b: smoothed) and did
// not read: its grid as fitted, then as polished where dmReadFits polished it.
type dmLateHyp struct {
	c    *gray
	b    []float32
	fits []dmFit
}

// dmLateMax bounds the hypotheses kept for the least-squares reads per level.
const dmLateMax = 16

// noteDMLate keeps a hypothesis's grids (as fitted, then polished) of crop c for the
// least-squares reads (readDMLate): square sizes of one data region only (dmFitKnown's), the
// dmLateMax of the best timing (a busy frame's clutter fills the list before a faint
// symbol's later crops come).
func (d *Decoder) noteDMLate(c *gray, b []float32, fits []dmFit) {
	if len(fits) == 0 || fits[0].rows != fits[0].cols || fits[0].rows > 26 {
		return
	}
	h := dmLateHyp{c: c, b: b, fits: fits}
	if len(d.dmLate) < dmLateMax {
		d.dmLate = append(d.dmLate, h)
		return
	}
	worst := 0
	for i, o := range d.dmLate {
		if o.fits[0].score < d.dmLate[worst].fits[0].score {
			worst = i
		}
	}
	if fits[0].score > d.dmLate[worst].fits[0].score {
		d.dmLate[worst] = h
	}
}

// dmLateReads is how many kept hypotheses readDMLate reads, the best timing first.
const dmLateReads = 4

// dmLateQuad is an outline of crop c (b: smoothed) our reader looked at.
type dmLateQuad struct {
	c *gray
	b []float32
	q dmQuad
}

// dmLateQuadsMax bounds the outlines kept per level, and dmLateQuadFits the hypotheses of
// each that readDMLate reads.
const dmLateQuadsMax, dmLateQuadFits = 2, 2

// noteDMLateQuad keeps outline q of crop c for readDMLate.
func (d *Decoder) noteDMLateQuad(c *gray, b []float32, q dmQuad) {
	if len(d.dmLateQuads) < dmLateQuadsMax {
		d.dmLateQuads = append(d.dmLateQuads, dmLateQuad{c, b, q})
	}
}

// dmLateFits returns the best dmLateQuadFits hypotheses of outline lq: each square size of
// one data region, at the corner whose fixed modules match best, polished on the fixed
// pattern (dmPolish), ranked by the match of its fixed modules, blurred, on the window the
// least squares read (fitScore). Under JPEG at small modules a timing side's alternation is
// smeared into its neighbours, past dmTimingScore's gate at the modules' centres, where the
// blurred pattern still matches (jpeg-0 of the tuning draw: no size passes the gate, its own
// matches 0.94 polished, the best). A hypothesis matching under fitMinScore is left out.
func dmLateFits(lq dmLateQuad, stop func() bool) []dmFit {
	type ranked struct {
		fit  dmFit
		rank float64
	}
	// rank is the match of fit's grid on a window of its own.
	rank := func(fit dmFit, pat *fitPattern) (float64, bool) {
		win, stride, ok := dmLSQWindow(lq.c, fit)
		if !ok || stride <= 1 {
			return 0, false // modules under two crop pixels: too many for the outline
		}
		g, ok := dmLSQGrid(fit, stride)
		if !ok {
			return 0, false
		}
		return fitScore(&win, pat, &g), true
	}
	var rs []ranked
	q := lq.q
	for _, n := range dmFitSizes {
		if stop() {
			break
		}
		pat := patternOf(dmFitKnown(n), n, dmLSQPitch)
		best := ranked{rank: math.Inf(-1)}
		for k := range 4 {
			bl, tl, tr, br := q[k], q[(k+1)%4], q[(k+2)%4], q[(k+3)%4]
			fit := dmFit{k: k, rows: n, cols: n, corners: [4]dmPt{tl, tr, br, bl}, h: newDMHomography(tl, tr, br, bl, n, n)}
			if sc, ok := rank(fit, &pat); ok && sc > best.rank {
				best = ranked{fit, sc}
			}
		}
		if math.IsInf(best.rank, -1) {
			continue
		}
		fit := dmPolish(lq.b, lq.c.w, lq.c.h, best.fit)
		if sc, ok := rank(fit, &pat); ok && sc >= fitMinScore {
			fit.score = sc
			rs = append(rs, ranked{fit, sc})
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return cmp.Compare(b.rank, a.rank) })
	out := make([]dmFit, 0, dmLateQuadFits)
	for _, r := range rs[:min(len(rs), dmLateQuadFits)] {
		out = append(out, r.fit)
	}
	return out
}

// readDMLate reads the kept hypotheses by least squares (readDMLateHyps), then the best
// hypotheses of the kept outlines (dmLateFits), as polished on the fixed pattern and on all
// the modules (dmPolishModules).
func (d *Decoder) readDMLate() (Result, bool) {
	if res, ok := d.readDMLateHyps(); ok {
		return res, true
	}
	for _, lq := range d.dmLateQuads {
		for _, fit := range dmLateFits(lq, d.expired) {
			if d.expired() {
				return Result{}, false
			}
			p2 := dmPolishModules(lq.b, lq.c.w, lq.c.h, fit, d.expired)
			if res, ok := d.dmReadLSQ(dmLateHyp{c: lq.c, b: lq.b, fits: []dmFit{fit, p2}}); ok {
				return res, true
			}
		}
	}
	return Result{}, false
}

// readDMLateHyps reads the first dmLateReads kept hypotheses by least squares (dmReadLSQ),
// the best timing first; one that dmReadFits did not polish, also polished on the fixed
// pattern.
func (d *Decoder) readDMLateHyps() (Result, bool) {
	slices.SortStableFunc(d.dmLate, func(a, b dmLateHyp) int { return cmp.Compare(b.fits[0].score, a.fits[0].score) })
	for i, h := range d.dmLate {
		if i >= dmLateReads || d.expired() {
			break
		}
		if len(h.fits) == 1 {
			h.fits = append(h.fits, dmPolish(h.b, h.c.w, h.c.h, h.fits[0]))
		}
		if res, ok := d.dmReadLSQ(h); ok {
			return res, true
		}
	}
	return Result{}, false
}

// dmLSQSigmas are the blurs (window pixels: about the frame's) the least-squares reads try.
var dmLSQSigmas = []float64{0.5, 0.65, 0.8, 1.0}

// dmReadLSQ reads hypothesis lh with each module's darkness fitted by least squares
// (matrix_fit_ls.go) on each of its grids in turn (dmReadLSQAt): neither the fit's residual
// nor the fixed pattern's match tells which of them has the fewest modules wrong.
func (d *Decoder) dmReadLSQ(lh dmLateHyp) (Result, bool) {
	win, stride, ok := dmLSQWindow(lh.c, lh.fits[0])
	if !ok {
		return Result{}, false
	}
	kn := dmFitKnown(lh.fits[0].rows)
	for _, fit := range lh.fits {
		if d.expired() {
			break
		}
		if g, ok := dmLSQGrid(fit, stride); ok {
			if res, ok := d.dmReadLSQAt(&win, g, kn); ok {
				return res, true
			}
		}
	}
	return Result{}, false
}

// dmReadLSQAt fits the modules of the DataMatrix grid (kn its fixed modules) on win at each
// blur of dmLSQSigmas and reads the two fits that leave the least residual as the fitted
// pass reads a DataMatrix symbol (readFittedLevels), the best also through Chase's search
// (readFittedChase). A fit of one round costs about as much as a full one (the pixels'
// shares of the modules are most of it), so each blur is fitted in full.
func (d *Decoder) dmReadLSQAt(win *fitWin, grid fitGrid, kn fitKnown) (Result, bool) {
	var sols []fitSolution
	for _, s := range dmLSQSigmas {
		if d.expired() {
			return Result{}, false
		}
		if sol, ok := fitModules(win, grid, s, kn, fitMargins); ok {
			sols = append(sols, sol)
		}
	}
	slices.SortStableFunc(sols, func(a, b fitSolution) int { return cmp.Compare(a.resid, b.resid) })
	h := fitHyp{dm: true, n: grid.cols}
	for i, sol := range sols[:min(2, len(sols))] {
		lv := make([]float64, len(sol.dark))
		for m, v := range sol.dark {
			lv[m] = 1 - v
		}
		if res, ok := d.readFittedLevels(lv, h); ok {
			return res, true
		}
		if !d.expired() {
			if res, ok := d.readFittedChase(sol, h, i == 0); ok {
				return res, true
			}
		}
	}
	return Result{}, false
}
