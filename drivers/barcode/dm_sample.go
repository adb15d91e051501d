package barcode

import (
	"math"
	"slices"
	"strconv"

	"github.com/makiuchi-d/gozxing"
	dmdecoder "github.com/makiuchi-d/gozxing/datamatrix/decoder"
)

// The sampler of our DataMatrix reader: given a symbol's outline (dm_detect.go), it finds
// which corner holds the L finder and how many modules the symbol has (the ECC 200 sizes
// whose timing patterns best match the image), corrects each row's and column's position
// with the timing patterns (curved paper, perspective the corners do not describe), reads
// each module against its neighbourhood, and hands the module matrix to gozxing's
// DataMatrix decoder (Reed–Solomon and the text): only a matrix that corrects counts.

// dmSizes are the ECC 200 symbol sizes gozxing decodes (ISO/IEC 16022 table 7 and the
// rectangular extensions of ISO/IEC 21471), rows × columns.
var dmSizes = [][2]int{
	{10, 10}, {12, 12}, {14, 14}, {16, 16}, {18, 18}, {20, 20}, {22, 22}, {24, 24}, {26, 26},
	{32, 32}, {36, 36}, {40, 40}, {44, 44}, {48, 48}, {52, 52}, {64, 64}, {72, 72}, {80, 80},
	{88, 88}, {96, 96}, {104, 104}, {120, 120}, {132, 132}, {144, 144},
	{8, 18}, {8, 32}, {12, 26}, {12, 36}, {16, 36}, {16, 48},
	{8, 48}, {8, 64}, {8, 80}, {8, 96}, {8, 120}, {8, 144}, {12, 64}, {12, 88}, {16, 64},
	{20, 36}, {20, 44}, {20, 64}, {22, 48}, {24, 48}, {24, 64}, {26, 40}, {26, 48}, {26, 64},
}

// dmHomography maps module coordinates (u right, v down; the symbol spans [0, cols]×[0,
// rows]) to crop pixels.
type dmHomography struct {
	a11, a21, a31, a12, a22, a32, a13, a23 float64
	cols, rows                             float64
}

// newDMHomography returns the map taking (0,0), (cols,0), (cols,rows), (0,rows) to tl,
// tr, br, bl (the square-to-quadrilateral solution, after Heckbert).
func newDMHomography(tl, tr, br, bl dmPt, cols, rows int) dmHomography {
	h := dmHomography{cols: float64(cols), rows: float64(rows)}
	dx3 := tl.x - tr.x + br.x - bl.x
	dy3 := tl.y - tr.y + br.y - bl.y
	dx1, dx2 := tr.x-br.x, bl.x-br.x
	dy1, dy2 := tr.y-br.y, bl.y-br.y
	if den := dx1*dy2 - dx2*dy1; math.Abs(den) > 1e-9 {
		h.a13 = (dx3*dy2 - dx2*dy3) / den
		h.a23 = (dx1*dy3 - dx3*dy1) / den
	}
	h.a11 = tr.x - tl.x + h.a13*tr.x
	h.a21 = bl.x - tl.x + h.a23*bl.x
	h.a31 = tl.x
	h.a12 = tr.y - tl.y + h.a13*tr.y
	h.a22 = bl.y - tl.y + h.a23*bl.y
	h.a32 = tl.y
	return h
}

// at maps module coordinates (u, v) to crop pixels.
func (h *dmHomography) at(u, v float64) (float64, float64) {
	s, t := u/h.cols, v/h.rows
	d := h.a13*s + h.a23*t + 1
	if math.Abs(d) < 1e-9 {
		d = 1e-9
	}
	return (h.a11*s + h.a21*t + h.a31) / d, (h.a12*s + h.a22*t + h.a32) / d
}

// dmFit is one hypothesis about a symbol: where its L corner is, its size, and how well its
// timing patterns match.
type dmFit struct {
	k          int // index of the L corner (the symbol's bottom left) in the quad
	rows, cols int
	score      float64
	corners    [4]dmPt // top left, top right, bottom right, bottom left
	h          dmHomography
}

