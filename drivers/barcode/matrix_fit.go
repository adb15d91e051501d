package barcode

import (
	"math"
	"slices"
	"strconv"

	"github.com/makiuchi-d/gozxing"
)

// The fitted pass (issue 34's matrix corner: 1.5-px modules blurred σ 0.8, down to 25 %
// contrast). There a QR symbol's finder runs and a DataMatrix symbol's edges blur into
// blobs, and deconvolving the pixels raises the sensor noise faster than the modules
// (matrix_deblur.go). The symbol is read by fitting instead: its grid is found by matching
// the modules its symbology fixes (finders, timing, the L and clock track, the quiet zone)
// against the frame, then every other module's darkness is the least-squares solution of
// the blurred grid against the pixels (matrix_fit_ls.go), and the modules go to the soft
// decoders (qr_soft.go, dm_soft.go). It runs last, on the first two small matrix
// candidates of a frame where nothing read.

const (
	// fitMaxSide is the largest crop side (2s, frame px) of a candidate fitted, as for the
	// deblurred retry: blur takes only small modules.
	fitMaxSide = 160
	// fitMinModule and fitMaxModule bound the module pitch tried, in frame pixels.
	fitMinModule, fitMaxModule = 1.1, 3.2
	// fitMinScore is the matched filter's correlation (fitScore) under which a grid is not
	// sampled: clutter matches a symbology's fixed modules at 0.2–0.4.
	fitMinScore = 0.5
	// fitTries is how many grid hypotheses per candidate are sampled and read, best first.
	fitTries = 3
)

// fitSigmas are the blurs (Gaussian σ, frame pixels) the least-squares fit tries: the
// module's blur over the print's resampling and the pixels' own size.
var fitSigmas = []float64{0.95, 0.75, 1.15}

// fitStart is a candidate's rough geometry: the centre of its ink, its orientation modulo a
// quarter turn, and its side.
type fitStart struct {
	cx, cy, theta, side float64
	noise               float64
}

// fitHyp is one grid hypothesis: a symbology's size, its pose, and how well its fixed
// modules match the frame.
type fitHyp struct {
	dm    bool
	n     int
	p     [5]float64 // centre x, y, angle, pitch along the rows and along the columns
	score float64
}

func (h fitHyp) grid() fitGrid {
	return newFitGrid(h.p[0], h.p[1], h.p[2], h.p[3], h.p[4], h.n, h.n)
}

// decodeFitted reads matrix candidate r of g by fitting (see above).
func (d *Decoder) decodeFitted(g *gray, r region) (Result, bool) {
	s, _ := cropSpan(r)
	if 2*s > fitMaxSide || d.expired() || d.opt.Formats&(QRCode|DataMatrix) == 0 {
		return Result{}, false
	}
	win := newFitWin(g, r.cx, r.cy, int(math.Ceil(s)))
	st, ok := fitStartOf(&win, r)
	if !ok {
		return Result{}, false
	}
	hyps := d.fitHypotheses(&win, st)
	for i, h := range hyps {
		if i >= fitTries || h.score < fitMinScore || d.expired() {
			break
		}
		if res, ok := d.readFitted(&win, h); ok {
			return res, true
		}
	}
	return Result{}, false
}

