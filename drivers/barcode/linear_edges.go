package barcode

import (
	"math"
	"slices"
)

// Bars read from their edges' positions rather than from a binarized row. Blur and motion
// thin a narrow bar, or widen it, by about the same amount at each of its edges, so element
// widths are off by a fraction of a module while the distance from one edge to the next
// edge of the same kind (bar start to bar start, bar end to bar end) is not: Code 128 is
// decoded from those four "similar edge" distances of each character, measured against the
// character's own width (ISO/IEC 15417's reference decode; perspective changes the module
// along the symbol), ITF by ranking the five bars and the five spaces of each digit pair (the
// two widest are wide). The characters read are drawn again as an ideal row, which gozxing's
// row decoders check (check character, quiet zones, lengths) and turn into text.

// edge is a derivative extremum of a profile: its sample, its sub-sample position and its
// signed strength (negative: a bar starts).
type edge struct {
	pos int
	at  float64
	v   float64
}

// findEdges returns the alternating extrema of p's derivative above 6 % of the strongest
// (of two neighbours of one sign, the stronger), with sub-sample positions.
func findEdges(p []float64) []edge {
	n := len(p)
	if n < 8 {
		return nil
	}
	der := make([]float64, n)
	var peak float64
	for i := 1; i < n-1; i++ {
		der[i] = p[i+1] - p[i-1]
		peak = max(peak, math.Abs(der[i]))
	}
	thr := 0.06 * peak
	edges := make([]edge, 0, 128)
	for i := 1; i < n-1; i++ {
		v := math.Abs(der[i])
		if v < thr || v < math.Abs(der[i-1]) || v <= math.Abs(der[i+1]) {
			continue
		}
		// Vertex of the parabola through the three magnitudes.
		a, c := math.Abs(der[i-1]), math.Abs(der[i+1])
		at := float64(i)
		if den := a - 2*v + c; den < 0 {
			at += 0.5 * (a - c) / den
		}
		e := edge{i, at, der[i]}
		if k := len(edges) - 1; k >= 0 && (edges[k].v < 0) == (der[i] < 0) {
			if v > math.Abs(edges[k].v) {
				edges[k] = e
			}
			continue
		}
		edges = append(edges, e)
	}
	return edges
}

// edgeRow reads the band profile p by its edges, with the enabled decoders, both ways round:
// the symbol as an ideal row for gozxing, or false.
func (d *Decoder) edgeRow(p []float64) ([]bool, bool) {
	w, st := edgeElements(pruneEdges(findEdges(p)))
	if len(w) < 20 {
		return nil, false
	}
	rev, rst := slices.Clone(w), slices.Clone(st)
	slices.Reverse(rev)
	slices.Reverse(rst)
	if len(rev)%2 == 0 {
		// It ended with a space: the reversed widths start with a bar.
		rev, rst = rev[1:], rst[1:]
	}
	for i, ws := range [][]float64{w, rev} {
		if d.opt.Formats&Code128 != 0 {
			if row, ok := code128EdgesWith(ws, !d.noRepairs); ok {
				return row, true
			}
		}
		if d.opt.Formats&ITF != 0 {
			ss := st
			if i == 1 {
				ss = rst
			}
			if row, ok := itfEdgesQuiet(ws, ss); ok {
				return row, true
			}
		}
	}
	// A blurred Code 128 or ITF whose narrow elements lost their edges: fitted
	// (c128_profile.go, itf_profile.go), at the lengths the options name; not while the
	// plain pass reads (fitsLater: the fits come after every candidate's cheap reads).
	if d.fitsLater {
		d.fitsSkipped = true
		return nil, false
	}
	d.bandFits++
	if d.opt.Formats&Code128 != 0 && len(d.opt.Code128Digits) > 0 {
		if row, ok := c128Profile(p, d.opt.Code128Digits); ok {
			return row, true
		}
	}
	// Not on a band of the smoothed pass: the 3×3 smoothing correlates neighbouring
	// samples' noise, and the fit's margins, counted in the residual's variance, then
	// overstate how sure each pair is (a held-out frame read a wrong 14-digit text on three
	// smoothed bands; TestSmoothedBandsFitNoITF). ITF has no check character to catch it.
	if d.opt.Formats&ITF != 0 && !d.smoothedBands {
		var long []int
		for _, n := range d.itfLengths() {
			if n >= itfFitMinDigits {
				long = append(long, n)
			}
		}
		if len(long) > 0 {
			return itfProfile(p, long)
		}
	}
	return nil, false
}

