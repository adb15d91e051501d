package barcode

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
)

// chaseSearch looks for a Reed–Solomon block's codeword among the words that differ from cw
// in some of its least sure bits (Chase's second algorithm): the chaseBits bits of least
// confidence, wherever they fall, and of their subsets those whose confidences sum least
// first (the likeliest patterns of wrong bits under independent noise), at most trials of
// them (fewer when stop says so), each corrected for errors only with rsSlack check codewords to spare. Under strong
// sensor noise a fitted symbol's wrong modules are mostly single bits of different
// codewords, spread over more codewords than erasures reach, and among its least sure
// bits. A word near no codeword corrects within e errors and rsSlack to spare about once in
// 256^nsym/Σ_{i≤e} C(n, i)·255^i (version 2-M's block: once in 10^14); the tries are bounded
// so that over all of them that stays under chaseFalse (chaseAffords).
func chaseSearch(f *rsField, cw []byte, nsym int, sc []softCodeword, trials int, stop func() bool) ([]byte, bool) {
	if !rsShapeOK(len(cw), nsym, 0) {
		return cw, false
	}
	trials = min(trials, chaseAffords(len(cw), nsym))
	if trials <= 0 {
		return cw, false
	}
	type bit struct {
		p    int
		mask byte
		conf float32
	}
	var cands []bit
	for p := range cw {
		for b, c := range sc[p].conf {
			if c < 1 {
				cands = append(cands, bit{p, 0x80 >> b, c})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b bit) int { return cmp.Compare(a.conf, b.conf) })
	cands = cands[:min(len(cands), chaseBits)]
	n := len(cw)
	base, zero := f.syndromes(cw, nsym)
	if zero {
		return cw, true
	}
	if len(cands) == 0 {
		return cw, false
	}
	delta := make([][]byte, len(cands))
	for i, c := range cands {
		delta[i] = make([]byte, nsym)
		for j := range nsym {
			delta[i][j] = f.mul(c.mask, f.pow((f.fcr+j)*(n-1-c.p)))
		}
	}
	try, synd := make([]byte, n), make([]byte, nsym)
	bm := make([]byte, 3*(nsym+2))
	h := &chaseHeap{{sum: float64(cands[0].conf), last: 0, set: 1}}
	for t := 0; t < trials && h.Len() > 0; t++ {
		if t%chaseStopEvery == chaseStopEvery-1 && stop() {
			break
		}
		e := heap.Pop(h).(chaseSet)
		copy(try, cw)
		copy(synd, base)
		for i := range cands {
			if e.set&(1<<i) != 0 {
				try[cands[i].p] ^= cands[i].mask
				for j, d := range delta[i] {
					synd[j] ^= d
				}
			}
		}
		if !slices.ContainsFunc(synd, func(s byte) bool { return s != 0 }) {
			return try, true
		}
		// Most words are far from every codeword: their error locator is too long, which
		// Berlekamp–Massey tells without the Chien search or a buffer.
		if 2*f.locatorLength(synd, bm) <= nsym-rsSlack {
			if _, ok := f.correctSyndromes(try, synd, nil); ok {
				return try, true
			}
		}
		if nx := e.last + 1; nx < len(cands) {
			c, l := float64(cands[nx].conf), float64(cands[e.last].conf)
			heap.Push(h, chaseSet{sum: e.sum - l + c, last: nx, set: e.set&^(1<<e.last) | 1<<nx})
			heap.Push(h, chaseSet{sum: e.sum + c, last: nx, set: e.set | 1<<nx})
		}
	}
	return cw, false
}

// chaseAffords is how many words chaseSearch may try on a block of n codewords, nsym of
// them check codewords, so that a word near no codeword corrects with chance under
// chaseFalse over all of them: one word corrects within t = (nsym − rsSlack)/2 errors with
// chance Σ_{i≤t} C(n, i)·255^i / 256^nsym. Version 2-M's block (44, 16) affords about 29,000;
// a block of 10 check codewords or fewer (versions 1–2 at L and M, 1 at Q) none.
func chaseAffords(n, nsym int) int {
	t := (nsym - rsSlack) / 2
	var ball, c float64 = 0, 1 // Σ C(n, i)·255^i
	for i := 0; i <= t; i++ {
		ball += c
		c *= float64(n-i) / float64(i+1) * 255
	}
	p := ball / math.Pow(256, float64(nsym))
	return int(min(1e9, chaseFalse/p))
}

// chaseFalse bounds the chance that chaseSearch corrects a word near no codeword, per block:
// 2^−32.
const chaseFalse = 1.0 / (1 << 32)

// chaseStopEvery is how many tries chaseSearch makes between looks at the frame's budget
// (a few hundred microseconds).
const chaseStopEvery = 256

// chaseBits is the number of least sure bits chaseSearch flips.
const chaseBits = 24

// chaseSet is a subset of chaseSearch's bits: their confidences' sum, its last bit.
type chaseSet struct {
	sum  float64
	last int
	set  uint32
}

type chaseHeap []chaseSet

func (h chaseHeap) Len() int           { return len(h) }
func (h chaseHeap) Less(i, j int) bool { return h[i].sum < h[j].sum }
func (h chaseHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *chaseHeap) Push(x any)        { *h = append(*h, x.(chaseSet)) }
func (h *chaseHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// locatorLength returns the length of the shortest LFSR that generates synd
// (Berlekamp–Massey: the number of errors an errors-only decoder would locate), in the
// scratch buf of at least 3·(len(synd)+2) bytes.
func (f *rsField) locatorLength(synd, buf []byte) int {
	m := len(synd) + 2
	c, b, t := buf[:m], buf[m:2*m], buf[2*m:3*m]
	clear(c)
	clear(b)
	c[0], b[0] = 1, 1
	l, shift := 0, 1
	var bd byte = 1
	for r := range synd {
		d := synd[r]
		for i := 1; i <= l; i++ {
			d ^= f.mul(c[i], synd[r-i])
		}
		if d == 0 {
			shift++
			continue
		}
		coef := f.div(d, bd)
		if 2*l <= r {
			copy(t, c)
			for i := 0; i+shift < m; i++ {
				c[i+shift] ^= f.mul(coef, b[i])
			}
			l = r + 1 - l
			copy(b, t)
			bd, shift = d, 1
		} else {
			for i := 0; i+shift < m; i++ {
				c[i+shift] ^= f.mul(coef, b[i])
			}
			shift++
		}
	}
	return l
}