// fitStartOf measures a candidate's rough geometry on win: the ink's centroid and spread
// (pixels darker than the paper by more than the noise), and the orientation of the
// gradients modulo a quarter turn (a grid's edges run along its two axes).
func fitStartOf(win *fitWin, r region) (fitStart, bool) {
	vals := make([]float32, len(win.pix))
	copy(vals, win.pix)
	slices.Sort(vals)
	paper := float64(vals[len(vals)*8/10])
	// The noise: the median absolute difference of horizontal neighbours.
	diffs := make([]float64, 0, len(win.pix))
	for y := range win.h {
		for x := 1; x < win.w; x++ {
			diffs = append(diffs, math.Abs(float64(win.pix[y*win.w+x]-win.pix[y*win.w+x-1])))
		}
	}
	if len(diffs) == 0 {
		return fitStart{}, false
	}
	slices.Sort(diffs)
	noise := diffs[len(diffs)/2] / 0.954 // |N(0, 2σ²)|'s median is 0.954σ
	var sw, sx, sy float64
	wt := make([]float64, len(win.pix))
	for y := range win.h {
		for x := range win.w {
			w := paper - float64(win.pix[y*win.w+x]) - 3*noise
			if w <= 0 {
				continue
			}
			wt[y*win.w+x] = w
			sw += w
			sx += w * float64(x)
			sy += w * float64(y)
		}
	}
	if sw == 0 {
		return fitStart{}, false
	}
	mx, my := sx/sw, sy/sw
	var vxx, vyy float64
	for y := range win.h {
		for x := range win.w {
			if w := wt[y*win.w+x]; w > 0 {
				vxx += w * (float64(x) - mx) * (float64(x) - mx)
				vyy += w * (float64(y) - my) * (float64(y) - my)
			}
		}
	}
	side := math.Sqrt(6 * (vxx + vyy) / sw)
	// Orientation: the gradients' angle ×4, weighted by their squared magnitude.
	var c4, s4 float64
	rad := 0.75 * side
	for y := 1; y < win.h-1; y++ {
		for x := 1; x < win.w-1; x++ {
			if math.Hypot(float64(x)-mx, float64(y)-my) > rad {
				continue
			}
			gx := float64(win.pix[y*win.w+x+1]) - float64(win.pix[y*win.w+x-1])
			gy := float64(win.pix[(y+1)*win.w+x]) - float64(win.pix[(y-1)*win.w+x])
			m2 := gx*gx + gy*gy
			if m2 < 16*noise*noise {
				continue
			}
			a := 4 * math.Atan2(gy, gx)
			c4 += m2 * math.Cos(a)
			s4 += m2 * math.Sin(a)
		}
	}
	return fitStart{cx: mx + float64(win.x0), cy: my + float64(win.y0), theta: math.Atan2(s4, c4) / 4,
		side: side, noise: noise}, side > 4
}

// fitPattern lists a grid's fixed modules (within the symbol and its quiet zone) as
// module-coordinate centres and their darkness.
type fitPattern struct {
	u, v, dark []float64
}

func patternOf(kn fitKnown, n int) fitPattern {
	ew := n + 2*kn.q
	var p fitPattern
	for m, k := range kn.mods {
		if k < 0 {
			continue
		}
		p.u = append(p.u, float64(m%ew-kn.q)+0.5)
		p.v = append(p.v, float64(m/ew-kn.q)+0.5)
		p.dark = append(p.dark, float64(k))
	}
	return p
}

// fitScore is the correlation between the fixed modules' darkness and the frame's level
// at their centres (mean of five points ±¼ module), negated (ink is dark): 1 when the
// frame shows exactly the pattern, about 0 off the grid.
func fitScore(win *fitWin, pat *fitPattern, g *fitGrid) float64 {
	var sd, sl, sdd, sll, sdl float64
	n := float64(len(pat.u))
	for k := range pat.u {
		u, v := pat.u[k], pat.v[k]
		var l float64
		for _, o := range [5][2]float64{{0, 0}, {-0.25, -0.25}, {0.25, -0.25}, {-0.25, 0.25}, {0.25, 0.25}} {
			x, y := g.at(u+o[0], v+o[1])
			l += win.at(x, y)
		}
		l /= 5
		dk := pat.dark[k]
		sd += dk
		sl += l
		sdd += dk * dk
		sll += l * l
		sdl += dk * l
	}
	cov := sdl - sd*sl/n
	vd, vl := sdd-sd*sd/n, sll-sl*sl/n
	if vd <= 0 || vl <= 0 {
		return 0
	}
	return -cov / math.Sqrt(vd*vl)
}

