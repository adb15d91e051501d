package barcode

import (
	"math"
	"slices"
)

// ITF read by fitting its blurred profile (issue 34's envelope corner: modules of 1.5 px
// blurred by σ 0.8 px at 25 % contrast). There a run of narrow elements (ITF's start, and
// the narrow bars and spaces between a digit pair's wide ones) is blurred to a grey level
// with a ripple under the noise: the derivative has no extremum for its inner edges, so
// every edge-based reader sees one element where there are three. The information is still
// in the profile's levels, and ITF makes it easy to use: every digit pair is exactly as
// wide (two wide and three narrow bars, two wide and three narrow spaces), so once the
// symbol's two outer edges are known (bars against the quiet zones: the profile's strongest
// edges), the pairs' positions follow from the digit count and the wide-to-narrow ratio
// alone. Each pair is then the one of its 100 patterns whose blurred rendering, scaled to
// the profile's levels by least squares, fits the profile best; the ratio and the blur are
// those under which the whole symbol fits best. A pair counts only when its best pattern
// fits much better than the next best (the noise taken from the fit itself), and the whole
// symbol only when every pair does and the fit is close: clutter between two quiet zones
// fits no pattern well.

// itfFitMargin is how much better, in units of the fit's noise variance, a pair's best
// pattern must fit than its second best (twice a log-likelihood ratio under Gaussian noise).
const itfFitMargin = 16

// itfReadMargin is itfFitMargin for a symbol read: every pair of it must fit its best
// pattern that much better than its second best. A pair's margin of 16 is a likelihood
// ratio of e⁸ for one pair, but a read is seven pairs, tried on every band, both ways round,
// at every ratio and blur, on every candidate and pass, and ITF has no check character:
// under strong noise with a perspective (which the fit's one narrow width does not follow)
// the wrong symbols fitted came mostly at margins of 16–30 (of 343 fitted on the bands of
// 2,547 tuning frames, 165 under 24), the right ones mostly well above (17 of 764 under 24),
// and a tuning frame at noise ×9.5 read a wrong 14-digit text with its least clear pairs at
// 18 and 22 on two bands (TestLinearNoWrongReadUnderNoise).
const itfReadMargin = 24

// itfFitMinDigits is the shortest ITF read by fitting: a short symbol's few pairs between
// two quiet zones are too easily fitted in clutter (the edge readers still read it).
const itfFitMinDigits = 10

// itfFit holds one hypothesis of where the symbol lies: its outer edges and the sizes.
type itfFit struct {
	p            []float64
	x0           float64 // the first bar's start (samples)
	pairs        int
	ratio, sigma float64 // wide over narrow; the blur in samples
	narrow       float64
}

// elements returns the symbol's element widths in narrow modules (bar first, start to
// stop) for the digit pairs.
func (f *itfFit) elements(digits []int) []float64 {
	w := []float64{1, 1, 1, 1}
	for _, d := range digits {
		w = append(w, itfPairWidths(d, f.ratio)...)
	}
	return append(w, f.ratio, 1, 1)
}

// itfPairWidths returns the ten element widths (narrow modules, bar first) of digit pair
// d (0–99: tens on the bars, units on the spaces).
func itfPairWidths(d int, ratio float64) []float64 {
	w := make([]float64, 10)
	for k := range 5 {
		w[2*k], w[2*k+1] = 1, 1
		if itfPatterns[d/10][k] {
			w[2*k] = ratio
		}
		if itfPatterns[d%10][k] {
			w[2*k+1] = ratio
		}
	}
	return w
}

// itfPairWide holds each digit pair's ten elements (bar first), true where wide.
var itfPairWide = func() (t [100][10]bool) {
	for d := range t {
		for k := range 5 {
			t[d][2*k], t[d][2*k+1] = itfPatterns[d/10][k], itfPatterns[d%10][k]
		}
	}
	return t
}()

// phiTable holds the standard normal's distribution function over ±4 in steps of 1/64.
var phiTable = func() [513]float64 {
	var t [513]float64
	for i := range t {
		t[i] = 0.5 * math.Erfc(-(float64(i)/64-4)/math.Sqrt2)
	}
	return t
}()

// phi is the standard normal's distribution function (interpolated in phiTable).
func phi(x float64) float64 {
	u := (x + 4) * 64
	if u <= 0 {
		return 0
	}
	if u >= 512 {
		return 1
	}
	i := int(u)
	f := u - float64(i)
	return phiTable[i] + f*(phiTable[i+1]-phiTable[i])
}

