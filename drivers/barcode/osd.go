package barcode

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// osdSearch decodes a Reed–Solomon block by ordered statistics (Fossorier and Lin's OSD) on
// its binary image: a block of n codewords with nsym check codewords is, bit by bit, a
// binary linear code of 8n bits whose 8·nsym parity checks are the syndromes' bits. The
// checks are reduced (Gaussian elimination) on the least sure bits first, so that the
// 8·nsym least sure independent bits (the LRB) follow from the others (the MRB): the word
// that keeps every MRB bit as read, and those with one or two of the osdFlip least sure
// MRB bits flipped, are codewords at once, and each differs from the block as read in its
// LRB bits where its reduced syndrome is 1. Under strong sensor noise a fitted symbol's
// wrong modules lie mostly among its least sure bits (QR version 2-M at 25–35 % contrast:
// 14–19 bits wrong, in 11–15 of its 44 codewords, beyond erasures and Chase's search, yet
// most or all of them among the 128 least sure of its 352 bits). A candidate is taken only
// when it differs from the block as read in few enough LRB bits that a word near no
// codeword (clutter, a grid a module off: its reduced syndrome as good as random) comes as
// close with chance under osdFalse over all the candidates tried (osdMaxDiff); of those,
// the one whose differing bits are least sure in sum.
func osdSearch(f *rsField, cw []byte, nsym int, sc []softCodeword) ([]byte, bool) {
	n := len(cw)
	if !rsShapeOK(n, nsym, 0) || 8*nsym > osdMaxChecks {
		return cw, false
	}
	synd, zero := f.syndromes(cw, nsym)
	if zero {
		return cw, true
	}
	red, ok := osdReduce(f, n, nsym, synd, func(i int) float32 { return sc[i/8].conf[i%8] })
	if !ok {
		return cw, false
	}
	a, b, ok := red.best()
	if !ok {
		return cw, false
	}
	out := slices.Clone(cw)
	for _, i := range red.differences(a, b) {
		out[i/8] ^= 0x80 >> (i % 8)
	}
	if _, zero := f.syndromes(out, nsym); !zero {
		return cw, false
	}
	return out, true
}

// osdReduced is a block's parity checks reduced on its least sure bits (osdReduce): the
// reduced syndrome s0 and each flip candidate's reduced column, as bits over the checks.
type osdReduced struct {
	conf    func(i int) float32
	pivotOf []int      // check k's pivot bit (an LRB bit)
	s0      []uint64   // the reduced syndrome: the LRB bits to flip when no MRB bit is
	flips   []int      // the osdFlip least sure MRB bits
	cols    [][]uint64 // their reduced columns
}

// osdReduce reduces the parity checks of a block of n codewords, nsym of them check
// codewords, whose syndromes are synd, by Gaussian elimination on its bits in increasing
// conf: the first 8·nsym independent ones are the LRB. False when the checks are not of
// full rank.
func osdReduce(f *rsField, n, nsym int, synd []byte, conf func(i int) float32) (osdReduced, bool) {
	nb, r := 8*n, 8*nsym
	words := (nb + 1 + 63) / 64 // the bits, then the syndrome's
	rows := osdChecks(f, n, nsym, words)
	for j, s := range synd {
		for b := range 8 {
			if s&(0x80>>b) != 0 {
				rows[8*j+b][nb/64] |= 1 << (nb % 64)
			}
		}
	}
	order := make([]int, nb)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(conf(a), conf(b)) })
	red := osdReduced{conf: conf, pivotOf: make([]int, 0, r)}
	inLRB := make([]bool, nb)
	for _, c := range order {
		k := len(red.pivotOf)
		if k == r {
			break
		}
		at := k
		for at < r && rows[at][c/64]>>(c%64)&1 == 0 {
			at++
		}
		if at == r {
			continue // dependent on the LRB already: an MRB bit
		}
		rows[k], rows[at] = rows[at], rows[k]
		for q := range r {
			if q != k && rows[q][c/64]>>(c%64)&1 != 0 {
				for w := range rows[q] {
					rows[q][w] ^= rows[k][w]
				}
			}
		}
		red.pivotOf = append(red.pivotOf, c)
		inLRB[c] = true
	}
	if len(red.pivotOf) < r {
		return osdReduced{}, false
	}
	col := func(c int) []uint64 { // column c of the reduced checks
		v := make([]uint64, (r+63)/64)
		for k := range r {
			if rows[k][c/64]>>(c%64)&1 != 0 {
				v[k/64] |= 1 << (k % 64)
			}
		}
		return v
	}
	red.s0 = col(nb)
	for _, c := range order {
		if len(red.flips) == osdFlip {
			break
		}
		if !inLRB[c] {
			red.flips = append(red.flips, c)
			red.cols = append(red.cols, col(c))
		}
	}
	return red, true
}