// fitHypotheses searches each size and quarter turn of the formats enabled for the pose
// whose fixed modules best match win, and returns them best first.
func (d *Decoder) fitHypotheses(win *fitWin, st fitStart) []fitHyp {
	var hyps []fitHyp
	try := func(dm bool, n int, kn fitKnown) {
		m0 := st.side / float64(n)
		if m0 < fitMinModule || m0 > fitMaxModule {
			return
		}
		pat := patternOf(kn, n)
		best := fitHyp{dm: dm, n: n, score: math.Inf(-1)}
		for turn := range 4 {
			for _, k := range []float64{0.9, 1, 1.1} {
				p := [5]float64{st.cx, st.cy, st.theta + float64(turn)*math.Pi/2, m0 * k, m0 * k}
				p, sc := fitClimb(win, &pat, n, p)
				if sc > best.score {
					best.p, best.score = p, sc
				}
			}
		}
		hyps = append(hyps, best)
	}
	if d.opt.Formats&QRCode != 0 {
		for _, n := range qrFitDims {
			try(false, n, qrFitKnown(n))
		}
	}
	if d.opt.Formats&DataMatrix != 0 {
		for _, n := range dmFitSizes {
			try(true, n, dmFitKnown(n))
		}
	}
	slices.SortFunc(hyps, func(a, b fitHyp) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return hyps
}

// fitClimb improves pose p of an n×n grid by coordinate ascent on fitScore, the steps
// halved each round.
func fitClimb(win *fitWin, pat *fitPattern, n int, p [5]float64) ([5]float64, float64) {
	score := func(p [5]float64) float64 {
		if p[3] < fitMinModule || p[4] < fitMinModule || p[3] > 1.25*p[4] || p[4] > 1.25*p[3] {
			return math.Inf(-1)
		}
		g := newFitGrid(p[0], p[1], p[2], p[3], p[4], n, n)
		return fitScore(win, pat, &g)
	}
	best := score(p)
	m := p[3]
	step := [5]float64{0.5 * m, 0.5 * m, 0.03, 0.04 * m, 0.04 * m}
	for range 5 {
		for improved := true; improved; {
			improved = false
			for k := range p {
				for _, sgn := range []float64{-1, 1} {
					q := p
					q[k] += sgn * step[k]
					if k == 3 { // the pitch: both axes together, then apart
						q[4] += sgn * step[4]
					}
					if sc := score(q); sc > best {
						p, best, improved = q, sc, true
					}
				}
			}
		}
		for k := range step {
			step[k] /= 2
		}
	}
	return p, best
}

// readFitted fits the modules of hypothesis h on win at each blur in turn and reads them.
func (d *Decoder) readFitted(win *fitWin, h fitHyp) (Result, bool) {
	kn := dmFitKnown(h.n)
	if !h.dm {
		kn = qrFitKnown(h.n)
	}
	h = fitRefine(win, h, kn)
	g := h.grid()
	for _, sigma := range fitSigmas {
		if d.expired() {
			break
		}
		sol, ok := fitModules(win, g, sigma, kn, fitMargins)
		if !ok {
			return Result{}, false
		}
		lv := make([]float64, len(sol.dark))
		for m, v := range sol.dark {
			lv[m] = 1 - v
		}
		if res, ok := d.readFittedLevels(lv, h); ok {
			return res, true
		}
	}
	return Result{}, false
}

// readFittedLevels reads the fitted modules' lightness (row major) as h's symbology.
func (d *Decoder) readFittedLevels(lv []float64, h fitHyp) (Result, bool) {
	if h.dm {
		return d.dmRead(&dmSampler{vals: lv, rows: h.n, cols: h.n})
	}
	qd := d.qr.GetDecoder()
	read := func(grid *gozxing.BitMatrix) (Result, bool) {
		dr, err := qd.Decode(grid, nil)
		if err != nil || dr.GetText() == "" {
			return Result{}, false
		}
		return Result{Text: dr.GetText(), Symbology: "]Q" + strconv.Itoa(dr.GetSymbologyModifier()),
			Format: QRCode, Located: true}, true
	}
	return qrReadLevels(lv, h.n, read)
}

// fitRefine improves hypothesis h's pose by coordinate descent on the residual of a quick
// least-squares fit (one solve): the matched filter's pose is biased by the blur's
// asymmetry around solid edges by up to a few per cent of the pitch, which over 18
// modules is half a module at the symbol's far side.
func fitRefine(win *fitWin, h fitHyp, kn fitKnown) fitHyp {
	resid := func(p [5]float64) float64 {
		g := newFitGrid(p[0], p[1], p[2], p[3], p[4], h.n, h.n)
		sol, ok := fitModules(win, g, fitSigmas[0], kn, fitQuick)
		if !ok {
			return math.Inf(1)
		}
		return sol.resid
	}
	p := h.p
	best := resid(p)
	m := p[3]
	step := [5]float64{0.2 * m, 0.2 * m, 0.01, 0.01 * m, 0.01 * m}
	for range 3 {
		for improved := true; improved; {
			improved = false
			for k := range p {
				for _, sgn := range []float64{-1, 1} {
					q := p
					q[k] += sgn * step[k]
					if r := resid(q); r < best {
						p, best, improved = q, r, true
					}
				}
			}
		}
		for k := range step {
			step[k] /= 2
		}
	}
	h.p = p
	return h
}

// fitQuick is the least-squares fit's single round, for fitRefine.
var fitQuick = []float64{0.5}