// ink renders bars (pairs of edge positions in samples) blurred by sigma at samples lo…hi−1,
// added to base (nil: nothing) into out.
func ink(bars [][2]float64, sigma float64, lo, hi int, base, out []float64) []float64 {
	out = out[:0]
	reach := 4 * sigma
	inv := 1 / sigma
	for i := lo; i < hi; i++ {
		x := float64(i)
		v := 0.0
		if base != nil {
			v = base[i-lo]
		}
		for _, b := range bars {
			if b[1] < x-reach || b[0] > x+reach {
				continue
			}
			v += phi((x-b[0])*inv) - phi((x-b[1])*inv)
		}
		out = append(out, v)
	}
	return out
}

// fitLevels fits p[lo:hi] ≈ a − c·r by least squares and returns the squared residual and c
// (the bars' contrast; positive when they are darker than the spaces).
func fitLevels(p, r []float64, lo int) (sse, c float64) {
	var sp, spp float64
	for _, y := range p[lo : lo+len(r)] {
		sp += y
		spp += y * y
	}
	return fitSums(p[lo:lo+len(r)], r, sp, spp)
}

// fitSums is fitLevels on q = p[lo:hi] given its sum and sum of squares, in one pass.
func fitSums(q, r []float64, sp, spp float64) (sse, c float64) {
	n := float64(len(r))
	var sr, srr, srp float64
	for i, x := range r {
		sr += x
		srr += x * x
		srp += x * q[i]
	}
	den := n*srr - sr*sr
	if den <= 1e-9 {
		return math.Inf(1), 0
	}
	slope := (n*srp - sr*sp) / den
	a := (sp - slope*sr) / n
	// Σ(q − a − slope·r)² at the least-squares solution.
	sse = max(0, spp-a*sp-slope*srp)
	return sse, -slope
}

// barsOf turns element widths (narrow modules, bar first) from x0 at narrow samples a
// module into bars.
func barsOf(w []float64, x0, narrow float64, bars [][2]float64) [][2]float64 {
	x := x0
	for i, m := range w {
		if i%2 == 0 {
			bars = append(bars, [2]float64{x, x + m*narrow})
		}
		x += m * narrow
	}
	return bars
}

// decode reads the pairs of hypothesis f: the digit pairs, the sum of the pairs' squared
// residuals, the samples they cover, and each pair's margin (second best's residual less
// the best's). The first sweep draws the pair after each one as narrow elements; sweeps
// more redraw each pair with both neighbours as read.
func (f *itfFit) decode(sweeps int) (digits []int, sse float64, samples int, margins []float64) {
	var sc itfScratch
	return fitUnits(f.pairs, sweeps, len(f.p), f.pairStart, 0.5*f.narrow, 8,
		func(digits []int, k, next, lo, hi int) (int, float64, float64) {
			return f.bestPair(digits, k, next, lo, hi, &sc)
		})
}

// itfScratch holds decode's buffers across pairs.
type itfScratch struct {
	bars   [][2]float64
	ctx, r []float64
	steps  [10][5][]float64
}

// bestPair returns the pattern of pair k (0–99) that fits samples lo…hi−1 best, with the
// pair before it as read and the one after as next (−1: narrow elements), and the best and
// second best squared residuals; −1 when no pattern's bars come out darker than its spaces.
func (f *itfFit) bestPair(digits []int, k, next, lo, hi int, sc *itfScratch) (bd int, best, second float64) {
	s, inv := f.pairStart(k), 1/f.sigma
	// The neighbours' ink, the same for every pattern of this pair.
	sc.bars = f.contextBars(digits, k, next, sc.bars[:0])
	sc.ctx = ink(sc.bars, f.sigma, lo, hi, nil, sc.ctx)
	// Each element's start as a blurred ink step, for every count of wide elements before
	// it: a pattern's ink is then a sum of ten of them.
	for i := range 10 {
		for w := max(0, i-6); w <= min(i, 4); w++ {
			x := s + f.narrow*(float64(i)+(f.ratio-1)*float64(w))
			c := sc.steps[i][w][:0]
			for j := lo; j < hi; j++ {
				c = append(c, phi((float64(j)-x)*inv))
			}
			sc.steps[i][w] = c
		}
	}
	q := f.p[lo:hi]
	var sp, spp float64
	for _, y := range q {
		sp += y
		spp += y * y
	}
	bt := newBestTwo()
	for d := range 100 {
		r := append(sc.r[:0], sc.ctx...)
		w := 0
		for i, wide := range itfPairWide[d] {
			if c := sc.steps[i][w]; i%2 == 0 { // a bar starts: ink
				for j, v := range c {
					r[j] += v
				}
			} else { // a space starts: paper
				for j, v := range c {
					r[j] -= v
				}
			}
			if wide {
				w++
			}
		}
		sc.r = r
		e, c := fitSums(q, r, sp, spp)
		bt.note(d, e, c)
	}
	return bt.v, bt.best, bt.second
}

