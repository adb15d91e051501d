package barcode

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/makiuchi-d/gozxing"
)

// The fitted pass (issue 34's matrix corner: 1.5-px modules blurred σ 0.8, down to 25 %
// contrast). There a QR symbol's finder runs and a DataMatrix symbol's edges blur into
// blobs, and deconvolving the pixels raises the sensor noise faster than the modules
// (matrix_deblur.go). The symbol is read by fitting instead: its grid is found by matching
// the modules its symbology fixes (finders, timing, the L and clock track, the quiet zone)
// against the frame, then every other module's darkness is the least-squares solution of
// the blurred grid against the pixels (matrix_fit_ls.go), and the modules go to the soft
// decoders (qr_soft.go, dm_soft.go); a grid that does not read is climbed again in
// perspective (matrix_fit_persp.go). It runs last, on the first few small matrix
// candidates of a frame where nothing read (fitCandidates).

const (
	// fitMaxSide is the largest crop side (2s, frame px) of a candidate fitted, as for the
	// deblurred retry: blur takes only small modules.
	fitMaxSide = 160
	// fitMinModule and fitMaxModule bound the module pitch tried, in frame pixels.
	fitMinModule, fitMaxModule = 1.1, 3.2
	// fitMinScore is the matched filter's correlation (fitScore) under which a grid is not
	// sampled: clutter matches a symbology's fixed modules at 0.2–0.4.
	fitMinScore = 0.8
)

// fitSigmas are the blurs (Gaussian σ, frame pixels) the least-squares fit tries: the
// module's blur over the print's resampling and the pixels' own size.
var fitSigmas = []float64{0.95, 0.75, 1.15}

// fitNoisySigmas are the blurs a QR or DataMatrix symbol's best hypothesis under strong sensor noise is read
// at (readFitted), the fitNoisyReads that explain its pixels best (a one-round fit's residual)
// first: a symbol under little blur
// (the print's resampling and the pixels' size only: σ 0.45–0.6) decides its modules best
// at its own blur, and under strong sensor noise no other reads.
var fitNoisySigmas = []float64{0.4, 0.5, 0.6, 0.75, 0.95, 1.15}

const fitNoisyReads = 3

// fitRankSigmas returns fitNoisyReads of fitNoisySigmas, those whose one-round fit of grid
// leaves the least residual first.
func fitRankSigmas(win *fitWin, grid fitGrid, kn fitKnown) []float64 {
	type ranked struct{ sigma, resid float64 }
	rs := make([]ranked, 0, len(fitNoisySigmas))
	for _, sigma := range fitNoisySigmas {
		r := math.Inf(1)
		if sol, ok := fitModules(win, grid, sigma, kn, fitQuick); ok {
			r = sol.resid
		}
		rs = append(rs, ranked{sigma, r})
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return cmp.Compare(a.resid, b.resid) })
	out := make([]float64, fitNoisyReads)
	for i := range out {
		out[i] = rs[i].sigma
	}
	return out
}

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
	p     fitPose // centre x, y, angle, pitch along the rows and along the columns
	score float64 // the fixed modules' match (fitScore)
	persp bool    // in perspective: the grid's corners are quad, p its affine start
	quad  fitQuad
	rank  float64 // what orders a symbology's hypotheses: score, plus the clock's for DataMatrix
}

// fitPose is an affine grid's pose: centre x, y, angle, pitch along the rows and along the
// columns.
type fitPose [5]float64

func (p fitPose) grid(n int) fitGrid {
	return newFitGrid(p[0], p[1], p[2], p[3], p[4], n, n)
}

func (h fitHyp) grid() fitGrid {
	if h.persp {
		g, _ := quadGrid(h.quad, h.n, h.n, fitPoseQuiet) // climbed to a valid grid
		return g
	}
	return h.p.grid(h.n)
}

// known returns what h's symbology fixes of its grid.
func (h fitHyp) known() fitKnown {
	if h.dm {
		return dmFitKnown(h.n)
	}
	return qrFitKnown(h.n)
}

// fitCandidates and fitRanks: the fitted pass reads the first fitCandidates small matrix
// candidates (fitSmall) whose ink is compact (fitStartOf) among the first fitRanks in rank:
// at 25 % contrast a symbol can rank under several faint clusters of sensor noise (seven in
// a frame of the held-out sweep), which are left for the cost of a look at their ink
// (fitMaxInk), where each used to cost the pass a failed search of a few ms and a place
// among its candidates.
const fitCandidates, fitRanks = 4, 12

// fitMaxInk is the share of its window's side over which a candidate's ink spreads (the
// side of fitStart) when it is not a symbol: the ink of a cluster of sensor noise spreads
// over the whole window (0.8–1.1 on the tuning sweeps), a symbol's within its extent and
// quiet zone (0.2–0.5).
const fitMaxInk = 0.65

