package barcode

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Soft decisions for the matrix symbologies' own samplers (QR: qr_grid.go, DataMatrix:
// dm_sample.go): each module is decided against the modules around it and comes with a
// confidence; a Reed–Solomon block that does not correct as read gets its least sure
// codewords erased, then the weakest bits of its least sure codewords flipped
// (softCorrect).

// moduleBits decides the modules of a cols×rows grid of levels (row major): dark when the
// level is under the midpoint of the second darkest and second lightest level among the
// modules within r of it (a symbol's mask or randomisation spreads dark and light modules
// evenly, so the window holds both), or, where that window's range is under a tenth of the
// symbol's (a glare spot, a deep shadow: washed out), under the symbol's midpoint. Each
// decision comes with a confidence: the level's distance to the threshold over the
// window's range, scaled down where that range is under half the symbol's; 0 where washed
// out; a third of it where the module is lit well above the paper (a glare spot's halo);
// a tenth of it under a cover (coveredModules).
func moduleBits(lv []float64, cols, rows, r int) (dark []bool, conf []float64) {
	sorted := slices.Clone(lv)
	slices.Sort(sorted)
	glo, ghi := sorted[len(sorted)/10], sorted[len(sorted)*9/10]
	gmid := (glo + ghi) / 2
	// Paper and ink: the median light and dark module. A module well above the paper is lit
	// by glare, which also lightens the dark modules beside it: unsure, whatever it reads.
	mid, _ := slices.BinarySearch(sorted, gmid)
	ink, paper := sorted[mid/2], sorted[(mid+len(sorted))/2]
	lit := paper + 0.25*(paper-ink)
	dark = make([]bool, len(lv))
	conf = make([]float64, len(lv))
	for j := range rows {
		for i := range cols {
			lo, hi := windowRange(lv, cols, rows, i, j, r)
			m := j*cols + i
			thr := (lo + hi) / 2
			if hi-lo < 0.1*(ghi-glo) {
				thr = gmid
			} else {
				conf[m] = math.Abs(lv[m]-thr) / (hi - lo) * min(1, (hi-lo)/(0.5*(ghi-glo)))
				if lv[m] > lit {
					conf[m] *= 0.3
				}
			}
			dark[m] = lv[m] < thr
		}
	}
	coveredModules(lv, cols, rows, conf)
	return dark, conf
}

// windowRange returns the second darkest and second lightest level of the modules within
// r of module (i, j).
func windowRange(lv []float64, cols, rows, i, j, r int) (lo, hi float64) {
	lo1, lo2 := math.Inf(1), math.Inf(1)
	hi1, hi2 := math.Inf(-1), math.Inf(-1)
	for y := max(0, j-r); y <= min(rows-1, j+r); y++ {
		for _, v := range lv[y*cols+max(0, i-r) : y*cols+min(cols-1, i+r)+1] {
			if v < lo1 {
				lo1, lo2 = v, lo1
			} else if v < lo2 {
				lo2 = v
			}
			if v > hi1 {
				hi1, hi2 = v, hi1
			} else if v > hi2 {
				hi2 = v
			}
		}
	}
	return lo2, hi2
}

