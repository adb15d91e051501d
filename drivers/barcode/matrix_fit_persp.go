package barcode

import (
	"cmp"
	"math"
	"slices"
)

// The fitted pass in perspective (matrix_fit.go). A label seen from aside maps the symbol's
// grid by a homography, not by the affine map (centre, angle, a pitch per axis) the pass's
// search climbs: at 1.5–1.8-px modules on the far side of a label whose corners are moved
// inwards by up to 14 % of its side, the affine grid is half a module off at the symbol's
// corners, its fixed modules match 0.65–0.85 where the symbol's own grid matches 0.95, and its
// least squares do not read. When the affine fit does not read, the pass climbs the grid's
// four corners instead (fitQuad: any homography), from the best affine hypothesis's corners,
// once per candidate:
//
//   - every size of each symbology in question at every quarter turn (the affine search's
//     size and turn are most often wrong in perspective) screened by one round of the
//     corners' climb (steps of half the pitch), ranked as the affine search ranks (DataMatrix
//     with its clock track);
//   - the best fitPerspKeep of each symbology climbed on (steps of a quarter pitch), the best
//     of those then finely (fitRounds), read only when it matches fitMinScore as an affine
//     hypothesis must;
//   - read as the affine hypotheses are (readFitted): a DataMatrix grid refined first on the
//     fit's residual (its corners moved by 0.15 then 0.075 module), at the three blurs.

// fitPerspScreen and fitPerspCoarse are the rounds of the corners' climb that screen each
// size and turn, and that the best fitPerspKeep of each symbology get before the best of all
// is climbed finely.
const fitPerspScreen, fitPerspCoarse, fitPerspKeep = 1, 2, 3

// readPersp climbs a grid in perspective (its four corners) from hypothesis h's affine
// optimum, for each of formats (QR, DataMatrix) and each of its sizes, and reads the one that
// matches best (above). Under strong sensor noise (noisyLeft), when no grid matches
// fitMinScore on the window's pixels, the corners are climbed again on its 3×3 means (as
// fitSearchNoisy matches there) and the grid found is read on the window itself. The means
// come second: at modules under about 2 px they favour sizes of finer pitch (four tuning
// DataMatrix frames of 1.6–1.9-px modules that read on the pixels climbed to 22–26 modules
// for their 18 on the means).
func (d *Decoder) readPersp(win *fitWin, h fitHyp, formats Format) (Result, bool) {
	best := d.perspBest(win, h, formats)
	if best.score < fitMinScore && d.noisyLeft(win) &&
		(d.deadline.IsZero() || d.deadline.Sub(d.now) >= fitPerspMinLeft) {
		sm := win.smoothed()
		best = d.perspBest(&sm, h, formats)
	}
	if best.score < fitMinScore || d.expired() {
		return Result{}, false
	}
	if _, ok := fitPrepare(win, best.grid(), fitSigmas[0], best.known()); !ok {
		return Result{}, false
	}
	return d.readFitted(win, best, best.dm, true)
}

// perspBest is readPersp's search on win: the best grid in perspective of formats' sizes,
// climbed finely from h's affine corners (score −∞ when none).
func (d *Decoder) perspBest(win *fitWin, h fitHyp, formats Format) fitHyp {
	g := h.grid()
	q0 := g.quad()
	side := (math.Hypot(q0[1][0]-q0[0][0], q0[1][1]-q0[0][1]) + math.Hypot(q0[3][0]-q0[0][0], q0[3][1]-q0[0][1])) / 2
	best := fitHyp{score: math.Inf(-1)}
	for _, dm := range []bool{false, true} {
		sym := QRCode
		if dm {
			sym = DataMatrix
		}
		if formats&sym == 0 || d.expired() {
			continue
		}
		if c, ok := perspSearch(win, q0, side, h.p, dm, d.expired); ok && c.score > best.score {
			best = c
		}
	}
	if best.n == 0 || d.expired() {
		return fitHyp{score: math.Inf(-1)}
	}
	m := side / float64(best.n)
	pat := patternOf(best.known(), best.n, m)
	best.quad, best.score = fitClimbQuad(win, &pat, best.n, best.quad, m, fitPerspCoarse, fitRounds)
	return best
}