// matrixPassOrder is the order of scanLevel's passes: as they are numbered, but under a
// time budget (a camera frame) the fitted pass comes right after the equalised one. Last,
// it started after 56–100 ms of CPU of the passes before it on a frame at issue 34's corner
// (1.5-px modules blurred σ 0.8), beyond the camera's Full budget of 40 ms, and only it reads
// there. Early, a frame that a later pass reads pays it first: a look at the ink of each
// small candidate (a noise cluster ends there), under a millisecond for a clutter candidate
// whose grid matches nothing, and for a symbol that matches and does not read its search and
// reads (tens of ms, cut by the budget). Our DataMatrix reader's search on a small candidate,
// cut after its quick look in the plain pass under a budget, goes on right after the fitted
// pass (dmRestPass; without a budget the plain pass runs it whole and that pass has nothing
// to do).
func (d *Decoder) matrixPassOrder() [matrixPasses]matrixPass {
	if d.deadline.IsZero() || d.fitLate {
		return [...]matrixPass{plainPass, dmRestPass, equalisedPass, magnifiedPass, laterPass, smoothedPass, grownPass, deblurredPass, fittedPass}
	}
	return [...]matrixPass{plainPass, equalisedPass, fittedPass, dmRestPass, magnifiedPass, laterPass, smoothedPass, grownPass, deblurredPass}
}

// fitSmall reports whether candidate r is small enough for the fitted pass.
func fitSmall(r region) bool {
	s, _ := cropSpan(r)
	return 2*s <= fitMaxSide
}

// decodeFitted reads matrix candidate r of g by fitting (see above). QR is searched and
// read first; DataMatrix is searched only when no QR hypothesis read, and its hypotheses
// are read before the remaining QR ones when they match better (a DataMatrix symbol's
// extent matches a QR grid of small modules at about 0.8, its own grid at 0.95).
func (d *Decoder) decodeFitted(g *gray, r region) (res Result, ok, searched bool) {
	s, _ := cropSpan(r)
	if !fitSmall(r) || d.expired() || d.opt.Formats&(QRCode|DataMatrix) == 0 {
		return Result{}, false, false
	}
	win := newFitWin(g, r.cx, r.cy, int(math.Ceil(s)))
	st, found := fitStartOf(&win, r, false)
	if found {
		if res, ok = d.readCandidate(&win, st); ok || d.expired() {
			return res, ok, true
		}
	}
	// A second start, measured on the window smoothed over 3×3 pixels and its light
	// flattened (fitWin.flattenPlane): under an uneven light the dim side of the paper
	// counts as ink and the start comes out a fifth too large (a symbol of 25 modules taken
	// for one of 29); under strong sensor noise, faint ink stays within 3σ of the paper and
	// the noise's tails spread the start over the window, which is then refused. What ink
	// lies far out in the window still lengthens it (a light's fall-off that is no plane,
	// the noise's tails, clutter beside the symbol), so its spread is trimmed to the symbol
	// (fitStartOf). The first start is not: trimmed, it moves the searches of symbols that
	// read (tuning: DataMatrix `mixed` 400–1399 gained 12 frames and lost one within the
	// readable limit, QR `mixed` 1000–1999 gained 5 and lost 3).
	if !found && win.noise() < fitSmoothNoise {
		return Result{}, false, false
	}
	sm := win.smoothed()
	sm.flattenPlane()
	st2, ok2 := fitStartOf(&sm, r, true)
	if !ok2 || found && !st.farFrom(st2) || d.expired() {
		return Result{}, false, found
	}
	res, ok = d.readCandidate(&win, st2)
	return res, ok, true
}

// farFrom reports whether start o lies far enough from st to be searched again: its side
// or its centre more than fitStartMoved of st's side away (the sizes the search tries lie
// 14–19 % apart; a start 18 % long matched the next size on a tuning frame).
func (st fitStart) farFrom(o fitStart) bool {
	return math.Abs(o.side-st.side) > fitStartMoved*st.side ||
		math.Hypot(o.cx-st.cx, o.cy-st.cy) > fitStartMoved*st.side
}

// fitStartMoved is the share of a start's side by which another must differ to be searched.
const fitStartMoved = 0.08