// pairStart is where pair k starts (k = pairs: the stop).
func (f *itfFit) pairStart(k int) float64 {
	return f.x0 + f.narrow*(4+float64(k)*(6+4*f.ratio))
}

// contextBars returns the bars around pair k: the pair before it as read (or the start),
// and the pair after it as next (−1: ten narrow elements) or the stop.
func (f *itfFit) contextBars(digits []int, k, next int, bars [][2]float64) [][2]float64 {
	if k == 0 {
		bars = barsOf([]float64{1, 1, 1, 1}, f.x0, f.narrow, bars)
	} else {
		bars = barsOf(itfPairWidths(digits[k-1], f.ratio), f.pairStart(k-1), f.narrow, bars)
	}
	switch {
	case k+1 == f.pairs:
		bars = barsOf([]float64{f.ratio, 1, 1}, f.pairStart(k+1), f.narrow, bars)
	case next >= 0:
		bars = barsOf(itfPairWidths(next, f.ratio), f.pairStart(k+1), f.narrow, bars)
	default:
		bars = barsOf([]float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, f.pairStart(k+1), f.narrow, bars)
	}
	return bars
}

// itfProfile reads an ITF symbol of one of lengths digits from the band profile p by
// fitting (above), both ways round: the symbol as an ideal row, or false. The way round
// whose whole symbol (start and stop included) fits better wins, and only by a margin: a
// symbol read backwards fits its pairs nearly as well, its start and stop not.
func itfProfile(p []float64, lengths []int) ([]bool, bool) {
	fwd, okF := itfProfileDir(p, lengths)
	rp := slices.Clone(p)
	slices.Reverse(rp)
	rev, okR := itfProfileDir(rp, lengths)
	switch {
	case okF && okR:
		if fwd.sse > rev.sse {
			fwd, rev = rev, fwd
		}
		if rev.sse-fwd.sse < itfFitMargin*fwd.noise {
			return nil, false
		}
	case okR:
		fwd = rev
	case !okF:
		return nil, false
	}
	mods := []int{1, 1, 1, 1}
	for _, d := range fwd.digits {
		for _, w := range itfPairWidths(d, 3) {
			mods = append(mods, int(w))
		}
	}
	return idealRow(append(mods, 3, 1, 1)), true
}

// itfRead is a symbol read by fitting: its digit pairs, the whole symbol's squared residual
// and the noise variance of the pairs' fit.
type itfRead struct {
	digits     []int
	sse, noise float64
}

// itfOuterEdges finds the symbol's outer edges in p: the first bar's start after the widest
// gap without an edge of 0.3 of its strength (the quiet zone, checked against the narrow
// module later), and the last bar's end before the widest such gap after it; among the
// edges of at least 0.4 of the strong ones (the 90th percentile), since a bar against a
// quiet zone keeps its full contrast however blurred. It returns their positions and gaps.
func itfOuterEdges(p []float64, edges []edge) (x0, x1, gap0, gap1 float64, ok bool) {
	mags := make([]float64, len(edges))
	for i, e := range edges {
		mags[i] = math.Abs(e.v)
	}
	slices.Sort(mags)
	strong := 0.4 * mags[len(mags)*9/10]
	// gap is the distance from edge k to the nearest edge of 0.3 of its strength in
	// direction dir (or to the profile's end).
	gap := func(k, dir int) float64 {
		e := edges[k]
		for j := k + dir; j >= 0 && j < len(edges); j += dir {
			if math.Abs(edges[j].v) >= 0.3*math.Abs(e.v) {
				return math.Abs(edges[j].at - e.at)
			}
		}
		if dir < 0 {
			return e.at
		}
		return float64(len(p)) - e.at
	}
	s0, e0 := -1, -1
	for k, e := range edges {
		if e.v < 0 && math.Abs(e.v) >= strong {
			if g := gap(k, -1); g > gap0 {
				s0, gap0 = k, g
			}
		}
	}
	if s0 < 0 {
		return 0, 0, 0, 0, false
	}
	for k := s0 + 1; k < len(edges); k++ {
		if e := edges[k]; e.v > 0 && e.v >= strong {
			if g := gap(k, 1); g > gap1 {
				e0, gap1 = k, g
			}
		}
	}
	// A symbol's worth of edges between them (blur leaves at least half of an ITF's).
	if e0 < 0 || e0-s0 < minSymbolEdges/2 {
		return 0, 0, 0, 0, false
	}
	return edges[s0].at, edges[e0].at, gap0, gap1, true
}