// perspCand is a grid in perspective being climbed: its hypothesis, its fixed modules'
// pattern and pitch.
type perspCand struct {
	h   fitHyp
	pat fitPattern
	m   float64
}

// climb climbs c's corners over rounds from to to and ranks it (fitSearch's rank).
func (c *perspCand) climb(win *fitWin, from, to int) {
	c.h.quad, c.h.score = fitClimbQuad(win, &c.pat, c.h.n, c.h.quad, c.m, from, to)
	c.h.rank = c.h.score
	if c.h.dm {
		g, _ := quadGrid(c.h.quad, c.h.n, c.h.n, fitPoseQuiet)
		c.h.rank += fitScoreOf(win, &c.pat, &g, c.pat.fine)
	}
}

// perspSearch screens every size of a symbology (DataMatrix when dm) at every quarter turn
// of corners q0 (side pixels a side) and returns the best of the fitPerspKeep climbed on.
func perspSearch(win *fitWin, q0 fitQuad, side float64, p fitPose, dm bool, stop func() bool) (fitHyp, bool) {
	sizes := qrFitDims
	if dm {
		sizes = dmFitSizes
	}
	var cands []perspCand
	for _, n := range sizes {
		m := side / float64(n)
		if m < fitMinModule || m > fitMaxModule || stop() {
			continue
		}
		pat := patternOf(fitHyp{dm: dm, n: n}.known(), n, m)
		for turn := range 4 {
			c := perspCand{h: fitHyp{dm: dm, n: n, p: p, persp: true}, pat: pat, m: m}
			for k := range c.h.quad {
				c.h.quad[k] = q0[(k+turn)%4]
			}
			c.climb(win, 0, fitPerspScreen)
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b perspCand) int { return cmp.Compare(b.h.rank, a.h.rank) })
	best := fitHyp{rank: math.Inf(-1)}
	for i := range cands[:min(len(cands), fitPerspKeep)] {
		if stop() {
			break
		}
		c := &cands[i]
		c.climb(win, fitPerspScreen, fitPerspCoarse)
		if c.h.rank > best.rank {
			best = c.h
		}
	}
	return best, best.n != 0
}

// fitClimbQuad improves the corners q of an n×n grid in perspective by coordinate ascent
// on fitScore (each corner's x and y), the steps (from half the pitch m) halved each round.
func fitClimbQuad(win *fitWin, pat *fitPattern, n int, q fitQuad, m float64, from, to int) (fitQuad, float64) {
	score := func(q fitQuad) float64 {
		g, ok := quadGrid(q, n, n, fitPoseQuiet)
		if !ok {
			return math.Inf(-1)
		}
		return fitScore(win, pat, &g)
	}
	best := score(q)
	step := 0.5 * m / float64(int(1)<<from)
	for range to - from {
		for improved := true; improved; {
			improved = false
			for k := range 8 {
				for _, sgn := range []float64{-1, 1} {
					c := q
					c[k/2][k%2] += sgn * step
					if sc := score(c); sc > best {
						q, best, improved = c, sc, true
					}
				}
			}
		}
		step /= 2
	}
	return q, best
}

// fitRefineQuad improves hypothesis h's corners on the residual of a quick least-squares fit
// (as fitRefine does an affine pose), until stop says so or after fitRefineEvals fits.
func fitRefineQuad(win *fitWin, h fitHyp, kn fitKnown, stop func() bool) fitHyp {
	evals := 0
	resid := func(q fitQuad) float64 {
		if evals++; evals > fitRefineEvals {
			return math.Inf(1)
		}
		g, ok := quadGrid(q, h.n, h.n, fitPoseQuiet)
		if !ok {
			return math.Inf(1)
		}
		sol, ok := fitModules(win, g, fitSigmas[0], kn, fitQuick)
		if !ok {
			return math.Inf(1)
		}
		return sol.resid
	}
	q := h.quad
	best := resid(q)
	step := 0.15 * (h.p[3] + h.p[4]) / 2
	for range fitRefineRounds {
		for improved := true; improved && evals <= fitRefineEvals && !stop(); {
			improved = false
			for k := range 8 {
				for _, sgn := range []float64{-1, 1} {
					c := q
					c[k/2][k%2] += sgn * step
					if r := resid(c); r < best {
						q, best, improved = c, r, true
					}
				}
			}
		}
		step /= 2
	}
	h.quad = q
	return h
}