// readCandidate searches and reads the candidate of window win whose rough geometry is st:
// its affine hypotheses (above), then, when none reads, one grid in perspective
// (matrix_fit_persp.go).
func (d *Decoder) readCandidate(win *fitWin, st fitStart) (Result, bool) {
	var qr, dm []fitHyp
	qrNear, dmNear := fitHyp{score: math.Inf(-1)}, fitHyp{score: math.Inf(-1)}
	if d.opt.Formats&QRCode != 0 {
		qr, qrNear = d.fitSearchNoisy(win, st, false)
	}
	read := func(hyps []fitHyp) (Result, bool) {
		for i, h := range hyps {
			// Only the best hypothesis of each symbology is read at every blur, and only
			// the best DataMatrix one refined: the refinement costs up to 24 one-round
			// fits, each blur a full fit, and a symbol's other sizes are rarely it (those
			// that match clearly worse are not read at all).
			if d.expired() || h.score < hyps[0].score-fitOtherSlack {
				break
			}
			refine := i == 0 && (h.dm || win.noise() >= fitSmoothNoise)
			if res, ok := d.readFitted(win, h, refine, i == 0); ok {
				return res, true
			}
		}
		return Result{}, false
	}
	// In perspective, last (readPersp): from the best hypothesis of a symbology taken as the
	// symbol's, else from the best match of either, near ones included.
	persp := func(from fitHyp, formats Format) (Result, bool) {
		if d.expired() || from.score < d.perspNear(win) || !d.deadline.IsZero() && d.deadline.Sub(d.now) < fitPerspMinLeft {
			return Result{}, false
		}
		return d.readPersp(win, from, formats)
	}
	sym := func(h fitHyp) Format {
		if h.dm {
			return DataMatrix
		}
		return QRCode
	}
	if len(qr) > 0 && qr[0].score >= fitSureScore {
		// A QR symbol, read or not: a DataMatrix one does not match QR so well.
		if res, ok := read(qr); ok {
			return res, ok
		}
		return persp(qr[0], QRCode)
	}
	if d.opt.Formats&DataMatrix != 0 && !d.expired() {
		dm, dmNear = d.fitSearchNoisy(win, st, true)
	}
	first, second := qr, dm
	if len(dm) > 0 && (len(qr) == 0 || dm[0].score > qr[0].score) {
		first, second = dm, qr
	}
	if res, ok := read(first); ok || len(first) > 0 && first[0].score >= fitSureScore {
		if ok || d.expired() {
			return res, ok
		}
		return persp(first[0], sym(first[0]))
	}
	if res, ok := read(second); ok {
		return res, ok
	}
	if len(first) == 0 && !d.deadline.IsZero() {
		// Under a budget, no near match is climbed: clutter matches 0.6 and more often
		// enough to take a symbol's time (a camera shows the next frame).
		return Result{}, false
	}
	from := qrNear
	for _, h := range [...][]fitHyp{first, second, {dmNear}} {
		if len(h) > 0 && h[0].score > from.score {
			from = h[0]
		}
	}
	return persp(from, d.opt.Formats&(QRCode|DataMatrix))
}

// fitSearchNoisy is fitSearch, and where no grid matched a window under strong sensor noise
// though the best came near (fitSmoothNear), the search again on the window's 3×3 means: the
// fixed modules' match at their centres' pixels stays under fitMinScore on a symbol's own grid
// there (0.6–0.7 at 25–35 % contrast and noise σ 20; a DataMatrix 18×18 0.75–0.8) and comes to
// 0.85–0.93 on the means. The poses found are read on the window itself.
func (d *Decoder) fitSearchNoisy(win *fitWin, st fitStart, dm bool) ([]fitHyp, fitHyp) {
	hyps, near := d.fitSearch(win, st, dm)
	if len(hyps) == 0 && near.score >= fitSmoothNear && d.noisyLeft(win) {
		sm := win.smoothed()
		if h, n := d.fitSearch(&sm, st, dm); len(h) > 0 {
			return h, n
		}
	}
	return hyps, near
}

// noisyLeft reports whether window win is read as under strong sensor noise (its noise at
// least fitSmoothNoise) and the frame's budget leaves the time for it (fitSmoothMinLeft).
func (d *Decoder) noisyLeft(win *fitWin) bool {
	return win.noise() >= fitSmoothNoise && !d.expired() &&
		(d.deadline.IsZero() || d.deadline.Sub(d.now) >= fitSmoothMinLeft)
}

// fitSmoothNoise is the window's sensor noise (fitWin.noise, grey levels) from which a QR
// or DataMatrix candidate is read as under strong noise: matched again on its 3×3 means
// when its grid matched nothing, its blurs ranked, its pose refined finely, Chase's search
// (readFitted).
// The third generator's base noise measures 5–6, its noise class 9–22.
const fitSmoothNoise = 9

// fitSmoothNear is the best match of a noisy QR window's own pixels from which it is
// matched again on its 3×3 means (tuning symbols under noise σ 20 matched 0.59–0.71 there;
// most clutter candidates match less), and fitSmoothMinLeft the time a frame's budget must
// have left for it (a search costs a few ms) and for readFitted's reading as under strong
// noise (its ranked blurs and its refinement take a few ms before the clock is read).
const (
	fitSmoothNear    = 0.55
	fitSmoothMinLeft = 10 * time.Millisecond
)

