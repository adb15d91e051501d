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
// o + (i+½)·e1 + (j+½)·e2.
type fitGrid struct {
	ox, oy             float64
	e1x, e1y, e2x, e2y float64
	cols, rows         int
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

// at returns the pixel at module coordinates (u, v) (module (i, j) spans [i, i+1)×[j, j+1)).
func (g *fitGrid) at(u, v float64) (x, y float64) {
	return g.ox + u*g.e1x + v*g.e2x, g.oy + u*g.e1y + v*g.e2y
}

// inv returns the module coordinates of pixel (x, y).
func (g *fitGrid) inv(x, y float64) (u, v float64) {
	det := g.e1x*g.e2y - g.e1y*g.e2x
	dx, dy := x-g.ox, y-g.oy
	return (dx*g.e2y - dy*g.e2x) / det, (dy*g.e1x - dx*g.e1y) / det
}

// fitWin is a part of the frame as floats: pixel (x, y) of the frame is pix[(y−y0)·w + x−x0].
type fitWin struct {
	x0, y0, w, h int
	pix          []float32
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

// smoothed returns the window smoothed by a 3×3 binomial kernel (σ about 0.7 px).
func (w *fitWin) smoothed() fitWin {
	out := fitWin{x0: w.x0, y0: w.y0, w: w.w, h: w.h, pix: make([]float32, len(w.pix))}
	tmp := make([]float32, len(w.pix))
	for y := range w.h {
		r := w.pix[y*w.w : (y+1)*w.w]
		for x := range w.w {
			a, c := r[max(0, x-1)], r[min(w.w-1, x+1)]
			tmp[y*w.w+x] = (a + 2*r[x] + c) / 4
		}
	}
	for y := range w.h {
		a, c := tmp[max(0, y-1)*w.w:], tmp[min(w.h-1, y+1)*w.w:]
		b := tmp[y*w.w:]
		for x := range w.w {
			out.pix[y*w.w+x] = (a[x] + 2*b[x] + c[x]) / 4
		}
	}
	return out
}

// at returns the window's bilinear interpolation at frame pixel (x, y), clamped.
func (w *fitWin) at(x, y float64) float64 {
	x, y = x-float64(w.x0), y-float64(w.y0)
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
	dark  []float64 // per module of the grid (row major), its darkness: 0 paper, 1 ink
	paper float64   // P
	ink   float64   // C, the contrast
	resid float64   // the fit's residual, grey levels (RMS over the pixels)
	// binResid is the residual with every module decided (0 or 1): a grid of the wrong
	// size or pose fits the pixels with modules of any darkness, not with decided ones.
	binResid float64
	pixels   int
}

// fitLambda is the ridge on each data module's darkness (towards ½): small against the
// data term of a module's 2.25 pixels, it only keeps the normal equations well posed
// where a module is seen by few pixels (the grid's edge).
const fitLambda = 0.02

// fitIters bounds the conjugate-gradient iterations.
const fitIters = 20

// fitQuickIters bounds them for a fit of one round (fitRefine's).
const fitQuickIters = 10

// fitModules solves for the darkness of the data modules of grid on win, blurred by a
// Gaussian of sigma pixels, the known modules fixed. It fails when the known modules do not
// show a contrast (ink lighter than paper, or none).
func fitModules(win *fitWin, grid fitGrid, sigma float64, kn fitKnown, margins []float64) (fitSolution, bool) {
	iters := fitIters
	if len(margins) == 1 {
		iters = fitQuickIters
	}
	q := kn.q
	ew, eh := grid.cols+2*q, grid.rows+2*q
	m1 := math.Hypot(grid.e1x, grid.e1y)
	m2 := math.Hypot(grid.e2x, grid.e2y)
	type pixel = fitPixel
	const reach, span = fitReach, fitSpan
	// The window's pixels within the extended grid: its corners' bounding box.
	xmin, ymin, xmax, ymax := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{-float64(q), -float64(q)}, {float64(grid.cols + q), -float64(q)}, {-float64(q), float64(grid.rows + q)}, {float64(grid.cols + q), float64(grid.rows + q)}} {
		x, y := grid.at(c[0], c[1])
		xmin, ymin, xmax, ymax = min(xmin, x), min(ymin, y), max(xmax, x), max(ymax, y)
	}
	px0, py0 := max(win.x0, int(math.Ceil(xmin))), max(win.y0, int(math.Ceil(ymin)))
	px1, py1 := min(win.x0+win.w-1, int(xmax)), min(win.y0+win.h-1, int(ymax))
	if px1 <= px0 || py1 <= py0 {
		return fitSolution{}, false
	}
	edge := func(t, m float64) float32 { // a module's share along one axis, t pixels off its centre
		return float32(normalCDF((t+m/2)/sigma) - normalCDF((t-m/2)/sigma))
	}
	pixels := make([]pixel, 0, (px1-px0+1)*(py1-py0+1))
	var fu, fv [span]float32
	for y := py0; y <= py1; y++ {
		for x := px0; x <= px1; x++ {
			u, v := grid.inv(float64(x), float64(y))
			if u < -float64(q) || v < -float64(q) || u > float64(grid.cols+q) || v > float64(grid.rows+q) {
				continue
			}
			iu, iv := int(math.Floor(u)), int(math.Floor(v))
			for k := range span {
				fu[k] = edge((u-float64(iu-reach+k)-0.5)*m1, m1)
				fv[k] = edge((v-float64(iv-reach+k)-0.5)*m2, m2)
			}
			p := pixel{val: float64(win.pix[(y-win.y0)*win.w+x-win.x0])}
			for b := range span {
				j := iv - reach + b
				for a := range span {
					i := iu - reach + a
					k := b*span + a
					if i < -q || j < -q || i >= grid.cols+q || j >= grid.rows+q {
						p.mods[k] = -1 // beyond the quiet zone: paper
						continue
					}
					p.mods[k] = int32((j+q)*ew + i + q)
					p.w[k] = fu[a] * fv[b]
				}
			}
			pixels = append(pixels, p)
		}
	}
	n := ew * eh
	if len(pixels) < n {
		return fitSolution{}, false
	}
	// Paper and contrast from the pixels the known modules explain (data under a tenth).
	var sz, sv, szz, szv, cnt float64
	known := make([]float64, len(pixels)) // Σ known darkness × weight
	for pi := range pixels {
		p := &pixels[pi]
		var kd, unk float64
		for k, m := range p.mods {
			if m < 0 {
				continue
			}
			switch kn.mods[m] {
			case 1:
				kd += float64(p.w[k])
			case -1:
				unk += float64(p.w[k])
			}
		}
		known[pi] = kd
		if unk < 0.1 {
			sz += kd
			sv += p.val
			szz += kd * kd
			szv += kd * p.val
			cnt++
		}
	}
	den := cnt*szz - sz*sz
	if cnt < 20 || den <= 0 {
		return fitSolution{}, false
	}
	slope := (cnt*szv - sz*sv) / den // −C
	paper := (sv - slope*sz) / cnt
	contrast := -slope
	if contrast <= 0 {
		return fitSolution{}, false
	}
	// The data modules' darkness: minimise Σ (r − A·d)² + λ Σ (d − ½)², with r the pixels'
	// darkness the known modules leave unexplained; then, fitRounds times, the modules
	// decided beyond a margin are fixed at 0 or 1 and the others solved again (a module's
	// error comes mostly from its neighbours' at the grid's finest frequency: fixing the
	// sure ones removes theirs).
	full := make([]float64, n)
	free := make([]bool, n)
	for m, k := range kn.mods {
		switch k {
		case 1:
			full[m] = 1
		case -1:
			full[m], free[m] = 0.5, true
		}
	}
	unexplained := make([]float64, len(pixels))
	for _, margin := range margins {
		for pi := range pixels {
			p := &pixels[pi]
			s := known[pi]
			for k, m := range p.mods {
				if m >= 0 && kn.mods[m] < 0 && !free[m] {
					s += float64(p.w[k]) * full[m]
				}
			}
			unexplained[pi] = (paper-p.val)/contrast - s
		}
		fitSolve(freeShares(pixels, free), unexplained, free, full, iters)
		if margin >= 0.5 {
			break
		}
		for m := range full {
			if free[m] && math.Abs(full[m]-0.5) > margin {
				free[m] = false
				full[m] = math.Round(max(0, min(1, full[m])))
			}
		}
	}
	sol := fitSolution{paper: paper, ink: contrast, pixels: len(pixels), dark: make([]float64, grid.cols*grid.rows)}
	var ss, sb float64
	for pi := range pixels {
		p := &pixels[pi]
		var s, b float64
		for k, m := range p.mods {
			if m >= 0 {
				s += float64(p.w[k]) * full[m]
				b += float64(p.w[k]) * math.Round(max(0, min(1, full[m])))
			}
		}
		e := (paper - contrast*s) - p.val
		ss += e * e
		e = (paper - contrast*b) - p.val
		sb += e * e
	}
	sol.resid = math.Sqrt(ss / float64(len(pixels)))
	sol.binResid = math.Sqrt(sb / float64(len(pixels)))
	for j := range grid.rows {
		copy(sol.dark[j*grid.cols:(j+1)*grid.cols], full[(j+q)*ew+q:(j+q)*ew+q+grid.cols])
	}
	return sol, true
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

// fitPixel is one pixel of the fit: its level and the modules it sees, with their shares
// (index into the extended grid; −1: beyond the quiet zone, paper).
type fitPixel struct {
	val  float64
	mods [fitSpan * fitSpan]int32
	w    [fitSpan * fitSpan]float32
}

// fitCSR is the pixels' shares of the free modules, row by row (pixel by pixel): those of
// pixel i are mod[start[i]:start[i+1]] and w[…].
type fitCSR struct {
	start []int32
	mod   []int32
	w     []float32
}

// freeShares returns the pixels' shares of the free modules over fitMinShare.
func freeShares(pixels []fitPixel, free []bool) fitCSR {
	c := fitCSR{start: make([]int32, 0, len(pixels)+1)}
	for pi := range pixels {
		p := &pixels[pi]
		c.start = append(c.start, int32(len(c.mod)))
		for k, m := range p.mods {
			if m >= 0 && free[m] && p.w[k] > fitMinShare {
				c.mod = append(c.mod, m)
				c.w = append(c.w, p.w[k])
			}
		}
	}
	c.start = append(c.start, int32(len(c.mod)))
	return c
}

// fitMinShare is the share of a module in a pixel under which the fit leaves it out.
const fitMinShare = 2e-3

// fitSolve improves x on the free modules towards the minimum of Σ (r − A·x)² +
// λ Σ (x − ½)² (A: the pixels' shares of the free modules, a) by conjugate gradients on
// the normal equations, from x as it is, for at most iters iterations.
func fitSolve(a fitCSR, r []float64, free []bool, x []float64, iters int) {
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
	tmp := make([]float64, np)
	mulA(x, tmp)
	for pi := range tmp {
		tmp[pi] = r[pi] - tmp[pi]
	}
	res := make([]float64, n)
	mulAt(tmp, res)
	for m := range res {
		if free[m] {
			res[m] -= fitLambda * (x[m] - 0.5)
		} else {
			res[m] = 0
		}
	}
	dir := append([]float64(nil), res...)
	ad := make([]float64, n)
	rr := dot(res, res)
	for range iters {
		if rr < 1e-10 {
			break
		}
		mulA(dir, tmp)
		mulAt(tmp, ad)
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
