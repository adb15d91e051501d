package barcode

import "math"

// The least-squares module sampler of the fitted pass (matrix_fit.go): once a symbol's grid
// and blur are known, the frame around it is a linear function of its modules' darkness,
//
//	I(x) ≈ P − C · Σ_k d_k · w_k(x),
//
// P the paper's level, C the contrast, d_k ∈ [0, 1] module k's darkness and w_k(x) the
// share of module k (a square of the grid's pitch, blurred by a Gaussian of σ) that pixel
// x sees. The modules a symbology fixes (finder, timing, quiet zone) are known; the others
// are the solution of a small regularised least-squares problem, one unknown per module
// (2.25 pixels at 1.5-px modules), solved by conjugate gradients on the normal equations.
// A pixel-wise deconvolution amplifies the noise at the pixels' own frequency; this fit has
// no unknowns there.

// fitGrid is a module grid in frame pixels: module (i, j) (column i, row j) is centred at
// o + (i+½)·e1 + (j+½)·e2 (affine), or, when persp, at h(i+½, j+½), h a homography (the
// grid seen in perspective: quadGrid).
type fitGrid struct {
	ox, oy             float64
	e1x, e1y, e2x, e2y float64
	cols, rows         int
	persp              bool
	h, hi              [9]float64 // module coordinates → pixel, and back (row major, homogeneous)
}

// newFitGrid returns the cols×rows grid centred at (cx, cy), turned by theta, of modules
// m1 pixels along its rows and m2 along its columns.
func newFitGrid(cx, cy, theta, m1, m2 float64, cols, rows int) fitGrid {
	c, s := math.Cos(theta), math.Sin(theta)
	g := fitGrid{e1x: m1 * c, e1y: m1 * s, e2x: -m2 * s, e2y: m2 * c, cols: cols, rows: rows}
	g.ox = cx - float64(cols)/2*g.e1x - float64(rows)/2*g.e2x
	g.oy = cy - float64(cols)/2*g.e1y - float64(rows)/2*g.e2y
	return g
}

// fitQuad is a grid's four corners in frame pixels: those of module coordinates (0, 0),
// (cols, 0), (cols, rows) and (0, rows), in that order.
type fitQuad [4][2]float64

// quad returns g's corners.
func (g *fitGrid) quad() fitQuad {
	var q fitQuad
	for k, c := range [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
		q[k][0], q[k][1] = g.at(c[0]*float64(g.cols), c[1]*float64(g.rows))
	}
	return q
}