// fitPerspMinLeft is the time a frame's budget must have left for the perspective climb
// and reads (10–25 ms of CPU) to start.
const fitPerspMinLeft = 20 * time.Millisecond

// fitPerspNear is the affine match (coarse or fine) from which a candidate that matches no
// grid well enough to be read (fitMinScore) is still climbed in perspective: a symbol seen
// from aside matches an affine grid at 0.65–0.8. Under strong sensor noise its pixels match
// less (fitSmoothNear): there the climb starts from fitPerspNearNoisy, and climbs again on the
// window's 3×3 means when the pixels match no grid (readPersp). A DataMatrix 18×18 of 2.9-px
// modules, its near side 2.2 px, at 30 % contrast under noise σ 17 matched 0.53 as the best
// affine grid of its own size (tuning `mixed` 1290), its corners climbed on the means 0.90.
const fitPerspNear, fitPerspNearNoisy = 0.6, 0.5

// perspNear is the affine match from which a candidate on win is climbed in perspective:
// fitPerspNearNoisy under strong sensor noise (noisyLeft), else fitPerspNear.
func (d *Decoder) perspNear(win *fitWin) float64 {
	if d.noisyLeft(win) {
		return fitPerspNearNoisy
	}
	return fitPerspNear
}

// fitSureScore is the match from which a hypothesis is taken as its symbology's: a QR
// one is read before DataMatrix is searched, and when it does not read the candidate is
// left (a QR symbol's own grid matches at 0.95 and more at 25 % contrast, a DataMatrix
// symbol's at about 0.8, and a DataMatrix symbol's own grid at 0.95, a QR symbol's at
// 0.85–0.88).
const fitSureScore = 0.9

// fitOtherSlack is how far under its symbology's best a hypothesis may match and still be
// read (a QR symbol's wrong sizes match 0.07–0.1 under its own).
const fitOtherSlack = 0.05

// fitStartOf measures a candidate's rough geometry on win: the ink's centroid and spread
// (pixels darker than the paper by more than the noise), and the orientation of the
// gradients modulo a quarter turn (a grid's edges run along its two axes). When trim, the
// spread is measured again within fitTrimRadius of its side about its centroid until it
// settles: the spread weighs each pixel by its squared distance, so a few pixels of dim
// paper or clutter far out in the window lengthen it by a third.
func fitStartOf(win *fitWin, r region, trim bool) (fitStart, bool) {
	// The paper: the 80th percentile of the levels; the noise: fitWin.noise's.
	var levels [256]int
	for _, v := range win.pix {
		levels[int(v)]++
	}
	paper := float64(histQuantile(&levels, 0.8))
	noise := win.noise()
	wt := make([]float64, len(win.pix))
	for i, v := range win.pix {
		wt[i] = max(0, paper-float64(v)-3*noise)
	}
	mx, my, side, ok := inkSpread(win, wt, 0, 0, math.Inf(1))
	if !ok {
		return fitStart{}, false
	}
	for k := 0; trim && k < fitTrimRounds; k++ {
		mx2, my2, side2, ok2 := inkSpread(win, wt, mx, my, fitTrimRadius*side)
		if !ok2 {
			break
		}
		settled := math.Abs(side2-side) < fitTrimSettled*side
		mx, my, side = mx2, my2, side2
		if settled {
			break
		}
	}
	if side <= 4 || side > fitMaxInk*float64(max(win.w, win.h)) {
		return fitStart{}, false // no ink to speak of, or noise spread over the window
	}
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
		side: side, noise: noise}, true
}

// fitTrimRadius is the radius, in sides, within which a start's spread is measured again
// (fitStartOf): a square's corners lie 0.71 of its side from its centre, and a symbol's ink,
// heavier along its edges than a uniform square's, measures a side 10–20 % long, so the whole
// symbol stays within it. fitTrimRounds bounds the rounds, and a round that moves the side
// under fitTrimSettled of it is the last.
const (
	fitTrimRadius  = 0.75
	fitTrimRounds  = 8
	fitTrimSettled = 0.01
)

// inkSpread returns the centroid and side (the side of the uniform square of the same second
// moments) of ink weights wt over win's pixels within radius rad of (cx, cy).
func inkSpread(win *fitWin, wt []float64, cx, cy, rad float64) (mx, my, side float64, ok bool) {
	var sw, sx, sy, sxx, syy float64
	r2 := rad * rad
	for y := range win.h {
		for x := range win.w {
			w := wt[y*win.w+x]
			if w <= 0 {
				continue
			}
			fx, fy := float64(x), float64(y)
			if (fx-cx)*(fx-cx)+(fy-cy)*(fy-cy) > r2 {
				continue
			}
			sw += w
			sx += w * fx
			sy += w * fy
			sxx += w * fx * fx
			syy += w * fy * fy
		}
	}
	if sw == 0 {
		return 0, 0, 0, false
	}
	mx, my = sx/sw, sy/sw
	v := sxx/sw - mx*mx + syy/sw - my*my
	return mx, my, math.Sqrt(6 * max(0, v)), true
}