// best returns the candidate to take (the flip candidates a and b, −1 for none): of
// those whose LRB differences number at most osdMaxDiff for the candidates tried (the
// word as read, each flip candidate alone and each pair), the one whose differing bits are
// least sure in sum. False when none is close enough.
func (red *osdReduced) best() (int, int, bool) {
	l := len(red.flips)
	maxDiff := osdMaxDiff(len(red.pivotOf), 1+l+l*(l-1)/2)
	diff := make([]uint64, len(red.s0))
	bestA, bestB, bestCost := -1, -1, math.Inf(1)
	try := func(a, b int) {
		copy(diff, red.s0)
		cost := 0.0
		for _, x := range [2]int{a, b} {
			if x >= 0 {
				for w := range diff {
					diff[w] ^= red.cols[x][w]
				}
				cost += float64(red.conf(red.flips[x]))
			}
		}
		cnt := 0
		for _, w := range diff {
			cnt += bits.OnesCount64(w)
		}
		if cnt > maxDiff {
			return
		}
		for k, c := range red.pivotOf {
			if diff[k/64]>>(k%64)&1 != 0 {
				cost += float64(red.conf(c))
			}
		}
		if cost < bestCost {
			bestA, bestB, bestCost = a, b, cost
		}
	}
	try(-1, -1)
	for a := range l {
		try(a, -1)
		for b := a + 1; b < l; b++ {
			try(a, b)
		}
	}
	return bestA, bestB, !math.IsInf(bestCost, 1)
}

// differences returns the bits in which candidate (a, b) differs from the block as read:
// its flipped MRB bits and the LRB bits its reduced syndrome sets.
func (red *osdReduced) differences(a, b int) []int {
	diff := slices.Clone(red.s0)
	var out []int
	for _, x := range [2]int{a, b} {
		if x >= 0 {
			out = append(out, red.flips[x])
			for w := range diff {
				diff[w] ^= red.cols[x][w]
			}
		}
	}
	for k, c := range red.pivotOf {
		if diff[k/64]>>(k%64)&1 != 0 {
			out = append(out, c)
		}
	}
	return out
}

// osdKey names a block shape's parity checks (osdChecks).
type osdKey struct {
	f       *rsField
	n, nsym int
}

// osdCheckRows caches each block shape's parity checks (osdChecks).
var osdCheckRows sync.Map

// osdChecks returns a copy of the parity checks of a block of n codewords, nsym of them
// check codewords, over field f, one row per syndrome bit of words words: bit i of the
// block (codeword i/8, bit i%8 from the most significant) adds mask·α^((fcr+j)(n−1−p)) to
// syndrome j.
func osdChecks(f *rsField, n, nsym, words int) [][]uint64 {
	key := osdKey{f, n, nsym}
	c, ok := osdCheckRows.Load(key)
	if !ok {
		rows := make([]uint64, 8*nsym*words)
		for i := range 8 * n {
			p, mask := i/8, byte(0x80>>(i%8))
			for j := range nsym {
				v := f.mul(mask, f.pow((f.fcr+j)*(n-1-p)))
				for b := range 8 {
					if v&(0x80>>b) != 0 {
						rows[(8*j+b)*words+i/64] |= 1 << (i % 64)
					}
				}
			}
		}
		c, _ = osdCheckRows.LoadOrStore(key, rows)
	}
	flat := slices.Clone(c.([]uint64))
	out := make([][]uint64, 8*nsym)
	for k := range out {
		out[k] = flat[k*words : (k+1)*words]
	}
	return out
}

// osdFlip is how many of the least sure MRB bits osdSearch flips, alone and in pairs.
const osdFlip = 128

// osdMaxChecks bounds the parity-check bits (8·nsym) of a block osdSearch decodes: QR
// versions 1–4 and DataMatrix up to 26×26 have at most 26 check codewords a block.
const osdMaxChecks = 8 * 30

// osdFalse bounds the chance, per block, that osdSearch takes a codeword for a word near
// none: 2^−32, as chaseSearch's chaseFalse.
const osdFalse = 1.0 / (1 << 32)

// osdMaxDiff is the most LRB bits a candidate of osdSearch may differ in from a block of
// r parity-check bits, trials candidates tried: the largest d whose chance that a uniform
// reduced syndrome has at most d ones, P(Bin(r, ½) ≤ d), times trials stays under osdFalse.
func osdMaxDiff(r, trials int) int {
	// log of C(r, i)·2^−r, summed in the linear domain from i = 0 up.
	sum := 0.0
	lg := func(i int) float64 {
		a, _ := math.Lgamma(float64(r + 1))
		b, _ := math.Lgamma(float64(i + 1))
		c, _ := math.Lgamma(float64(r - i + 1))
		return a - b - c - float64(r)*math.Ln2
	}
	d := -1
	for i := 0; i <= r; i++ {
		sum += math.Exp(lg(i))
		if sum*float64(trials) >= osdFalse {
			break
		}
		d = i
	}
	return d
}