// quadGrid returns the cols×rows grid in perspective whose corners are q: the homography
// that takes the grid's corners there. False when the quad is not convex or the grid's
// scale varies by more than fitMaxScaleRatio within its quiet zone (qz modules): a label seen
// from aside is well within it.
func quadGrid(q fitQuad, cols, rows, qz int) (fitGrid, bool) {
	turn := 0.0
	for k := range q {
		a, b, c := q[k], q[(k+1)%4], q[(k+2)%4]
		cr := (b[0]-a[0])*(c[1]-b[1]) - (b[1]-a[1])*(c[0]-b[0])
		if cr == 0 || turn != 0 && (cr > 0) != (turn > 0) {
			return fitGrid{}, false
		}
		turn = cr
	}
	// The unit square to q (Heckbert), then module coordinates to the unit square.
	x0, y0, x1, y1, x2, y2, x3, y3 := q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1], q[3][0], q[3][1]
	dx1, dx2, dx3 := x1-x2, x3-x2, x0-x1+x2-x3
	dy1, dy2, dy3 := y1-y2, y3-y2, y0-y1+y2-y3
	den := dx1*dy2 - dx2*dy1
	if den == 0 {
		return fitGrid{}, false
	}
	gu, gv := (dx3*dy2-dx2*dy3)/den, (dx1*dy3-dx3*dy1)/den
	sc, sr := 1/float64(cols), 1/float64(rows)
	h := [9]float64{(x1 - x0 + gu*x1) * sc, (x3 - x0 + gv*x3) * sr, x0,
		(y1 - y0 + gu*y1) * sc, (y3 - y0 + gv*y3) * sr, y0,
		gu * sc, gv * sr, 1}
	g := fitGrid{cols: cols, rows: rows, persp: true, h: h}
	g.hi = [9]float64{h[4]*h[8] - h[5]*h[7], h[2]*h[7] - h[1]*h[8], h[1]*h[5] - h[2]*h[4],
		h[5]*h[6] - h[3]*h[8], h[0]*h[8] - h[2]*h[6], h[2]*h[3] - h[0]*h[5],
		h[3]*h[7] - h[4]*h[6], h[1]*h[6] - h[0]*h[7], h[0]*h[4] - h[1]*h[3]}
	wlo, whi := math.Inf(1), math.Inf(-1)
	for _, c := range [4][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		u := float64(cols)/2 + c[0]*(float64(cols)/2+float64(qz))
		v := float64(rows)/2 + c[1]*(float64(rows)/2+float64(qz))
		w := h[6]*u + h[7]*v + h[8]
		wlo, whi = min(wlo, w), max(whi, w)
	}
	if wlo <= 0 || whi > fitMaxScaleRatio*wlo {
		return fitGrid{}, false
	}
	// The affine grid of its centre's tangent, for what reads o and e (none in the fits).
	cx, cy := g.at(float64(cols)/2, float64(rows)/2)
	ax, ay := g.at(float64(cols)/2+1, float64(rows)/2)
	bx, by := g.at(float64(cols)/2, float64(rows)/2+1)
	g.e1x, g.e1y, g.e2x, g.e2y = ax-cx, ay-cy, bx-cx, by-cy
	g.ox = cx - float64(cols)/2*g.e1x - float64(rows)/2*g.e2x
	g.oy = cy - float64(cols)/2*g.e1y - float64(rows)/2*g.e2y
	return g, true
}

// fitMaxScaleRatio is the largest ratio of a perspective grid's scale from one corner of
// its quiet zone to another.
const fitMaxScaleRatio = 2.5

// at returns the pixel at module coordinates (u, v) (module (i, j) spans [i, i+1)×[j, j+1)).
func (g *fitGrid) at(u, v float64) (x, y float64) {
	if g.persp {
		h := &g.h
		w := h[6]*u + h[7]*v + h[8]
		return (h[0]*u + h[1]*v + h[2]) / w, (h[3]*u + h[4]*v + h[5]) / w
	}
	return g.ox + u*g.e1x + v*g.e2x, g.oy + u*g.e1y + v*g.e2y
}

// inv returns the module coordinates of pixel (x, y).
func (g *fitGrid) inv(x, y float64) (u, v float64) {
	if g.persp {
		h := &g.hi
		w := h[6]*x + h[7]*y + h[8]
		return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w
	}
	det := g.e1x*g.e2y - g.e1y*g.e2x
	dx, dy := x-g.ox, y-g.oy
	return (dx*g.e2y - dy*g.e2x) / det, (dy*g.e1x - dx*g.e1y) / det
}

// pitches returns the grid's pitch along its rows and along its columns as a blur sees it
// at pixel (x, y): the inverse of the gradients of u and of v there (the module widths a
// Gaussian of the pixels' own shape spans along each axis).
func (g *fitGrid) pitches(x, y float64) (m1, m2 float64) {
	if !g.persp {
		det := g.e1x*g.e2y - g.e1y*g.e2x
		return math.Abs(det) / math.Hypot(g.e2x, g.e2y), math.Abs(det) / math.Hypot(g.e1x, g.e1y)
	}
	_, _, m1, m2 = g.invPitches(x, y)
	return m1, m2
}

// invPitches is inv and pitches at once, for a perspective grid: u = (i₀x + i₁y + i₂)/W,
// so ∇u = (i₀ − u·i₆, i₁ − u·i₇)/W.
func (g *fitGrid) invPitches(x, y float64) (u, v, m1, m2 float64) {
	h := &g.hi
	w := h[6]*x + h[7]*y + h[8]
	u, v = (h[0]*x+h[1]*y+h[2])/w, (h[3]*x+h[4]*y+h[5])/w
	aw := math.Abs(w)
	return u, v, aw / math.Hypot(h[0]-u*h[6], h[1]-u*h[7]), aw / math.Hypot(h[3]-v*h[6], h[4]-v*h[7])
}