// histQuantile returns the level under which a share q of a histogram's counts lie.
func histQuantile(h *[256]int, q float64) int {
	total := 0
	for _, c := range h {
		total += c
	}
	want, acc := int(q*float64(total)), 0
	for v, c := range h {
		if acc += c; acc > want {
			return v
		}
	}
	return 255
}

// fitPattern lists a grid's fixed modules (within the symbol and its quiet zone) as
// module-coordinate centres and the darkness the frame should show there: the fixed
// modules' and their neighbours' (data modules: ½) blurred by a Gaussian of fitSigmas[0]
// at pitch m. Matching the blurred values rather than the modules' own keeps the blur's
// asymmetry round a solid edge from biasing the pose.
type fitPattern struct {
	u, v, dark []float64
	// fine are the entries of the symbology's finest fixed pattern (a DataMatrix clock
	// track, a QR timing pattern), which tells the pitch where the rest does not.
	fine []int
	// sd and sdd are the sums of dark and of its squares (fitScoreOf).
	sd, sdd float64
}

func patternOf(kn fitKnown, n int, m float64) fitPattern {
	ew := n + 2*kn.q
	sigma := fitSigmas[0]
	var f [2*fitReach + 1]float64
	for k := range f {
		t := float64(k-fitReach) * m
		f[k] = normalCDF((t+m/2)/sigma) - normalCDF((t-m/2)/sigma)
	}
	var p fitPattern
	for idx, k := range kn.mods {
		if k < 0 {
			continue
		}
		i, j := idx%ew, idx/ew
		var e float64
		for b := -fitReach; b <= fitReach; b++ {
			for a := -fitReach; a <= fitReach; a++ {
				x, y := i+a, j+b
				if x < 0 || y < 0 || x >= ew || y >= ew {
					continue
				}
				dk := float64(kn.mods[y*ew+x])
				if dk < 0 {
					dk = 0.5
				}
				e += dk * f[a+fitReach] * f[b+fitReach]
			}
		}
		if kn.fine != nil && kn.fine(i-kn.q, j-kn.q) {
			p.fine = append(p.fine, len(p.u))
		}
		p.u = append(p.u, float64(i-kn.q)+0.5)
		p.v = append(p.v, float64(j-kn.q)+0.5)
		p.dark = append(p.dark, e)
		p.sd += e
		p.sdd += e * e
	}
	return p
}

// fitScore is the correlation between the darkness the fixed modules should show
// (fitPattern) and the level of win at their centres, negated (ink is dark): near 1 when the
// frame shows the pattern, about 0 off the grid.
func fitScore(win *fitWin, pat *fitPattern, g *fitGrid) float64 {
	return fitScoreOf(win, pat, g, nil)
}

// fitScoreOf is fitScore over the pattern's entries only (nil: all).
func fitScoreOf(win *fitWin, pat *fitPattern, g *fitGrid, only []int) float64 {
	var sd, sl, sdd, sll, sdl float64
	ox, oy := g.ox-float64(win.x0), g.oy-float64(win.y0)
	if g.persp {
		at := func(k int) float64 {
			x, y := g.at(pat.u[k], pat.v[k])
			return win.atLocal(x-float64(win.x0), y-float64(win.y0))
		}
		if only == nil {
			for k := range pat.u {
				l := at(k)
				sl += l
				sll += l * l
				sdl += pat.dark[k] * l
			}
			sd, sdd = pat.sd, pat.sdd
		} else {
			for _, k := range only {
				l, dk := at(k), pat.dark[k]
				sd += dk
				sl += l
				sdd += dk * dk
				sll += l * l
				sdl += dk * l
			}
		}
	} else if only == nil {
		for k, u := range pat.u {
			v := pat.v[k]
			l := win.atLocal(ox+u*g.e1x+v*g.e2x, oy+u*g.e1y+v*g.e2y)
			sl += l
			sll += l * l
			sdl += pat.dark[k] * l
		}
		sd, sdd = pat.sd, pat.sdd
	} else {
		for _, k := range only {
			u, v := pat.u[k], pat.v[k]
			l := win.atLocal(ox+u*g.e1x+v*g.e2x, oy+u*g.e1y+v*g.e2y)
			dk := pat.dark[k]
			sd += dk
			sl += l
			sdd += dk * dk
			sll += l * l
			sdl += dk * l
		}
	}
	n := float64(len(pat.u))
	if only != nil {
		n = float64(len(only))
	}
	cov := sdl - sd*sl/n
	vd, vl := sdd-sd*sd/n, sll-sl*sl/n
	if vd <= 0 || vl <= 0 {
		return 0
	}
	return -cov / math.Sqrt(vd*vl)
}