// pruneEdges removes pairs of adjacent edges both weaker than a third of the edges around
// them (the median strength of the nine nearest): JPEG blocks and sensor noise inside a wide
// bar or space, which would split it in three.
func pruneEdges(edges []edge) []edge { return pruneEdgesBelow(edges, 1.0/3) }

// pruneEdgesBelow is pruneEdges with the fraction of the neighbours' median strength under
// which a pair of edges is dropped.
func pruneEdgesBelow(edges []edge, frac float64) []edge {
	edges = slices.Clone(edges)
	mags := make([]float64, 0, 9)
	for k := 0; k+1 < len(edges); {
		mags = mags[:0]
		for i := max(0, k-4); i <= min(len(edges)-1, k+5); i++ {
			mags = append(mags, math.Abs(edges[i].v))
		}
		slices.Sort(mags)
		ref := mags[len(mags)/2]
		if max(math.Abs(edges[k].v), math.Abs(edges[k+1].v)) < frac*ref {
			edges = slices.Delete(edges, k, k+2)
			k = max(0, k-2)
			continue
		}
		k++
	}
	return edges
}

// edgeWidths returns the widths of the elements between the edges, from the first bar start
// on (bar, space, bar, …).
func edgeWidths(edges []edge) []float64 {
	w, _ := edgeElements(edges)
	return w
}

// edgeElements returns edgeWidths and the strengths of the edges around them: st[i] is the
// edge where element i starts, st[len(w)] the last one's end.
func edgeElements(edges []edge) (w, st []float64) {
	k := 0
	for k < len(edges) && edges[k].v >= 0 {
		k++
	}
	for ; k+1 < len(edges); k++ {
		w = append(w, edges[k+1].at-edges[k].at)
		st = append(st, math.Abs(edges[k].v))
	}
	if k < len(edges) && len(w) > 0 {
		st = append(st, math.Abs(edges[k].v))
	}
	return w, st
}

// quietNoise is how strong, against the edge that bounds a quiet zone (a bar's outer edge),
// an edge inside the quiet zone may be: sensor noise and paper texture. A faint symbol's
// quiet zone holds pairs of such edges (findEdges keeps any extremum over 6 % of the
// profile's strongest edge, and pruneEdges, whose reference is the nine nearest edges,
// keeps them beside the symbol's end, where those are mostly noise), which split it into
// elements narrower than a quiet zone.
const quietNoise = 0.3

// quietFrom reports whether the space w[i] and the elements beyond it (dir +1: after it, −1:
// before it) span need before an edge of at least quietNoise of the quiet zone's bounding
// edge (st, as edgeElements returns; nil: w[i] alone). Running off the profile counts as
// quiet, as a profile that ends in a space does.
func quietFrom(w, st []float64, i, dir int, need float64) bool {
	if st == nil || len(st) != len(w)+1 {
		return w[i] >= need
	}
	// The bounding edge: where the space starts (after a symbol) or ends (before one).
	ref := st[i]
	if dir < 0 {
		ref = st[i+1]
	}
	sum := 0.0
	for k := i; k >= 0 && k < len(w); k += dir {
		sum += w[k]
		if sum >= need {
			return true
		}
		// The edge between element k and the next one out.
		next := st[k+1]
		if dir < 0 {
			next = st[k]
		}
		if next >= quietNoise*ref {
			return false
		}
	}
	return true
}

// idealRow draws elements given in modules (bar first) as a row of 2 samples per module
// between quiet zones of 12 modules.
func idealRow(modules []int) []bool {
	var row []bool
	row = append(row, make([]bool, 24)...)
	for i, m := range modules {
		for range 2 * m {
			row = append(row, i%2 == 0)
		}
	}
	return append(row, make([]bool, 24)...)
}