// fitWin is a part of the frame as floats: pixel (x, y) of the frame is pix[(y−y0)·w + x−x0].
type fitWin struct {
	x0, y0, w, h int
	pix          []float32
	scratch      fitScratch // the fits' buffers (fitModules)
	noiseLevel   float64    // noise, once measured (noiseKnown)
	noiseKnown   bool
}

// noise returns the window's sensor noise in grey levels (fitStartOf's, and the fitted
// pass's gate under strong noise): the median absolute difference of horizontal neighbours
// over 0.954 (|N(0, 2σ²)|'s median is 0.954σ), measured once.
func (w *fitWin) noise() float64 {
	if w.noiseKnown {
		return w.noiseLevel
	}
	var diffs [256]int
	for y := range w.h {
		for x := 1; x < w.w; x++ {
			diffs[abs(int(w.pix[y*w.w+x])-int(w.pix[y*w.w+x-1]))]++
		}
	}
	w.noiseLevel, w.noiseKnown = (float64(histQuantile(&diffs, 0.5))+0.5)/0.954, true
	return w.noiseLevel
}

// newFitWin copies the square of half side half about (cx, cy) out of g.
func newFitWin(g *gray, cx, cy float64, half int) fitWin {
	x0, y0 := max(0, int(cx)-half), max(0, int(cy)-half)
	x1, y1 := min(g.w, int(cx)+half+1), min(g.h, int(cy)+half+1)
	w := fitWin{x0: x0, y0: y0, w: max(1, x1-x0), h: max(1, y1-y0)}
	w.pix = make([]float32, w.w*w.h)
	for y := range w.h {
		for x := range w.w {
			w.pix[y*w.w+x] = float32(g.pix[(y0+y)*g.w+x0+x])
		}
	}
	return w
}

// smoothed returns a copy of w whose pixels are the means of their 3×3 neighbourhoods (the
// window's edge: of those within it), with buffers of its own.
func (w *fitWin) smoothed() fitWin {
	o := fitWin{x0: w.x0, y0: w.y0, w: w.w, h: w.h, pix: make([]float32, len(w.pix))}
	for y := range w.h {
		for x := range w.w {
			var s, c float32
			for yy := max(0, y-1); yy <= min(w.h-1, y+1); yy++ {
				for xx := max(0, x-1); xx <= min(w.w-1, x+1); xx++ {
					s += w.pix[yy*w.w+xx]
					c++
				}
			}
			o.pix[y*w.w+x] = s / c
		}
	}
	return o
}

// flattenPlane subtracts from w's pixels the plane that fits them best (least squares over
// the window), keeping their mean: an uneven light's fall-off across the window. The pixels
// stay grey levels (0–255): fitStartOf and noise count them in histograms.
func (w *fitWin) flattenPlane() {
	var n, sx, sy, sv, sxx, syy, sxy, sxv, syv float64
	for y := range w.h {
		for x := range w.w {
			v, fx, fy := float64(w.pix[y*w.w+x]), float64(x), float64(y)
			n++
			sx, sy, sv = sx+fx, sy+fy, sv+v
			sxx, syy, sxy = sxx+fx*fx, syy+fy*fy, sxy+fx*fy
			sxv, syv = sxv+fx*v, syv+fy*v
		}
	}
	mx, my, mv := sx/n, sy/n, sv/n
	cxx, cyy, cxy := sxx/n-mx*mx, syy/n-my*my, sxy/n-mx*my
	cxv, cyv := sxv/n-mx*mv, syv/n-my*mv
	det := cxx*cyy - cxy*cxy
	if det <= 0 {
		return // a window a pixel wide
	}
	a, b := (cxv*cyy-cyv*cxy)/det, (cyv*cxx-cxv*cxy)/det
	for y := range w.h {
		for x := range w.w {
			v := float64(w.pix[y*w.w+x]) - a*(float64(x)-mx) - b*(float64(y)-my)
			w.pix[y*w.w+x] = float32(max(0, min(255, v)))
		}
	}
}