// fitSearch searches each size of a symbology (DataMatrix when dm, else QR) for the pose
// whose fixed modules best match win (a coarse climb for each quarter turn, then a fine
// one for the turns that come near fitMinScore), and returns the best fitReads of those
// that match at least fitMinScore, best first: QR by that match, DataMatrix by that match
// plus the clock track's alone (the fixed modules tell a DataMatrix symbol's size poorly:
// its L and quiet zone match a grid of any pitch alike). A hypothesis whose grid the
// least-squares fit cannot sample (fitPrepare) is passed over.
func (d *Decoder) fitSearch(win *fitWin, st fitStart, dm bool) (hyps []fitHyp, near fitHyp) {
	sizes, known := qrFitDims, qrFitKnown
	if dm {
		sizes, known = dmFitSizes, dmFitKnown
	}
	near.score = math.Inf(-1)
	for _, n := range sizes {
		m0 := st.side / float64(n)
		if m0 < fitMinModule || m0 > fitMaxModule || d.expired() {
			continue
		}
		kn := known(n)
		pat := patternOf(kn, n, m0)
		// Every quarter turn climbed coarsely, then finely (a DataMatrix symbol's clock
		// sides and L sides differ little once blurred).
		var turns [4]fitHyp
		for turn := range turns {
			p := fitPose{st.cx, st.cy, st.theta + float64(turn)*math.Pi/2, m0, m0}
			p, sc := fitClimb(win, &pat, n, p, 0, fitCoarse)
			turns[turn] = fitHyp{dm: dm, n: n, p: p, score: sc}
		}
		slices.SortFunc(turns[:], func(a, b fitHyp) int { return cmp.Compare(b.score, a.score) })
		best := fitHyp{score: math.Inf(-1)}
		for _, h := range turns[:fitFineTurns] {
			if h.score < fitMinScore-fitCoarseSlack || h.score < turns[0].score-fitTurnSlack {
				continue // clutter, most often: the fine climb gains a few hundredths
			}
			if h.p, h.score = fitClimb(win, &pat, n, h.p, fitCoarse, fitRounds); h.score > best.score {
				best = h
			}
		}
		if best.score > near.score {
			near = best
		}
		if turns[0].score > near.score {
			near = turns[0]
		}
		if best.score < fitMinScore {
			continue
		}
		best.rank = best.score
		if dm {
			// The clock track's match tells the size (the pitch) where the L and the
			// quiet zone match a grid of any pitch alike.
			g := best.grid()
			best.rank += fitScoreOf(win, &pat, &g, pat.fine)
		}
		hyps = append(hyps, best)
	}
	slices.SortStableFunc(hyps, func(a, b fitHyp) int { return cmp.Compare(b.rank, a.rank) })
	out := hyps[:0]
	for _, h := range hyps {
		if len(out) == fitReads {
			break
		}
		if _, ok := fitPrepare(win, h.grid(), fitSigmas[0], h.known()); ok {
			out = append(out, h)
		}
	}
	return out, near
}

// fitHypotheses returns the hypotheses decodeFitted would read on win, QR's then
// DataMatrix's (whatever reads), for the tests.
func (d *Decoder) fitHypotheses(win *fitWin, st fitStart) []fitHyp {
	var out []fitHyp
	if d.opt.Formats&QRCode != 0 {
		hyps, _ := d.fitSearch(win, st, false)
		out = append(out, hyps...)
	}
	if d.opt.Formats&DataMatrix != 0 {
		hyps, _ := d.fitSearch(win, st, true)
		out = append(out, hyps...)
	}
	return out
}

// fitCoarse and fitRounds are the climb's rounds (the steps halved after each): the coarse
// climb of every quarter turn, and all of them for the best.
const fitCoarse, fitRounds = 1, 5

// fitCoarseSlack is how far under fitMinScore a coarse climb may end and still get the fine
// one.
const fitCoarseSlack = 0.1

// fitTurnSlack is how far under the best quarter turn's coarse climb (of a size) another
// may end and still get the fine one: the fine climb gains up to about 0.1 on DataMatrix.
const fitTurnSlack = 0.1

// fitFineTurns is how many quarter turns per size, best first, get the fine climb.
const fitFineTurns = 4

// fitReads is how many hypotheses per symbology are refined and read.
const fitReads = 3