// itfProfileDir is itfProfile one way round.
func itfProfileDir(p []float64, lengths []int) (itfRead, bool) {
	edges := findEdges(p)
	if len(edges) < minSymbolEdges {
		return itfRead{}, false
	}
	x0, x1, sGap, eGap, ok := itfOuterEdges(p, edges)
	if !ok {
		return itfRead{}, false
	}
	for _, n := range lengths {
		if n%2 != 0 || n < 2 {
			continue
		}
		f := itfFit{p: p, x0: x0, pairs: n / 2}
		if !f.size(x1-x0, min(sGap, eGap)) {
			continue
		}
		digits, noise, ok := f.read()
		if !ok {
			continue
		}
		// The whole symbol must fit closely (fitsWhole: a Code 128 near miss was fitted as
		// an ITF blurred more than it was).
		bars := barsOf(f.elements(digits), f.x0, f.narrow, nil)
		lo := max(0, int(x0-2*f.narrow))
		hi := min(len(p), int(x1+2*f.narrow))
		all, ok := fitsWhole(p, bars, f.sigma, lo, hi)
		if !ok {
			continue
		}
		return itfRead{digits, all, noise}, true
	}
	return itfRead{}, false
}

// size finds the ratio and the blur under which the symbol of length L (outer edge to
// outer edge) fits best, after a first look that refuses clutter cheaply: f is set to them,
// or false when no ratio gives a narrow module of 1.5 samples or more within the quiet
// zones (quiet: the narrower of the two gaps).
func (f *itfFit) size(L, quiet float64) bool {
	set := func(ratio, sigma float64) bool {
		f.ratio = ratio
		f.narrow = L / (6 + ratio + float64(f.pairs)*(6+4*ratio))
		f.sigma = sigma * f.narrow
		return f.narrow >= 1.5 && quiet >= 0.9*quietModules*f.narrow
	}
	// A first look at the middle of the grid: clutter between two gaps leaves most of its
	// pairs without a clear best pattern; a symbol has a third of them clear even at a
	// ratio or blur somewhat off.
	set(2.5, 0.65)
	if _, sse, samples, margins := f.decode(1); samples > 0 && 3*clearUnits(margins, sse, samples, itfFitMargin) < f.pairs {
		return false
	}
	best, bestSSE := *f, math.Inf(1)
	try := func(ratio, sigma float64) {
		if !set(ratio, sigma) {
			return
		}
		if _, sse, samples, _ := f.decode(1); samples > 0 && sse < bestSSE {
			best, bestSSE = *f, sse
		}
	}
	// A coarse grid, then the ratio refined.
	for _, ratio := range []float64{2, 2.5, 3} {
		for _, sigma := range []float64{0.5, 0.8} {
			try(ratio, sigma)
		}
	}
	if math.IsInf(bestSSE, 1) {
		return false
	}
	r0, sg := best.ratio, best.sigma/best.narrow
	for _, dr := range []float64{-0.25, 0.25} {
		if r := r0 + dr; r >= 2 && r <= 3 {
			try(r, sg)
		}
	}
	*f = best
	return true
}

// read decodes the pairs with both neighbours as read: the digit pairs and the noise
// variance, or false unless every pair's best pattern fits better than its second by
// itfReadMargin.
func (f *itfFit) read() ([]int, float64, bool) {
	digits, sse, samples, margins := f.decode(2)
	if samples == 0 {
		return nil, 0, false
	}
	if clearUnits(margins, sse, samples, itfReadMargin) < len(margins) {
		return nil, 0, false
	}
	return digits, sse / float64(samples), true
}