// code128Similar maps a character's four similar-edge distances (modules) to its value.
var code128Similar = func() map[[4]int]int {
	m := make(map[[4]int]int, len(code128Patterns))
	for v, p := range code128Patterns {
		m[similarEdges(p)] = v
	}
	return m
}()

// similarEdges returns e1…e4 of an element pattern: the sums of adjacent element pairs.
func similarEdges(p []int) [4]int {
	return [4]int{p[0] + p[1], p[1] + p[2], p[2] + p[3], p[3] + p[4]}
}

// code128Module is the module of the character whose six elements begin w: a character is
// 11 modules wide.
func code128Module(w []float64) float64 {
	var t float64
	for _, x := range w[:6] {
		t += x
	}
	return t / 11
}

// code128Char reads the character of the six elements w (bar first): its value, or −1.
func code128Char(w []float64) int {
	mod := code128Module(w)
	var e [4]int
	for i := range e {
		e[i] = int(math.Round((w[i] + w[i+1]) / mod))
	}
	v, ok := code128Similar[e]
	if !ok {
		return -1
	}
	return v
}

// code128Edges reads a Code 128 symbol from element widths (bar first), from a start
// character after a quiet zone to the stop before one, and returns it as an ideal row; ok
// is false when no start leads to a stop through valid characters with the right check
// character. Each character is read from its similar-edge distances; where no start reads
// that way, again with each character matched against the widths this symbol's elements
// come out (code128Cal), for a symbol of modules under two pixels that blur spreads.
func code128Edges(w []float64) ([]bool, bool) { return code128EdgesWith(w, true) }

// code128EdgesWith is code128Edges, with the calibrated read (and its repairs) only when
// repairs is set.
func code128EdgesWith(w []float64, repairs bool) ([]bool, bool) {
	for _, calibrated := range []bool{false, true} {
		if calibrated && !repairs {
			break
		}
		for s := 0; s+6 <= len(w); s += 2 {
			if vals, ok := code128From(w, s, calibrated); ok {
				var mods []int
				for _, c := range vals {
					mods = append(mods, code128Patterns[c]...)
				}
				return idealRow(mods), true
			}
		}
	}
	return nil, false
}

// code128Repairs is the most characters a calibrated read may take other than as their
// similar-edge distances read them: the check character vouches for one changed character
// always, for two with a chance of 1 in 103 of a wrong pair passing, and a read still needs
// a second band to agree.
const code128Repairs = 2

// code128From reads the symbol whose start character begins at element s: its character
// values, start to stop.
func code128From(w []float64, s int, calibrated bool) ([]int, bool) {
	var cal code128Cal
	repairs := 0
	v := code128Char(w[s:])
	if v < 103 || v > 105 {
		if !calibrated {
			return nil, false
		}
		if v = cal.nearest(w[s:], 103, 106); v < 0 {
			return nil, false
		}
		repairs++
	}
	mod := code128Module(w[s:])
	if s > 0 && w[s-1] < quietModules*mod {
		return nil, false
	}
	vals := []int{v}
	cal.add(v, w[s:])
	j := s + 6
	for j+6 <= len(w) {
		c := code128Char(w[j:])
		if calibrated && c != 106 {
			if n := cal.nearest(w[j:], 0, 107); n >= 0 && n != c && (n < 103 || n == 106) {
				c = n
				repairs++
			}
		}
		if c < 0 || repairs > code128Repairs {
			return nil, false
		}
		cal.add(c, w[j:])
		vals = append(vals, c)
		mod = code128Module(w[j:])
		j += 6
		if c == 106 {
			break
		}
	}
	if len(vals) < 4 || vals[len(vals)-1] != 106 {
		return nil, false
	}
	// The stop's final bar, then the quiet zone.
	if j >= len(w) || w[j] < 1.2*mod || w[j] > 3*mod || (j+1 < len(w) && w[j+1] < quietModules*mod) {
		return nil, false
	}
	// Each character as wide as its neighbours (a piece of other bars read as characters).
	if !code128PitchSteady(w, s, len(vals)) {
		return nil, false
	}
	// Check character: the start's value plus each data character's value times its
	// position, modulo 103.
	sum := vals[0]
	for i := 1; i < len(vals)-2; i++ {
		sum += i * vals[i]
	}
	return vals, sum%103 == vals[len(vals)-2]
}