// fitClimb improves pose p of an n×n grid by coordinate ascent on fitScore, the steps
// halved each round.
func fitClimb(win *fitWin, pat *fitPattern, n int, p fitPose, from, to int) (fitPose, float64) {
	score := func(p fitPose) float64 {
		if p[3] < fitMinModule || p[4] < fitMinModule || p[3] > 1.25*p[4] || p[4] > 1.25*p[3] {
			return math.Inf(-1)
		}
		g := p.grid(n)
		return fitScore(win, pat, &g)
	}
	best := score(p)
	m := p[3]
	step := fitPose{0.5 * m, 0.5 * m, 0.03, 0.04 * m, 0.04 * m}
	for k := range step {
		step[k] /= float64(int(1) << from)
	}
	for range to - from {
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

// fitPoseQuiet is the quiet zone (modules) within which a grid in perspective must stay
// unfolded: the widest a symbology's pattern takes (QR's).
const fitPoseQuiet = qrFitQuiet

// readFitted fits the modules of hypothesis h on win and reads them at each blur in turn
// (allSigmas) or at the first: a QR symbol at its pose (its finders fix it), a DataMatrix
// symbol at its pose, or (when refine) refined first on the fit's residual (its pose as
// matched is most often 1–3 % long in pitch: its fixed modules are few).
func (d *Decoder) readFitted(win *fitWin, h fitHyp, refine, allSigmas bool) (Result, bool) {
	kn := h.known()
	// A symbol under strong sensor noise (*Under strong sensor noise* in docs/codes.md):
	// its blurs ranked by the fit's residual, its pose refined finely at the best, Chase's
	// search after the soft correction. Elsewhere the pass reads as it did.
	noisy := d.noisyLeft(win)
	area := float64(h.n*h.n) * h.p[3] * h.p[4] // px²: a full fit's time grows with it
	read := func(g fitGrid, sigma float64, chase bool) (Result, bool) {
		if !d.leftFor(d.fitCost(area)) {
			return Result{}, false
		}
		start := d.now
		sol, ok := fitModules(win, g, sigma, kn, fitMargins)
		d.learnFit(start, area)
		if !ok {
			return Result{}, false
		}
		lv := make([]float64, len(sol.dark))
		for m, v := range sol.dark {
			lv[m] = 1 - v
		}
		if res, ok := d.readFittedLevels(lv, h); ok || d.expired() {
			return res, ok
		}
		return d.readFittedChase(sol, h, chase)
	}
	if refine {
		// Its pose as matched is most often a little long in pitch, and then seldom reads:
		// read once as matched (the residual's best pose is not always the one that reads),
		// then refined.
		sigma := fitSigmas[0]
		if noisy {
			// A QR symbol's pose is fixed by its finders, but a fraction of a pixel off
			// under noise decides a module in ten wrong where the refined pose decides
			// one in thirty: refined at the blur that explains the pixels best.
			sigma = fitRankSigmas(win, h.grid(), kn)[0]
		}
		if res, ok := read(h.grid(), sigma, false); ok || d.expired() {
			return res, ok
		}
		if h.persp {
			h = fitRefineQuad(win, h, kn, d.expired)
		} else {
			rounds, evals := fitRefineRounds, fitRefineEvals
			if noisy {
				rounds, evals = fitNoisyRefineRounds, fitNoisyRefineEvals
			}
			h = fitRefineAt(win, h, kn, sigma, rounds, evals, d.expired)
		}
	}
	sigmas := fitSigmas[:1]
	if allSigmas {
		sigmas = fitSigmas
		if noisy {
			sigmas = fitRankSigmas(win, h.grid(), kn)
		}
	}
	for k, sigma := range sigmas {
		if d.expired() {
			break
		}
		// Chase's search only at the refined pose and its best blur: it costs up to
		// 30 ms a read, and a structure that matches and does not read (clutter, a grid
		// a module off) pays it.
		if res, ok := read(h.grid(), sigma, noisy && refine && k == 0); ok {
			return res, true
		}
	}
	return Result{}, false
}

// readFittedChase reads the fitted modules of h's QR or DataMatrix symbol as the
// least-squares fit decided them, each as sure as its darkness stood from ½ when it was
// decided, through the soft correction, ordered statistics (osdSearch) and, when chase,
// Chase's search over the least sure bits (chaseSearch): under strong sensor noise at
// 25–35 % contrast a symbol of 1.5–1.75-px modules keeps 10–17 of its codewords wrong at
// its best pose and blur, mostly by one bit each and spread over more codewords than
// erasures reach (a DataMatrix 18×18 symbol's block the same). Ordered statistics cost a
// fraction of a millisecond a block, so every fitted read that did not read by its levels
// gets them; Chase's search (up to 30 ms) only the reads chase says.
func (d *Decoder) readFittedChase(sol fitSolution, h fitHyp, chase bool) (Result, bool) {
	dark := make([]bool, len(sol.dark))
	conf := make([]float64, len(sol.dark))
	unsure := 0
	for m, v := range sol.dark {
		dark[m] = v > 0.5
		conf[m] = min(1, math.Abs(sol.soft[m]-0.5))
		if conf[m] < fitChaseUnsure {
			unsure++
		}
	}
	// A symbol decided clearly that did not correct is far from every codeword (clutter
	// with a QR grid's look, a grid a module off): no few flips reach one.
	if unsure < fitChaseMinUnsure {
		return Result{}, false
	}
	trials := 0
	if chase && d.chaseLeft > 0 {
		trials = fitChaseTrials
	}
	stop := func() bool { // called every chaseStopEvery words
		d.chaseLeft -= chaseStopEvery
		return d.chaseLeft <= 0 || d.expired()
	}
	if h.dm {
		return d.dmSoftDecodeChase(dark, conf, h.n, softSearch{osd: !d.noOSD, trials: trials, stop: stop})
	}
	return qrSoftDecodeChase(dark, conf, h.n, softSearch{osd: !d.noOSD, trials: trials, stop: stop})
}

// fitChaseTrials is how many words chaseSearch tries per block of a fitted symbol's
// best hypothesis (about 1.5 µs each; a frame's budget cuts it short), fitChaseFrameTrials
// how many over a frame's reads (a symbol that does not read is read at several poses and
// blurs, clutter that matches a QR grid as well).
const fitChaseTrials, fitChaseFrameTrials = 10000, 40000

// fitChaseUnsure is the confidence under which a fitted module is unsure, and
// fitChaseMinUnsure how many a symbol must have for Chase's search (a symbol under strong
// noise has a hundred; one drawn clearly, none).
const (
	fitChaseUnsure    = 0.25
	fitChaseMinUnsure = 16
)

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

// fitRefine improves hypothesis h's pose on the residual of a quick least-squares fit (one
// solve): along the pitch first, then by coordinate descent
// over the centre, the angle and the pitch, until stop (the frame's budget) says so: the
// matched filter's pitch for a DataMatrix symbol is a few per cent off (its L and quiet zone fix
// the pitch poorly), which over 18 modules is half a module at the far side.
func fitRefine(win *fitWin, h fitHyp, kn fitKnown, stop func() bool) fitHyp {
	return fitRefineAt(win, h, kn, fitSigmas[0], fitRefineRounds, fitRefineEvals, stop)
}

// fitRefineAt is fitRefine with the fits at blur sigma, in rounds rounds of at most
// maxEvals fits.
func fitRefineAt(win *fitWin, h fitHyp, kn fitKnown, sigma float64, rounds, maxEvals int, stop func() bool) fitHyp {
	evals := 0
	resid := func(p fitPose) float64 {
		if evals++; evals > maxEvals {
			return math.Inf(1)
		}
		sol, ok := fitModules(win, p.grid(h.n), sigma, kn, fitQuick)
		if !ok {
			return math.Inf(1)
		}
		return sol.resid
	}
	p := h.p
	best := resid(p)
	m := p[3]
	step := [4]float64{0.15 * m, 0.15 * m, 0.006, 0.01 * m}
	// The pitch first, along a line: the matched filter's is most often 1–3 % long.
	for _, sgn := range []float64{-1, 1} {
		moved := false
		for evals < maxEvals && !stop() {
			q := p
			q[3] += sgn * step[3]
			q[4] += sgn * step[3]
			r := resid(q)
			if r >= best {
				break
			}
			p, best, moved = q, r, true
		}
		if moved {
			break
		}
	}
	for range rounds {
		for improved := true; improved && evals <= maxEvals && !stop(); {
			improved = false
			for k := range step {
				for _, sgn := range []float64{-1, 1} {
					q := p
					if k == 3 {
						q[3] += sgn * step[3]
						q[4] += sgn * step[3]
					} else {
						q[k] += sgn * step[k]
					}
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

// fitRefineRounds are fitRefine's rounds (the steps halved after each), fitRefineEvals the
// one-round fits it may spend: after the pitch's line, a symbol's pose settles within about
// twenty; a pose that wanders, on a symbol that will not read, is cut short. (Each fit
// starts afresh: one started from the best pose's solution costs less but favours that
// pose, and stopped a pitch 1 % short.)
const fitRefineRounds, fitRefineEvals = 2, 24

// fitNoisyRefineRounds and fitNoisyRefineEvals are the same for a symbol under strong noise: its
// pose matters to a tenth of a pixel under strong noise, and each round's finer steps take
// a few more fits.
const fitNoisyRefineRounds, fitNoisyRefineEvals = 3, 32

// fitQuick is the least-squares fit's single round, for fitRefine.
var fitQuick = []float64{0.5}