// at returns the window's bilinear interpolation at frame pixel (x, y), clamped.
func (w *fitWin) at(x, y float64) float64 {
	return w.atLocal(x-float64(w.x0), y-float64(w.y0))
}

// atLocal is at in the window's own pixels ((0, 0) its first).
func (w *fitWin) atLocal(x, y float64) float64 {
	if x >= 0 && y >= 0 && x < float64(w.w-1) && y < float64(w.h-1) {
		ix, iy := int(x), int(y)
		fx, fy := x-float64(ix), y-float64(iy)
		i := iy*w.w + ix
		p0, p1 := float64(w.pix[i]), float64(w.pix[i+1])
		p2, p3 := float64(w.pix[i+w.w]), float64(w.pix[i+w.w+1])
		a := p0 + fx*(p1-p0)
		b := p2 + fx*(p3-p2)
		return a + fy*(b-a)
	}
	x = max(0, min(float64(w.w-1), x))
	y = max(0, min(float64(w.h-1), y))
	ix, iy := min(int(x), w.w-2), min(int(y), w.h-2)
	if ix < 0 || iy < 0 {
		return float64(w.pix[0])
	}
	fx, fy := x-float64(ix), y-float64(iy)
	p := w.pix[iy*w.w+ix:]
	a := float64(p[0]) + fx*float64(p[1]-p[0])
	b := float64(p[w.w]) + fx*float64(p[w.w+1]-p[w.w])
	return a + fy*(b-a)
}

// fitKnown says what a symbology fixes of the extended grid (the grid and q modules of
// quiet zone round it, index (j+q)·(cols+2q) + i+q): 0 light, 1 dark, −1 data.
type fitKnown struct {
	q    int
	mods []int8
	fine func(i, j int) bool // the modules of the finest fixed pattern (fitPattern.fine)
}

// fitSolution is what the least-squares fit found.
type fitSolution struct {
	dark []float64 // per module of the grid (row major), its darkness: 0 paper, 1 ink
	// soft is each module's darkness as solved when it was decided (fixed at 0 or 1 in a
	// round of fitModules, or left free to the end): how far from ½ it stood then.
	soft   []float64
	paper  float64 // P
	ink    float64 // C, the contrast
	resid  float64 // the fit's residual, grey levels (RMS over the pixels)
	pixels int
}

// fitLambda is the ridge on each data module's darkness (towards ½): small against the
// data term of a module's 2.25 pixels, it only keeps the normal equations well posed
// where a module is seen by few pixels (the grid's edge).
const fitLambda = 0.02

// fitIters bounds the conjugate-gradient iterations.
const fitIters = 20

// fitQuickIters bounds them for a fit of one round (fitRefine's).
const fitQuickIters = 10

// fitPrep is what the fit of a grid knows before it solves: the pixels' shares of the
// modules (in the window's buffers), the known modules' darkness each pixel sees, and the
// paper's level and the contrast.
type fitPrep struct {
	a               *fitCSR
	known           []float64
	paper, contrast float64
}

// fitPrepare measures the paper and the contrast of grid on win from the pixels the known
// modules explain (data under a tenth). It fails when the grid leaves win, has fewer pixels
// than modules, or its known modules show no contrast (ink lighter than paper, or none).
func fitPrepare(win *fitWin, grid fitGrid, sigma float64, kn fitKnown) (fitPrep, bool) {
	sc := &win.scratch
	q := kn.q
	n := (grid.cols + 2*q) * (grid.rows + 2*q)
	a, ok := fitShares(win, &grid, sigma, q)
	if !ok {
		return fitPrep{}, false
	}
	np := len(a.val)
	if np < n {
		return fitPrep{}, false
	}
	var sz, sv, szz, szv, cnt float64
	known := grow(&sc.known, np) // Σ known darkness × weight
	for pi := range np {
		var kd, unk float64
		for e := a.start[pi]; e < a.start[pi+1]; e++ {
			switch kn.mods[a.mod[e]] {
			case 1:
				kd += float64(a.w[e])
			case -1:
				unk += float64(a.w[e])
			}
		}
		known[pi] = kd
		if unk < 0.1 {
			v := a.val[pi]
			sz += kd
			sv += v
			szz += kd * kd
			szv += kd * v
			cnt++
		}
	}
	den := cnt*szz - sz*sz
	if cnt < 20 || den <= 0 {
		return fitPrep{}, false
	}
	slope := (cnt*szv - sz*sv) / den // −C
	paper := (sv - slope*sz) / cnt
	if slope >= 0 {
		return fitPrep{}, false
	}
	return fitPrep{a: a, known: known, paper: paper, contrast: -slope}, true
}

