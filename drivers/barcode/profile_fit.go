package barcode

import (
	"math"
	"slices"
)

// fitUnits is the sequential read shared by the ITF and Code 128 fits (itf_profile.go,
// c128_profile.go): n units (digit pairs, characters) of a profile of plen samples, unit k
// from start(k) to start(k+1), each fitted over its span padded by pad samples either side
// (at least minSpan samples) by best, which returns the unit's value (−1: none fits), its
// squared residual and its second best's. The first sweep gives best no next unit (−1);
// later sweeps the next unit as read. It returns the values, the summed residual, the
// samples it covers and each unit's margin (second best less best).
func fitUnits(n, sweeps, plen int, start func(k int) float64, pad float64, minSpan int,
	best func(vals []int, k, next, lo, hi int) (v int, best, second float64)) (vals []int, sse float64, samples int, margins []float64) {
	vals = make([]int, n)
	for k := range vals {
		vals[k] = -1
	}
	margins = make([]float64, n)
	for sweep := range sweeps {
		sse, samples = 0, 0
		for k := range n {
			lo := max(0, int(math.Floor(start(k)-pad)))
			hi := min(plen, int(math.Ceil(start(k+1)+pad)))
			if hi-lo < minSpan {
				return nil, math.Inf(1), 0, nil
			}
			next := -1
			if sweep > 0 && k+1 < n {
				next = vals[k+1]
			}
			v, b, second := best(vals, k, next, lo, hi)
			if v < 0 {
				return nil, math.Inf(1), 0, nil
			}
			vals[k], margins[k] = v, second-b
			sse += b
			samples += hi - lo
		}
	}
	return vals, sse, samples, margins
}

// bestTwo keeps the best and second best residuals of a unit's patterns and the best one's
// value (−1: none yet).
type bestTwo struct {
	v            int
	best, second float64
}

func newBestTwo() bestTwo { return bestTwo{-1, math.Inf(1), math.Inf(1)} }

// note ranks pattern v's residual e, or none when the fit's contrast c is not positive (the
// pattern's bars would be lighter than its spaces).
func (b *bestTwo) note(v int, e, c float64) {
	if c <= 0 {
		return
	}
	if e < b.best {
		b.v, b.best, b.second = v, e, b.best
	} else if e < b.second {
		b.second = e
	}
}

// clearUnits counts the units whose best pattern beats their second by margin times the
// fit's noise variance (sse over samples).
func clearUnits(margins []float64, sse float64, samples int, margin float64) int {
	n := 0
	for _, m := range margins {
		if m >= margin*sse/float64(samples) {
			n++
		}
	}
	return n
}

// fitsWhole renders bars blurred by sigma over p[lo:hi] and reports the squared residual of
// its least-squares fit and whether that residual lies within a fifth of the symbol's
// contrast: the smaller of the fitted one (paper to ink) and the one seen (the profile's
// range there). A fit may take a symbol of other bars for one blurred more than it is: its
// fitted contrast then exceeds the profile's range, which the residual is measured against.
func fitsWhole(p []float64, bars [][2]float64, sigma float64, lo, hi int) (sse float64, ok bool) {
	r := ink(bars, sigma, lo, hi, nil, nil)
	sse, c := fitLevels(p, r, lo)
	seen := slices.Max(p[lo:hi]) - slices.Min(p[lo:hi])
	return sse, c > 0 && math.Sqrt(sse/float64(hi-lo)) <= 0.2*min(c, seen)
}