// code128Cal learns, from the characters of one symbol read so far, how wide its elements of
// 1–4 modules come out (in the character's own modules): at under two pixels a module, blur
// spreads a narrow element into its wide neighbours (a bar of one module reads 1.3, a space
// of two 1.7 beside it), enough to round a similar-edge distance to the wrong module.
type code128Cal struct {
	sum [5]float64
	n   [5]int
}

// add records the six elements w of character v.
func (c *code128Cal) add(v int, w []float64) {
	mod := code128Module(w)
	for i, m := range code128Patterns[v][:6] {
		c.sum[m] += w[i] / mod
		c.n[m]++
	}
}

// nearest returns the character of values lo to hi−1 whose elements, as wide as this
// symbol's elements of their widths have come out (as many modules before any), lie nearest
// the six elements w: within a quarter module each (root mean square) and nearer by half
// than any other; or −1.
func (c *code128Cal) nearest(w []float64, lo, hi int) int {
	var seen [5]float64
	for m := 1; m <= 4; m++ {
		seen[m] = float64(m)
		if c.n[m] > 0 {
			seen[m] = c.sum[m] / float64(c.n[m])
		}
	}
	var x [6]float64
	mod := code128Module(w)
	for i := range x {
		x[i] = w[i] / mod
	}
	best, second, bv := math.Inf(1), math.Inf(1), -1
	for v := lo; v < hi; v++ {
		p := code128Patterns[v]
		var y [6]float64
		var ty float64
		for i := range y {
			y[i] = seen[p[i]]
			ty += y[i]
		}
		var dist float64
		for i := range y {
			d := x[i] - 11*y[i]/ty
			dist += d * d
		}
		if dist < best {
			best, second, bv = dist, best, v
		} else if dist < second {
			second = dist
		}
	}
	if best > 6*0.25*0.25 || second < 2*best {
		return -1
	}
	return bv
}

// quietModules is the space (in modules, or narrow elements) before a start and after a stop
// that the edge decoders ask for: half the symbologies' quiet zone of 10, so that a read
// never starts or ends inside a longer symbol.
const quietModules = 5

// itfEdges reads an ITF symbol from element widths (bar first): after a quiet zone, a start
// of four narrow elements, digit pairs of ten interleaved elements whose two widest bars and
// two widest spaces are wide, and a stop (wide bar, narrow space, narrow bar) before a quiet
// zone. It returns the symbol as an ideal row (narrow 1, wide 3 modules).
func itfEdges(w []float64) ([]bool, bool) { return itfEdgesQuiet(w, nil) }

// itfEdgesQuiet is itfEdges with the edges' strengths (edgeElements): a quiet zone may hold
// edges of noise (quietFrom).
func itfEdgesQuiet(w, st []float64) ([]bool, bool) {
	for s := 0; s+4+10+3 <= len(w); s += 2 {
		// Start: two narrow bars alike, two narrow spaces alike (bars and spaces may differ
		// by ink spread or blur).
		sw := w[s : s+4] // not st: the quiet zones need the edges' strengths
		b, sp := (sw[0]+sw[2])/2, (sw[1]+sw[3])/2
		if max(sw[0], sw[2]) > 1.6*min(sw[0], sw[2]) || max(sw[1], sw[3]) > 1.6*min(sw[1], sw[3]) ||
			max(b, sp) > 3*min(b, sp) {
			continue
		}
		narrow := (b + sp) / 2
		if s > 0 && !quietFrom(w, st, s-1, -1, quietModules*narrow) {
			continue
		}
		mods := []int{1, 1, 1, 1}
		j := s + 4
		for j+10 <= len(w) {
			pair := w[j : j+10]
			var bars, spaces [5]float64
			for k := range 5 {
				bars[k], spaces[k] = pair[2*k], pair[2*k+1]
			}
			d1, nb, ok1 := itfDigit(bars, narrow)
			d2, ns, ok2 := itfDigit(spaces, narrow)
			if !ok1 || !ok2 {
				break
			}
			// The narrow width follows the symbol (perspective); bars and spaces together
			// cancel a bias of ink spread or blur.
			narrow = (nb + ns) / 2
			for k := range 5 {
				mods = append(mods, itfModules(itfPatterns[d1][k]), itfModules(itfPatterns[d2][k]))
			}
			j += 10
		}
		if j == s+4 || j+3 > len(w) {
			continue
		}
		// Stop: a wide bar, then a narrow space and bar, then the quiet zone.
		if w[j] < 1.5*narrow || w[j+1] > 1.8*narrow || w[j+2] > 1.8*narrow ||
			(j+3 < len(w) && !quietFrom(w, st, j+3, 1, quietModules*narrow)) {
			continue
		}
		return idealRow(append(mods, 3, 1, 1)), true
	}
	return nil, false
}