// fitModules solves for the darkness of the data modules of grid on win, blurred by a
// Gaussian of sigma pixels, the known modules fixed, in rounds of margins. It fails as
// fitPrepare does. Its buffers are win's (fitScratch).
func fitModules(win *fitWin, grid fitGrid, sigma float64, kn fitKnown, margins []float64) (fitSolution, bool) {
	iters := fitIters
	if len(margins) == 1 {
		iters = fitQuickIters
	}
	pr, ok := fitPrepare(win, grid, sigma, kn)
	if !ok {
		return fitSolution{}, false
	}
	sc := &win.scratch
	q := kn.q
	ew, eh := grid.cols+2*q, grid.rows+2*q
	n := ew * eh
	a, known, paper, contrast := pr.a, pr.known, pr.paper, pr.contrast
	np := len(a.val)
	// The data modules' darkness: minimise Σ (r − A·d)² + λ Σ (d − ½)², with r the pixels'
	// darkness the known modules leave unexplained; then, fitRounds times, the modules
	// decided beyond a margin are fixed at 0 or 1 and the others solved again (a module's
	// error comes mostly from its neighbours' at the grid's finest frequency: fixing the
	// sure ones removes theirs).
	full := grow(&sc.full, n)
	free := growBool(&sc.free, n)
	for m, k := range kn.mods {
		switch k {
		case 1:
			full[m], free[m] = 1, false
		case -1:
			full[m], free[m] = 0.5, true
		default:
			full[m], free[m] = 0, false
		}
	}
	unexplained := grow(&sc.unexplained, np)
	soft := grow(&sc.soft, n)
	for _, margin := range margins {
		for pi := range np {
			s := known[pi]
			for e := a.start[pi]; e < a.start[pi+1]; e++ {
				if m := a.mod[e]; kn.mods[m] < 0 && !free[m] {
					s += float64(a.w[e]) * full[m]
				}
			}
			unexplained[pi] = (paper-a.val[pi])/contrast - s
		}
		fitSolve(sc, a.free(&sc.freeCSR, free), unexplained, free, full, iters)
		if margin >= 0.5 {
			break
		}
		for m := range full {
			if free[m] && math.Abs(full[m]-0.5) > margin {
				free[m] = false
				soft[m] = full[m]
				full[m] = math.Round(max(0, min(1, full[m])))
			}
		}
	}
	sol := fitSolution{paper: paper, ink: contrast, pixels: np, dark: make([]float64, grid.cols*grid.rows)}
	var ss float64
	for pi := range np {
		var s float64
		for e := a.start[pi]; e < a.start[pi+1]; e++ {
			s += float64(a.w[e]) * full[a.mod[e]]
		}
		e := (paper - contrast*s) - a.val[pi]
		ss += e * e
	}
	sol.resid = math.Sqrt(ss / float64(np))
	for m := range full {
		if free[m] || kn.mods[m] >= 0 {
			soft[m] = full[m]
		}
	}
	sol.soft = make([]float64, grid.cols*grid.rows)
	for j := range grid.rows {
		copy(sol.dark[j*grid.cols:(j+1)*grid.cols], full[(j+q)*ew+q:(j+q)*ew+q+grid.cols])
		copy(sol.soft[j*grid.cols:(j+1)*grid.cols], soft[(j+q)*ew+q:(j+q)*ew+q+grid.cols])
	}
	return sol, true
}

