package barcode

import (
	"math"
	"slices"
)

// Code 128 read by fitting its blurred profile, as ITF is (itf_profile.go), for the corner
// of issue 34's envelope: modules of 1.5 px blurred by σ 0.8 px at 25 % contrast, where a
// one-module bar or space keeps a ripple of a few grey levels and the edge readers lose it.
// Every Code 128 character is eleven modules wide, so once the symbol's outer edges are
// found (its first bar after the quiet zone, the stop's last bar before the other), a
// symbol of n characters has modules of L / (11n + 13) and each character's place follows.
// Each character is then the pattern of its 100 (set C's digit pairs; the check: of 103)
// whose blurred
// rendering, with its neighbours as read, fits the profile's levels best by least squares.
// A read counts only when every character's best pattern beats its second by the same
// margin as ITF's pairs, the whole symbol fits within a fifth of its contrast, and the
// check character matches (one wrong symbol in 103 would pass it alone).

// c128Fit is one hypothesis of the symbol: its first bar's start, its characters (start
// and check included, the stop not), the module and the blur in samples.
type c128Fit struct {
	p             []float64
	x0            float64
	chars         int
	module, sigma float64
}

// charStart is where character k starts (k = chars: the stop).
func (f *c128Fit) charStart(k int) float64 { return f.x0 + 11*float64(k)*f.module }

// c128Bars appends the bars of character v (the stop: 106, seven elements) starting at x.
func c128Bars(v int, x, module float64, bars [][2]float64) [][2]float64 {
	w := code128Patterns[v]
	for i, m := range w {
		if i%2 == 0 {
			bars = append(bars, [2]float64{x, x + float64(m)*module})
		}
		x += float64(m) * module
	}
	return bars
}

// c128Scratch holds bestChar's buffers.
type c128Scratch struct {
	bars   [][2]float64
	ctx, r []float64
	steps  [12][]float64
}

// bestChar returns the value of character k that fits samples lo…hi−1 best, among first…
// last−1, with the character before it as read (vals[k−1]) and the one after it as next
// (−1: paper; the stop after the last), and the best and second best squared residuals.
func (f *c128Fit) bestChar(vals []int, k, next, first, last, lo, hi int, sc *c128Scratch) (bv int, best, second float64) {
	s, inv := f.charStart(k), 1/f.sigma
	sc.bars = sc.bars[:0]
	if k > 0 {
		sc.bars = c128Bars(vals[k-1], f.charStart(k-1), f.module, sc.bars)
	}
	switch {
	case k+1 == f.chars:
		sc.bars = c128Bars(106, f.charStart(k+1), f.module, sc.bars)
	case next >= 0:
		sc.bars = c128Bars(next, f.charStart(k+1), f.module, sc.bars)
	}
	sc.ctx = ink(sc.bars, f.sigma, lo, hi, nil, sc.ctx)
	// An element boundary at each of the character's module offsets, as a blurred step: a
	// pattern's ink is a sum of six of them.
	for o := range 12 {
		x := s + float64(o)*f.module
		c := sc.steps[o][:0]
		for j := lo; j < hi; j++ {
			c = append(c, phi((float64(j)-x)*inv))
		}
		sc.steps[o] = c
	}
	q := f.p[lo:hi]
	var sp, spp float64
	for _, y := range q {
		sp += y
		spp += y * y
	}
	bt := newBestTwo()
	for v := first; v < last; v++ {
		r := append(sc.r[:0], sc.ctx...)
		o := 0
		for i, m := range code128Patterns[v] {
			if i%2 == 0 { // a bar from o to o+m
				a, b := sc.steps[o], sc.steps[o+m]
				for j := range r {
					r[j] += a[j] - b[j]
				}
			}
			o += m
		}
		sc.r = r
		e, c := fitSums(q, r, sp, spp)
		bt.note(v, e, c)
	}
	return bt.v, bt.best, bt.second
}

// decode reads every character: the values, the summed squared residual, the samples it
// covers and each character's margin (second best less best). The first sweep draws paper
// after each character; later sweeps the next character as read.
func (f *c128Fit) decode(sweeps int) (vals []int, sse float64, samples int, margins []float64) {
	var sc c128Scratch
	return fitUnits(f.chars, sweeps, len(f.p), f.charStart, 0.5*f.module, 16,
		func(vals []int, k, next, lo, hi int) (int, float64, float64) {
			first, last := 0, 100 // set C: two digits a character
			switch k {
			case 0:
				first, last = 105, 106 // start C
			case f.chars - 1:
				last = 103 // the check: any value
			}
			return f.bestChar(vals, k, next, first, last, lo, hi, &sc)
		})
}