// dmFits returns the plausible (corner, size) hypotheses for outline q in the smoothed crop
// b, best first: those whose both timing patterns correlate with the image and whose L
// sides are dark.
func dmFits(b []float32, w, hh int, q dmQuad) []dmFit {
	var fits []dmFit
	var vals []float64
	for k := range 4 {
		bl, tl, tr, br := q[k], q[(k+1)%4], q[(k+2)%4], q[(k+3)%4]
		fits = dmFitsAt(b, w, hh, k, bl, tl, tr, br, false, fits, &vals)
		// The outline may run on beyond the symbol on one side (clutter in the quiet zone
		// grouped with it): with the L at this corner, a square symbol's arms are as long
		// as each other, so the longer arm is also tried cut to the shorter one's length.
		la, lb := math.Hypot(tl.x-bl.x, tl.y-bl.y), math.Hypot(br.x-bl.x, br.y-bl.y)
		switch {
		case la > dmCutArm*lb:
			f := lb / la
			tl, tr = dmLerp(bl, tl, f), dmLerp(br, tr, f)
		case lb > dmCutArm*la:
			f := la / lb
			br, tr = dmLerp(bl, br, f), dmLerp(tl, tr, f)
		default:
			continue
		}
		fits = dmFitsAt(b, w, hh, k, bl, tl, tr, br, true, fits, &vals)
	}
	slices.SortFunc(fits, func(a, b dmFit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return fits
}

// dmCutArm is how much longer than the other an outline's arm from a corner must be for
// dmFits to try it cut to the other's length (a square symbol seen at a slant keeps its
// arms within about 15 % of each other in the third generator's perspective).
const dmCutArm = 1.2

// dmLerp is the point a fraction f of the way from a to b.
func dmLerp(a, b dmPt, f float64) dmPt { return dmPt{a.x + f*(b.x-a.x), a.y + f*(b.y-a.y)} }

// dmFitsAt appends to fits the sizes (square ones only when squareOnly) whose timing
// patterns match the outline with its L corner bl (and tl, tr, br round it), as corner k
// of the outline.
func dmFitsAt(b []float32, w, hh, k int, bl, tl, tr, br dmPt, squareOnly bool, fits []dmFit, vals *[]float64) []dmFit {
	top := (math.Hypot(tr.x-tl.x, tr.y-tl.y) + math.Hypot(br.x-bl.x, br.y-bl.y)) / 2
	left := (math.Hypot(bl.x-tl.x, bl.y-tl.y) + math.Hypot(br.x-tr.x, br.y-tr.y)) / 2
	for _, sz := range dmSizes {
		rows, cols := sz[0], sz[1]
		if squareOnly && rows != cols {
			continue
		}
		// Aspect within a factor 1.6 (tilt foreshortens), modules at least 1.2 pixels.
		if r := (top / left) / (float64(cols) / float64(rows)); r > 1.6 || r < 1/1.6 {
			continue
		}
		if top/float64(cols) < 1.2 || left/float64(rows) < 1.2 {
			continue
		}
		h := newDMHomography(tl, tr, br, bl, cols, rows)
		score := dmTimingScore(b, w, hh, &h, cols, rows, vals)
		if score > dmMinTiming {
			fits = append(fits, dmFit{k: k, rows: rows, cols: cols, score: score,
				corners: [4]dmPt{tl, tr, br, bl}, h: h})
		}
	}
	return fits
}

// dmTimingScore is the lower of the two timing patterns' agreement with their expected
// alternation (top row dark at even columns, right column dark at odd rows), or 0 when the
// L sides are not darker than the quiet zone beside them. Agreement is measured on each
// module's difference to the mean of its two neighbours, so that light falling off across
// the symbol (vignetting, a gradient, a shadow) does not count: Σ ±d / Σ |d|, 1 for a
// perfect alternation, about 0 for data.
func dmTimingScore(b []float32, w, hh int, h *dmHomography, cols, rows int, buf *[]float64) float64 {
	// A module's value: the mean of five points within it (noise).
	sample := func(u, v float64) float64 {
		var sum float64
		for _, o := range dmModuleOffsets {
			x, y := h.at(u+o[0], v+o[1])
			sum += dmAt(b, w, hh, x, y)
		}
		return sum / 5
	}
	var amp float64
	agree := func(n int, at func(i int) float64, dark func(i int) bool) float64 {
		vals := (*buf)[:0]
		for i := range n {
			vals = append(vals, at(i))
		}
		*buf = vals
		var sum, abs float64
		for i := 1; i < n-1; i++ {
			d := vals[i] - (vals[i-1]+vals[i+1])/2
			if dark(i) {
				d = -d
			}
			sum += d
			abs += math.Abs(d)
		}
		if abs == 0 {
			return 0
		}
		amp += sum / float64(n-2)
		return sum / abs
	}
	cTop := agree(cols, func(i int) float64 { return sample(float64(i)+0.5, 0.5) },
		func(i int) bool { return i%2 == 0 })
	if cTop <= dmMinTiming {
		return 0
	}
	cRight := agree(rows, func(i int) float64 { return sample(float64(cols)-0.5, float64(i)+0.5) },
		func(i int) bool { return i%2 == 1 })
	score := min(cTop, cRight)
	if score <= dmMinTiming {
		return 0
	}
	// The L: most of its modules (a glare spot may touch one) clearly darker than the
	// quiet zone just outside them. amp is about the timing's light-dark difference.
	amp /= 2
	darkL, n := 0, 0
	for i := range rows {
		n++
		darkL += boolInt(sample(-0.75, float64(i)+0.5)-sample(0.5, float64(i)+0.5) > 0.3*amp)
	}
	for j := range cols {
		n++
		darkL += boolInt(sample(float64(j)+0.5, float64(rows)+0.75)-sample(float64(j)+0.5, float64(rows)-0.5) > 0.3*amp)
	}
	if darkL < n*3/4 {
		return 0
	}
	return score
}

// dmMinTiming is the agreement both timing patterns need for a hypothesis to be sampled:
// symbols in the frame sets measure 0.6 and more, data and clutter rarely over 0.3.
const dmMinTiming = 0.45

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dmSampler reads the modules of one hypothesis.
type dmSampler struct {
	c          *gray
	fit        dmFit
	du, dv     []float64 // per column and per row offsets of the module centres
	vals       []float64 // module means, row major
	rows, cols int
}

func newDMSampler(c *gray, b []float32, fit dmFit, track bool) *dmSampler {
	s := &dmSampler{c: c, fit: fit, rows: fit.rows, cols: fit.cols}
	s.du = make([]float64, s.cols)
	s.dv = make([]float64, s.rows)
	h := &fit.h
	if track {
		at := func(u, v float64) float64 {
			x, y := h.at(u, v)
			return dmAt(b, c.w, c.h, x, y)
		}
		// Top row from the left (the L end: dark first); right column from the bottom
		// (the L end: dark first), mapped back to rows counted from the top.
		if off := trackTiming(s.cols, func(t float64) float64 { return at(t, 0.5) }, true); off != nil {
			copy(s.du, off)
		}
		if off := trackTiming(s.rows, func(t float64) float64 { return at(float64(s.cols)-0.5, float64(s.rows)-t) }, true); off != nil {
			for i := range s.rows {
				s.dv[s.rows-1-i] = -off[i]
			}
		}
	}
	s.vals = make([]float64, s.rows*s.cols)
	for i := range s.rows {
		for j := range s.cols {
			u, v := float64(j)+0.5+s.du[j], float64(i)+0.5+s.dv[i]
			var sum float64
			for _, o := range dmModuleOffsets {
				x, y := h.at(u+o[0], v+o[1])
				if x != x || y != y { // NaN: a degenerate outline
					x, y = 0, 0
				}
				sum += c.at(x, y)
			}
			s.vals[i*s.cols+j] = sum / 5
		}
	}
	return s
}

// dmThreshold is a way to tell dark modules from light ones: each module against the
// modules within r of it (a (2r+1)² window), either their mean or, with twoMeans, the
// midpoint between the means of the window's dark and light modules (two rounds of
// 2-means from the mean: the window need not be half dark).
type dmThreshold struct {
	r        int
	twoMeans bool
}

// dmThresholds are tried in turn until one reads.
var dmThresholds = []dmThreshold{{1, false}, {2, true}, {3, false}}

// bits thresholds the modules.
func (s *dmSampler) bits(th dmThreshold) *gozxing.BitMatrix {
	bm, err := gozxing.NewBitMatrix(s.cols, s.rows)
	if err != nil {
		return nil
	}
	r := th.r
	for i := range s.rows {
		for j := range s.cols {
			var sum float64
			n := 0
			y0, y1 := max(0, i-r), min(s.rows-1, i+r)
			x0, x1 := max(0, j-r), min(s.cols-1, j+r)
			for y := y0; y <= y1; y++ {
				for _, v := range s.vals[y*s.cols+x0 : y*s.cols+x1+1] {
					sum += v
					n++
				}
			}
			thr := sum / float64(n)
			for round := 0; th.twoMeans && round < 2; round++ {
				var sd, sl float64
				var nd, nl int
				for y := y0; y <= y1; y++ {
					for _, v := range s.vals[y*s.cols+x0 : y*s.cols+x1+1] {
						if v < thr {
							sd += v
							nd++
						} else {
							sl += v
							nl++
						}
					}
				}
				if nd == 0 || nl == 0 {
					break
				}
				thr = (sd/float64(nd) + sl/float64(nl)) / 2
			}
			if s.vals[i*s.cols+j] < thr {
				bm.Set(j, i)
			}
		}
	}
	return bm
}

// dmModuleOffsets are the points averaged for a module's value, in modules from its
// centre: the centre and four points 0.22 module away diagonally.
var dmModuleOffsets = [5][2]float64{{0, 0}, {-0.22, -0.22}, {0.22, -0.22}, {-0.22, 0.22}, {0.22, 0.22}}

// dmMaxCrop is the largest crop side our DataMatrix reader searches: its cost grows with
// the area, and a larger region (a page of text, a striped mat, bars, a ticket with
// clutter) is searched in a reduced crop (dmCrop).
const dmMaxCrop = 400

// dmCrop returns the crop c (made by crop at scale k, half side s frame pixels) or, when it
// is larger than dmMaxCrop, the same region again at a scale that fits.
func dmCrop(c *gray, crop func(k float64) gray, s float64) *gray {
	if c.w <= dmMaxCrop && c.h <= dmMaxCrop {
		return c
	}
	r := crop(float64(dmMaxCrop-1) / (2 * s))
	return &r
}

// dmMaxFits bounds the hypotheses sampled per outline (each costs a Reed–Solomon attempt).
const dmMaxFits = 2

// decodeDM reads a DataMatrix symbol from a matrix candidate's crop with our detector and
// sampler: every outline, its best hypotheses, each sampled with and without the timing
// correction and thresholded locally then globally, until gozxing's decoder corrects one.
func (d *Decoder) decodeDM(c *gray) (Result, bool) {
	s := d.newDMSearch(c)
	if s == nil {
		return Result{}, false
	}
	return d.dmRest(s)
}

// dmSearch is our DataMatrix reader's progress on one crop, so that its search can be cut in
// two (dmQuick, then dmRest): the detector (its outlines made lazily) and the hypotheses the
// quick look read only by hard thresholds.
type dmSearch struct {
	c      *gray
	det    *dmDetector
	quick  [][]dmFit // per outline looked at quickly, its hypotheses (at most dmMaxFits)
	looked bool      // dmQuick ran
}

// newDMSearch prepares our DataMatrix reader on crop c; nil when it is not to run (the
// format off, the crop too large or too small, no time left for it).
func (d *Decoder) newDMSearch(c *gray) *dmSearch {
	if d.opt.Formats&DataMatrix == 0 || c.w > dmMaxCrop || c.h > dmMaxCrop || !d.affords(c.w*c.h) {
		return nil
	}
	det := newDMDetector(c)
	if det == nil {
		return nil
	}
	return &dmSearch{c: c, det: det}
}

// dmQuickOutlines is how many outlines dmQuick looks at.
const dmQuickOutlines = 2

// dmQuick is the cheap first look of our DataMatrix reader (the plain pass of a small
// candidate under a time budget): the first dmQuickOutlines outlines of the finest grouping, each of their
// best hypotheses as fitted, tracked then not, thresholded (dmReadHard). It reads most
// symbols (on the third generator's frames, nine reads in ten of our reader are the first
// outline's first hypothesis thresholded so); what it leaves (the corners polished, soft
// decisions, the coarser groupings' outlines) is dmRest's, after the fitted pass.
func (d *Decoder) dmQuick(s *dmSearch) (Result, bool) {
	s.looked = true
	c, b := s.c, s.det.blur
	for len(s.quick) < dmQuickOutlines && !d.expired() {
		q, ok := s.det.nextOfScale(1)
		if !ok {
			break
		}
		fits := dmFits(b, c.w, c.h, q)
		d.noteDMLateQuad(c, b, q)
		fits = fits[:min(len(fits), dmMaxFits)]
		s.quick = append(s.quick, fits)
		for _, fit := range fits {
			for _, track := range []bool{true, false} {
				if res, ok := d.dmReadHard(newDMSampler(c, b, fit, track)); ok {
					return res, true
				}
			}
		}
	}
	return Result{}, false
}

// dmRest is the rest of our DataMatrix reader's search after dmQuick (or all of it): the
// quick look's hypotheses with soft decisions and polished, then every other outline, each
// of its best hypotheses as fitted and then (the best of a clear timing only) with its
// corners polished on the fixed pattern, each sampled with the rows and columns tracked
// along the timing patterns and without, thresholded then soft.
func (d *Decoder) dmRest(s *dmSearch) (Result, bool) {
	c, b := s.c, s.det.blur
	for _, fits := range s.quick {
		if d.expired() {
			return Result{}, false
		}
		if res, ok := d.dmReadFits(c, b, fits, true); ok {
			return res, true
		}
	}
	s.quick = nil
	for q, ok := s.det.next(); ok && !d.expired(); q, ok = s.det.next() { // an outline costs up to a few ms
		fits := dmFits(b, c.w, c.h, q)
		d.noteDMLateQuad(c, b, q)
		if res, ok := d.dmReadFits(c, b, fits, false); ok {
			return res, true
		}
	}
	return Result{}, false
}

// dmReadFits reads an outline's best hypotheses (dmMaxFits of fits): as fitted, then (the
// best hypothesis of a clear timing only) with the corners polished on the fixed pattern,
// then polished further on all the modules (dmPolishModules); each with the rows and columns
// tracked along the timing patterns, then without. With looked (dmQuick thresholded them as
// fitted), those as fitted get soft decisions only.
func (d *Decoder) dmReadFits(c *gray, b []float32, fits []dmFit, looked bool) (Result, bool) {
	for i, fit := range fits {
		if i >= dmMaxFits {
			break
		}
		var tried []dmFit // its grids, for the least-squares reads (noteDMLate)
		for polish := range 3 {
			if polish > 0 && (i > 0 || fit.score < 0.6 || d.expired()) {
				break
			}
			switch polish {
			case 1:
				fit = dmPolish(b, c.w, c.h, fit)
			case 2:
				fit = dmPolishModules(b, c.w, c.h, fit, d.expired)
			}
			tried = append(tried, fit)
			for _, track := range []bool{true, false} {
				sm := newDMSampler(c, b, fit, track)
				if looked && polish == 0 {
					if res, ok := d.dmSoftRead(sm); ok {
						return res, true
					}
					continue
				}
				if res, ok := d.dmRead(sm); ok {
					return res, true
				}
			}
		}
		d.noteDMLate(c, b, tried)
	}
	return Result{}, false
}

// decode2DOnly is decode2D restricted to the formats f (of those enabled).
func (d *Decoder) decode2DOnly(g *gray, f Format) (Result, bool) {
	if d.opt.Formats&f == 0 {
		return Result{}, false
	}
	saved := d.opt.Formats
	d.opt.Formats &= f
	defer func() { d.opt.Formats = saved }()
	return d.decode2D(g, true)
}

// dmRead thresholds a sampler's modules each way in turn until gozxing's decoder
// corrects one, then reads them with soft decisions.
func (d *Decoder) dmRead(s *dmSampler) (Result, bool) {
	if res, ok := d.dmReadHard(s); ok {
		return res, true
	}
	return d.dmSoftRead(s)
}

// dmReadHard thresholds a sampler's modules each way in turn (dmThresholds) until gozxing's
// decoder corrects one.
func (d *Decoder) dmReadHard(s *dmSampler) (Result, bool) {
	for _, th := range dmThresholds {
		if bm := s.bits(th); bm != nil {
			if res, ok := d.dmDecodeBits(bm); ok {
				return res, true
			}
		}
	}
	return Result{}, false
}

// dmDecodeBits runs gozxing's DataMatrix decoder (Reed–Solomon, then the text) on a module
// matrix; the result passes through Decoder.result like every other read.
func (d *Decoder) dmDecodeBits(bm *gozxing.BitMatrix) (Result, bool) {
	if d.dmDec == nil {
		d.dmDec = dmdecoder.NewDecoder()
	}
	dr, err := d.dmDec.Decode(bm)
	if err != nil || dr.GetText() == "" || !dmPlausible(bm, dr.GetRawBytes()) {
		return Result{}, false
	}
	r := gozxing.NewResult(dr.GetText(), dr.GetRawBytes(), nil, gozxing.BarcodeFormat_DATA_MATRIX)
	r.PutMetadata(gozxing.ResultMetadataType_SYMBOLOGY_IDENTIFIER, "]d"+strconv.Itoa(dr.GetSymbologyModifier()))
	return d.result(r, true)
}