// fitShares returns the pixels of win within grid's extended grid (q modules of quiet zone
// round it) and the shares of the modules each sees under a Gaussian blur of sigma, in
// win's buffers (valid until the next call).
func fitShares(win *fitWin, grid *fitGrid, sigma float64, q int) (*fitCSR, bool) {
	const reach, span = fitReach, fitSpan
	sc := &win.scratch
	ew := grid.cols + 2*q
	m1, m2 := grid.pitches(0, 0) // the affine grid's, everywhere
	// The window's pixels within the extended grid: its corners' bounding box.
	xmin, ymin, xmax, ymax := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{-float64(q), -float64(q)}, {float64(grid.cols + q), -float64(q)}, {-float64(q), float64(grid.rows + q)}, {float64(grid.cols + q), float64(grid.rows + q)}} {
		x, y := grid.at(c[0], c[1])
		xmin, ymin, xmax, ymax = min(xmin, x), min(ymin, y), max(xmax, x), max(ymax, y)
	}
	px0, py0 := max(win.x0, int(math.Ceil(xmin))), max(win.y0, int(math.Ceil(ymin)))
	px1, py1 := min(win.x0+win.w-1, int(xmax)), min(win.y0+win.h-1, int(ymax))
	if px1 <= px0 || py1 <= py0 {
		return nil, false
	}
	a := &sc.all
	a.reset()
	// A module's share along one axis: the blurred pixel's overlap with the module's
	// span, Φ at its two edges (in σ), which the next module shares.
	shares := func(f float64, m float64, out *[span]float32) { // f: the pixel's offset in its module
		prev := normalCDF((f + reach) * m / sigma)
		for k := range span {
			next := normalCDF((f + reach - float64(k) - 1) * m / sigma)
			out[k] = float32(prev - next)
			prev = next
		}
	}
	var fu, fv [span]float32
	for y := py0; y <= py1; y++ {
		for x := px0; x <= px1; x++ {
			var u, v float64
			if grid.persp {
				u, v, m1, m2 = grid.invPitches(float64(x), float64(y))
			} else {
				u, v = grid.inv(float64(x), float64(y))
			}
			if u < -float64(q) || v < -float64(q) || u > float64(grid.cols+q) || v > float64(grid.rows+q) {
				continue
			}
			fu0, fv0 := math.Floor(u), math.Floor(v)
			iu, iv := int(fu0), int(fv0)
			shares(u-fu0, m1, &fu)
			shares(v-fv0, m2, &fv)
			for b := range span {
				j := iv - reach + b
				if j < -q || j >= grid.rows+q {
					continue // beyond the quiet zone: paper
				}
				for c := range span {
					i := iu - reach + c
					if i < -q || i >= grid.cols+q {
						continue
					}
					if w := fu[c] * fv[b]; w > 0 {
						a.mod = append(a.mod, int32((j+q)*ew+i+q))
						a.w = append(a.w, w)
					}
				}
			}
			a.val = append(a.val, float64(win.pix[(y-win.y0)*win.w+x-win.x0]))
			a.start = append(a.start, int32(len(a.mod)))
		}
	}
	return a, true
}

// fitScratch holds the buffers of the fits of one window (fitWin.scratch), reused from fit
// to fit: a candidate's search and reads run a few hundred of them.
type fitScratch struct {
	all, freeCSR             fitCSR
	known, full, unexplained []float64
	soft                     []float64
	tmp, res, dir, ad        []float64
	free                     []bool
}

// grow returns (*buf)[:n], reallocated when too short; its contents are stale.
func grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