// c128Read is a symbol read by fitting: its character values (start to check), the whole
// symbol's squared residual and the noise variance of the characters' fit.
type c128Read struct {
	vals       []int
	sse, noise float64
}

// c128Profile reads a Code 128 symbol from the band profile p by fitting, both ways round:
// the symbol as an ideal row, or false. Only one way round may read (its check matching).
func c128Profile(p []float64, digits []int) ([]bool, bool) {
	fwd, okF := c128ProfileDir(p, digits)
	rp := slices.Clone(p)
	slices.Reverse(rp)
	rev, okR := c128ProfileDir(rp, digits)
	if okF == okR {
		return nil, false
	}
	if okR {
		fwd = rev
	}
	var mods []int
	for _, v := range fwd.vals {
		mods = append(mods, code128Patterns[v]...)
	}
	return idealRow(append(mods, code128Patterns[106]...)), true
}

// c128ProfileDir is c128Profile one way round: each length of digits (set C: a start, a
// character per two digits, the check), the first whose characters all fit clearly, check
// matching, and whose whole symbol fits.
func c128ProfileDir(p []float64, digits []int) (c128Read, bool) {
	edges := findEdges(p)
	if len(edges) < minSymbolEdges/2 {
		return c128Read{}, false
	}
	x0, x1, sGap, eGap, ok := itfOuterEdges(p, edges)
	if !ok {
		return c128Read{}, false
	}
	L, quiet := x1-x0, min(sGap, eGap)
	for _, d := range digits {
		if d%2 != 0 || d < 2 {
			continue
		}
		n := 2 + d/2
		module := L / float64(11*n+13)
		if module < 1.5 || quiet < 0.9*quietModules*module {
			continue
		}
		f := c128Fit{p: p, x0: x0, chars: n, module: module}
		if r, ok := f.read(); ok {
			return r, true
		}
	}
	return c128Read{}, false
}

// startFits is the first, cheap look: of every character, start C fits the first place
// best (read backwards, the stop's reversal lies there; in clutter, anything).
func (f *c128Fit) startFits() bool {
	lo, hi := max(0, int(f.x0-0.5*f.module)), min(len(f.p), int(f.charStart(1)+0.5*f.module))
	if hi-lo < 16 {
		return false
	}
	var sc c128Scratch
	bv, _, _ := f.bestChar(nil, 0, -1, 0, 106, lo, hi, &sc)
	return bv == 105
}

// read fits the hypothesis's blur (after a first look that drops clutter cheaply), then
// decodes with both neighbours as read and checks the margins, the check character and the
// whole symbol's fit.
func (f *c128Fit) read() (c128Read, bool) {
	f.sigma = 0.65 * f.module
	if !f.startFits() {
		return c128Read{}, false
	}
	if _, sse, samples, margins := f.decode(1); samples == 0 || 3*clearUnits(margins, sse, samples, itfFitMargin) < f.chars {
		return c128Read{}, false
	}
	best, bestSSE := *f, math.Inf(1)
	for _, s := range []float64{0.4, 0.6, 0.8} {
		f.sigma = s * f.module
		if _, sse, samples, _ := f.decode(1); samples > 0 && sse < bestSSE {
			best, bestSSE = *f, sse
		}
	}
	*f = best
	vals, sse, samples, margins := f.decode(2)
	if samples == 0 {
		return c128Read{}, false
	}
	if clearUnits(margins, sse, samples, itfFitMargin) < len(margins) {
		return c128Read{}, false
	}
	noise := sse / float64(samples)
	sum := vals[0]
	for i := 1; i < len(vals)-1; i++ {
		sum += i * vals[i]
	}
	if sum%103 != vals[len(vals)-1] {
		return c128Read{}, false
	}
	// The whole symbol, the stop included, fits closely (fitsWhole).
	var bars [][2]float64
	for k, v := range vals {
		bars = c128Bars(v, f.charStart(k), f.module, bars)
	}
	bars = c128Bars(106, f.charStart(f.chars), f.module, bars)
	lo := max(0, int(f.x0-2*f.module))
	hi := min(len(f.p), int(f.charStart(f.chars)+15*f.module))
	all, ok := fitsWhole(f.p, bars, f.sigma, lo, hi)
	if !ok {
		return c128Read{}, false
	}
	return c128Read{vals, all, noise}, true
}