// itfDigit reads the digit of five elements (the bars or the spaces of a pair): the two
// widest are wide, and must stand clear of the three others, which must be about the
// narrow width of the symbol so far. It returns the digit and the mean narrow element.
func itfDigit(e [5]float64, narrow float64) (int, float64, bool) {
	idx := []int{0, 1, 2, 3, 4}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case e[a] > e[b]:
			return -1
		case e[a] < e[b]:
			return 1
		}
		return 0
	})
	wideMin, narrowMax := e[idx[1]], e[idx[2]]
	if wideMin < 1.4*narrowMax || narrowMax > 2.2*narrow || wideMin < 1.5*narrow {
		return 0, 0, false
	}
	var pat [5]bool
	pat[idx[0]], pat[idx[1]] = true, true
	for d, p := range itfPatterns {
		if p == pat {
			return d, (e[idx[2]] + e[idx[3]] + e[idx[4]]) / 3, true
		}
	}
	return 0, 0, false
}

func itfModules(wide bool) int {
	if wide {
		return 3
	}
	return 1
}

// itfPatterns are the digits' five elements, true = wide (ISO/IEC 16390).
var itfPatterns = [10][5]bool{
	{false, false, true, true, false}, // 0
	{true, false, false, false, true}, // 1
	{false, true, false, false, true}, // 2
	{true, true, false, false, false}, // 3
	{false, false, true, false, true}, // 4
	{true, false, true, false, false}, // 5
	{false, true, true, false, false}, // 6
	{false, false, false, true, true}, // 7
	{true, false, false, true, false}, // 8
	{false, true, false, true, false}, // 9
}