func growBool(buf *[]bool, n int) []bool {
	if cap(*buf) < n {
		*buf = make([]bool, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// fitReach is how many modules either side of its own a pixel sees (the blur's ±3σ and
// half a module, at pitches from fitMinModule).
const fitReach = 2

const fitSpan = 2*fitReach + 1

// fitCSR is the pixels' shares of the modules, row by row (pixel by pixel): those of
// pixel i are mod[start[i]:start[i+1]] and w[…]; val, when set, are the pixels' levels.
type fitCSR struct {
	start []int32
	mod   []int32
	w     []float32
	val   []float64
}

func (c *fitCSR) reset() {
	c.start, c.mod, c.w, c.val = append(c.start[:0], 0), c.mod[:0], c.w[:0], c.val[:0]
}

// free returns, in out, the shares of the free modules over fitMinShare.
func (c *fitCSR) free(out *fitCSR, free []bool) *fitCSR {
	out.reset()
	for pi := range len(c.start) - 1 {
		for e := c.start[pi]; e < c.start[pi+1]; e++ {
			if m := c.mod[e]; free[m] && c.w[e] > fitMinShare {
				out.mod = append(out.mod, m)
				out.w = append(out.w, c.w[e])
			}
		}
		out.start = append(out.start, int32(len(out.mod)))
	}
	return out
}

// fitMinShare is the share of a module in a pixel under which the fit leaves it out.
const fitMinShare = 2e-3

// fitSolve improves x on the free modules towards the minimum of Σ (r − A·x)² +
// λ Σ (x − ½)² (A: the pixels' shares of the free modules, a) by conjugate gradients on
// the normal equations, from x as it is, for at most iters iterations.
func fitSolve(sc *fitScratch, a *fitCSR, r []float64, free []bool, x []float64, iters int) {
	n := len(x)
	np := len(a.start) - 1
	mulA := func(d, out []float64) { // out = A·d
		for pi := range np {
			var s float64
			for e := a.start[pi]; e < a.start[pi+1]; e++ {
				s += float64(a.w[e]) * d[a.mod[e]]
			}
			out[pi] = s
		}
	}
	mulAt := func(v, out []float64) { // out = Aᵀ·v
		clear(out)
		for pi := range np {
			ev := v[pi]
			for e := a.start[pi]; e < a.start[pi+1]; e++ {
				out[a.mod[e]] += float64(a.w[e]) * ev
			}
		}
	}
	tmp := grow(&sc.tmp, np)
	mulA(x, tmp)
	for pi := range tmp {
		tmp[pi] = r[pi] - tmp[pi]
	}
	res := grow(&sc.res, n)
	mulAt(tmp, res)
	for m := range res {
		if free[m] {
			res[m] -= fitLambda * (x[m] - 0.5)
		} else {
			res[m] = 0
		}
	}
	dir := grow(&sc.dir, n)
	copy(dir, res)
	ad := grow(&sc.ad, n)
	rr := dot(res, res)
	for range iters {
		if rr < 1e-10 {
			break
		}
		// ad = Aᵀ·A·dir, pixel by pixel in one pass.
		clear(ad)
		for pi := range np {
			lo, hi := a.start[pi], a.start[pi+1]
			mods, ws := a.mod[lo:hi], a.w[lo:hi]
			var s float64
			for e, m := range mods {
				s += float64(ws[e]) * dir[m]
			}
			for e, m := range mods {
				ad[m] += float64(ws[e]) * s
			}
		}
		for m := range ad {
			if free[m] {
				ad[m] += fitLambda * dir[m]
			}
		}
		alpha := rr / dot(dir, ad)
		for m := range x {
			if free[m] {
				x[m] += alpha * dir[m]
				res[m] -= alpha * ad[m]
			}
		}
		rn := dot(res, res)
		for m := range dir {
			dir[m] = res[m] + rn/rr*dir[m]
		}
		rr = rn
	}
}

// fitMargins are the rounds of the fit: after each, the free modules further than the
// margin from ½ are fixed (the last, ½, ends it).
var fitMargins = []float64{0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.5}

// normalCDF is the standard normal distribution function, interpolated in a table
// (cdfTable: steps of 1/cdfScale over ±cdfReach; error under 10⁻⁵).
func normalCDF(x float64) float64 {
	f := (x + cdfReach) * cdfScale
	if f <= 0 {
		return 0
	}
	if f >= float64(len(cdfTable)-1) {
		return 1
	}
	i := int(f)
	return cdfTable[i] + (f-float64(i))*(cdfTable[i+1]-cdfTable[i])
}

const cdfReach, cdfScale = 6, 64

var cdfTable = func() []float64 {
	t := make([]float64, 2*cdfReach*cdfScale+1)
	for i := range t {
		t[i] = 0.5 * math.Erfc(-(float64(i)/cdfScale-cdfReach)/math.Sqrt2)
	}
	return t
}()