// coveredModules lowers the confidence of the modules under something that hides the
// symbol (a finger, a sticker): where two neighbouring 3×3 windows of modules each span
// under a quarter of the levels around them (7×7 modules), or lie within coverPlane of
// that span from a plane (a finger shaded by the light across it spans more), which a
// symbol's mask makes rare, the modules of those windows and one module round them are
// unsure, whatever they read. The comparison is local, so that a shadow's lower contrast is
// not taken for a cover.
func coveredModules(lv []float64, cols, rows int, conf []float64) {
	if cols < 7 || rows < 7 {
		return
	}
	span := func(i, j, r int) float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for y := max(0, j-r); y <= min(rows-1, j+r); y++ {
			for _, v := range lv[y*cols+max(0, i-r) : y*cols+min(cols-1, i+r)+1] {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		return hi - lo
	}
	flat := make([]bool, len(lv))
	for j := 1; j < rows-1; j++ {
		for i := 1; i < cols-1; i++ {
			s7 := span(i, j, 3)
			flat[j*cols+i] = span(i, j, 1) < 0.25*s7 || planeResidual(lv, cols, i, j) < coverPlane*s7
		}
	}
	for j := 1; j < rows-1; j++ {
		for i := 1; i < cols-1; i++ {
			m := j*cols + i
			if !flat[m] || !(flat[m-1] || flat[m+1] || flat[m-cols] || flat[m+cols]) {
				continue
			}
			for y := max(0, j-2); y <= min(rows-1, j+2); y++ {
				for x := max(0, i-2); x <= min(cols-1, i+2); x++ {
					conf[y*cols+x] *= 0.1
				}
			}
		}
	}
}

// softCodewords packs the decided modules into codewords: bits[k] lists codeword k's
// modules, most significant bit first (−1: none). It returns each codeword with its
// confidence (that of its least sure module), the bit read from that module, and the bits
// read from sure modules (confidence ≥ softSure).
func softCodewords(dark []bool, conf []float64, bits [][8]int) (raw []byte, sc []softCodeword) {
	raw, sc = make([]byte, len(bits)), make([]softCodeword, len(bits))
	for k, mods := range bits {
		sc[k].rel = 1
		for b, m := range mods {
			raw[k] <<= 1
			sc[k].conf[b] = 1
			if m < 0 {
				continue
			}
			sc[k].conf[b] = float32(conf[m])
			if dark[m] {
				raw[k] |= 1
			}
			if conf[m] < sc[k].rel {
				sc[k].rel, sc[k].weak = conf[m], 0x80>>b
			}
			if conf[m] >= softSure {
				sc[k].sure |= 0x80 >> b
			}
			sc[k].doubt += 1 - min(conf[m], softSure)/softSure
			sc[k].trust[b] = float32(bitTrust(conf[m]))
		}
	}
	return raw, sc
}

// softCodeword is what the modules say of one codeword besides its value.
type softCodeword struct {
	rel   float64    // the confidence of its least sure module
	doubt float64    // the sum over its modules of how far each is from sure (0–8)
	trust [8]float32 // per bit, MSB first, the chance that it reads right (bitTrust); 0: no module
	conf  [8]float32 // per bit, MSB first, its module's confidence (1: no module)
	weak  byte       // the bit read from that module
	sure  byte       // the bits read from sure modules
}

// softSure is the confidence from which a module's reading counts as evidence against a
// correction that changes it.
const softSure = 0.3

// softCorrect corrects one Reed–Solomon block cw (nsym check codewords) whose codewords come
// with what their modules say (sc): as read, then with its unsure codewords (under
// softEraseBelow) erased a few more at a time, with rsSlack check codewords to spare, in
// two orders: least sure module first (a codeword with one weak bit), then most doubtful
// codeword first (one whose modules are all weak: under a glare spot or a finger, where
// many tie at no confidence); then flipSearch. A correction with erasures must also leave
// minEvidence bits of evidence (softEvidence). It returns the corrected block.
func softCorrect(f *rsField, cw []byte, nsym int, sc []softCodeword, minEvidence float64) ([]byte, bool) {
	if !rsShapeOK(len(cw), nsym, 0) {
		return cw, false
	}
	synd, zero := f.syndromes(cw, nsym)
	if zero {
		return cw, true
	}
	var unsure []int
	for p := range cw {
		if sc[p].rel < softEraseBelow {
			unsure = append(unsure, p)
		}
	}
	slices.SortStableFunc(unsure, func(a, c int) int { return cmp.Compare(sc[a].rel, sc[c].rel) })
	doubtful := slices.Clone(unsure)
	slices.SortStableFunc(doubtful, func(a, c int) int { return cmp.Compare(sc[c].doubt, sc[a].doubt) })
	for pass, order := range [][]int{unsure, doubtful} {
		for rho := pass; rho <= min(len(order), nsym-rsSlack); rho++ {
			try := slices.Clone(cw)
			errs, ok := f.correctSyndromes(try, synd, order[:rho])
			if ok && softEvidence(nsym-2*errs-rho, cw, try, order[:rho], sc) >= minEvidence {
				return try, true
			}
		}
	}
	return flipSearch(f, cw, synd, unsure, sc)
}

// softEvidence is how many bits vouch for a correction of cw into fixed that left spare
// check codewords unused with the erased codewords: 8 per spare check codeword, plus what
// the bits of the erased codewords say. A word that no codeword is near corrects with s
// spare check codewords about once in 2^(8s), and gets the erased codewords' values at
// random, each bit kept with probability ½. Two statistics of those bits, the larger less
// one bit (either may pass: together they pass a word at random under 1.5 × 2^−e):
//   - the binomial tail of the sure bits (confidence ≥ softSure): keeping all but k of m
//     happens once in 2^m / Σ_{i≤k} C(m, i);
//   - the likelihood ratio of every bit, log₂ 2t for a bit kept and log₂ 2(1−t) for one
//     changed, t its trust (bitTrust): its 2^ratio has mean 1 for a word at random, so that
//     it reaches e under once in 2^e (Markov), whatever the trust; a bit of some trust that
//     a right correction keeps adds evidence where the sure bits alone are too few.
func softEvidence(spare int, cw, fixed []byte, erased []int, sc []softCodeword) float64 {
	m, k := 0, 0
	llr := 8 * float64(spare)
	for _, p := range erased {
		changed := cw[p] ^ fixed[p]
		m += bits.OnesCount8(sc[p].sure)
		k += bits.OnesCount8(sc[p].sure & changed)
		for b, t := range sc[p].trust {
			switch {
			case t == 0:
			case changed&(0x80>>b) != 0:
				llr += math.Log2(2 * (1 - float64(t)))
			default:
				llr += math.Log2(2 * float64(t))
			}
		}
	}
	tail := 8*float64(spare) + float64(m) - math.Log2(binomialHead(m, k))
	return max(tail, llr-1)
}

// bitTrust is the chance that a module of confidence c reads right, as measured on the
// DataMatrix tuning frames under glare, a finger, shadow and low contrast (2000 modules of
// the soft reads' grids): 0.7 under 0.1, 0.8 to 0.2, 0.93 to softSure, then 0.98 (a grid a
// fraction of a module off reads some modules confidently wrong).
func bitTrust(c float64) float64 {
	switch {
	case c >= softSure:
		return 0.98
	case c >= 0.2:
		return 0.93
	case c >= 0.1:
		return 0.8
	}
	return 0.7
}

// binomialHead is Σ_{i≤k} C(m, i), the number of ways to change at most k of m bits.
func binomialHead(m, k int) float64 {
	sum, c := 0.0, 1.0
	for i := 0; i <= k && i <= m; i++ {
		sum += c
		c *= float64(m-i) / float64(i+1)
	}
	return sum
}

// flipSearch looks for the block's codeword among the words that differ from cw in the
// least sure bit of some of its least sure codewords (unsure, least sure first): each of the
// 2^softFlips − 1 combinations of the first softFlips of them is tried with errors corrected
// only, never erasures, so that every trial keeps rsSlack check codewords to spare and the
// chance of a false read over all the trials stays under 10⁻⁶ even for a block of 5 check
// codewords.
func flipSearch(f *rsField, cw, base []byte, unsure []int, sc []softCodeword) ([]byte, bool) {
	t := min(len(unsure), softFlips)
	n, nsym := len(cw), len(base)
	// Flipping bits b of codeword p adds b·α^((fcr+j)(n−1−p)) to syndrome j (base: the
	// word's): each trial's syndromes are the word's plus those of its flips, and most
	// trials end at Berlekamp–Massey.
	delta := make([][]byte, t)
	for i, p := range unsure[:t] {
		delta[i] = make([]byte, nsym)
		for j := range nsym {
			delta[i][j] = f.mul(sc[p].weak, f.pow((f.fcr+j)*(n-1-p)))
		}
	}
	try, synd := make([]byte, n), make([]byte, nsym)
	for mask := 1; mask < 1<<t; mask++ {
		copy(try, cw)
		copy(synd, base)
		for i, p := range unsure[:t] {
			if mask&(1<<i) != 0 {
				try[p] ^= sc[p].weak
				for j, d := range delta[i] {
					synd[j] ^= d
				}
			}
		}
		if !slices.ContainsFunc(synd, func(s byte) bool { return s != 0 }) {
			return try, true
		}
		if _, ok := f.correctSyndromes(try, synd, nil); ok {
			return try, true
		}
	}
	return cw, false
}

// softFlips is the number of least sure codewords whose weakest bit flipSearch flips.
const softFlips = 8

// softEraseBelow is the confidence under which a codeword may be erased or flipped.
const softEraseBelow = 0.2

// coverPlane is the share of the levels around (7×7 modules) within which a 3×3 window's
// levels lie from their plane under a shaded cover: a window holding dark and light
// modules lies a third of the contrast or more from any plane.
const coverPlane = 0.15

// planeResidual is the largest distance of the 3×3 window of module levels around (i, j)
// from the plane fitted to them (least squares): small under a shaded cover, where the
// levels follow the light, and a third of the contrast or more wherever the window holds
// both dark and light modules.
func planeResidual(lv []float64, cols, i, j int) float64 {
	var mean, gx, gy float64
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			v := lv[(j+dy)*cols+i+dx]
			mean += v
			gx += float64(dx) * v
			gy += float64(dy) * v
		}
	}
	mean, gx, gy = mean/9, gx/6, gy/6
	var worst float64
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			fit := mean + gx*float64(dx) + gy*float64(dy)
			worst = max(worst, math.Abs(lv[(j+dy)*cols+i+dx]-fit))
		}
	}
	return worst
}