// code128Patterns are the element widths (modules, bar first) of the Code 128 values 0–106
// (ISO/IEC 15417 table 1; 103–105 the starts A, B, C, 106 the stop with its final bar).
var code128Patterns = [107][]int{
	{2, 1, 2, 2, 2, 2}, {2, 2, 2, 1, 2, 2}, {2, 2, 2, 2, 2, 1}, {1, 2, 1, 2, 2, 3}, {1, 2, 1, 3, 2, 2},
	{1, 3, 1, 2, 2, 2}, {1, 2, 2, 2, 1, 3}, {1, 2, 2, 3, 1, 2}, {1, 3, 2, 2, 1, 2}, {2, 2, 1, 2, 1, 3},
	{2, 2, 1, 3, 1, 2}, {2, 3, 1, 2, 1, 2}, {1, 1, 2, 2, 3, 2}, {1, 2, 2, 1, 3, 2}, {1, 2, 2, 2, 3, 1},
	{1, 1, 3, 2, 2, 2}, {1, 2, 3, 1, 2, 2}, {1, 2, 3, 2, 2, 1}, {2, 2, 3, 2, 1, 1}, {2, 2, 1, 1, 3, 2},
	{2, 2, 1, 2, 3, 1}, {2, 1, 3, 2, 1, 2}, {2, 2, 3, 1, 1, 2}, {3, 1, 2, 1, 3, 1}, {3, 1, 1, 2, 2, 2},
	{3, 2, 1, 1, 2, 2}, {3, 2, 1, 2, 2, 1}, {3, 1, 2, 2, 1, 2}, {3, 2, 2, 1, 1, 2}, {3, 2, 2, 2, 1, 1},
	{2, 1, 2, 1, 2, 3}, {2, 1, 2, 3, 2, 1}, {2, 3, 2, 1, 2, 1}, {1, 1, 1, 3, 2, 3}, {1, 3, 1, 1, 2, 3},
	{1, 3, 1, 3, 2, 1}, {1, 1, 2, 3, 1, 3}, {1, 3, 2, 1, 1, 3}, {1, 3, 2, 3, 1, 1}, {2, 1, 1, 3, 1, 3},
	{2, 3, 1, 1, 1, 3}, {2, 3, 1, 3, 1, 1}, {1, 1, 2, 1, 3, 3}, {1, 1, 2, 3, 3, 1}, {1, 3, 2, 1, 3, 1},
	{1, 1, 3, 1, 2, 3}, {1, 1, 3, 3, 2, 1}, {1, 3, 3, 1, 2, 1}, {3, 1, 3, 1, 2, 1}, {2, 1, 1, 3, 3, 1},
	{2, 3, 1, 1, 3, 1}, {2, 1, 3, 1, 1, 3}, {2, 1, 3, 3, 1, 1}, {2, 1, 3, 1, 3, 1}, {3, 1, 1, 1, 2, 3},
	{3, 1, 1, 3, 2, 1}, {3, 3, 1, 1, 2, 1}, {3, 1, 2, 1, 1, 3}, {3, 1, 2, 3, 1, 1}, {3, 3, 2, 1, 1, 1},
	{3, 1, 4, 1, 1, 1}, {2, 2, 1, 4, 1, 1}, {4, 3, 1, 1, 1, 1}, {1, 1, 1, 2, 2, 4}, {1, 1, 1, 4, 2, 2},
	{1, 2, 1, 1, 2, 4}, {1, 2, 1, 4, 2, 1}, {1, 4, 1, 1, 2, 2}, {1, 4, 1, 2, 2, 1}, {1, 1, 2, 2, 1, 4},
	{1, 1, 2, 4, 1, 2}, {1, 2, 2, 1, 1, 4}, {1, 2, 2, 4, 1, 1}, {1, 4, 2, 1, 1, 2}, {1, 4, 2, 2, 1, 1},
	{2, 4, 1, 2, 1, 1}, {2, 2, 1, 1, 1, 4}, {4, 1, 3, 1, 1, 1}, {2, 4, 1, 1, 1, 2}, {1, 3, 4, 1, 1, 1},
	{1, 1, 1, 2, 4, 2}, {1, 2, 1, 1, 4, 2}, {1, 2, 1, 2, 4, 1}, {1, 1, 4, 2, 1, 2}, {1, 2, 4, 1, 1, 2},
	{1, 2, 4, 2, 1, 1}, {4, 1, 1, 2, 1, 2}, {4, 2, 1, 1, 1, 2}, {4, 2, 1, 2, 1, 1}, {2, 1, 2, 1, 4, 1},
	{2, 1, 4, 1, 2, 1}, {4, 1, 2, 1, 2, 1}, {1, 1, 1, 1, 4, 3}, {1, 1, 1, 3, 4, 1}, {1, 3, 1, 1, 4, 1},
	{1, 1, 4, 1, 1, 3}, {1, 1, 4, 3, 1, 1}, {4, 1, 1, 1, 1, 3}, {4, 1, 1, 3, 1, 1}, {1, 1, 3, 1, 4, 1},
	{1, 1, 4, 1, 3, 1}, {3, 1, 1, 1, 4, 1}, {4, 1, 1, 1, 3, 1}, {2, 1, 1, 4, 1, 2}, {2, 1, 1, 2, 1, 4},
	{2, 1, 1, 2, 3, 2}, {2, 3, 3, 1, 1, 1, 2},
}
