package barcode

import (
	"math"
)

// Our DataMatrix detector. gozxing's searches from the image centre for two solid edges
// and gives up on small, faint, shadowed or off-centre symbols; this one works on a matrix
// candidate's crop (decodeMatrix), the symbol anywhere in it at any rotation:
//
//  1. dmMask: a denoised local-threshold ink mask (a pixel is ink when it is clearly darker
//     than its neighbourhood, by a margin over the crop's own noise), at two smoothings;
//  2. dmGroupHulls (dm_blobs.go): the ink pieces grouped at several module scales, and the
//     convex hull of each group large enough to be a symbol;
//  3. dmHullQuad and dmMinRect (dm_outline.go): a first outline from the hull;
//  4. dmRefine (dm_refine.go): each side fitted again to the sub-pixel edge points along
//     it, so that the corners are the intersections of four precise lines.
//
// dm_sample.go then finds the orientation and size from the L and the timing patterns and
// samples the modules. The outlines are produced lazily (dmDetector.next), since most
// crops read from their first.

// dmPt is a point in crop pixels.
type dmPt struct{ x, y float64 }

// dmQuad is a symbol's outline: four corners in order round the quadrilateral (clockwise
// as displayed, y down).
type dmQuad [4]dmPt

// dmLine is the line n·p = c with |n| = 1.
type dmLine struct{ nx, ny, c float64 }

func lineThrough(a, b dmPt) dmLine {
	dx, dy := b.x-a.x, b.y-a.y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return dmLine{1, 0, a.x}
	}
	nx, ny := -dy/l, dx/l
	return dmLine{nx, ny, nx*a.x + ny*a.y}
}

// intersect returns the crossing of two lines; ok is false when they are nearly parallel.
func (l dmLine) intersect(m dmLine) (dmPt, bool) {
	det := l.nx*m.ny - l.ny*m.nx
	if math.Abs(det) < 0.2 { // within ~12° of parallel: no corner of a symbol
		return dmPt{}, false
	}
	return dmPt{(l.c*m.ny - l.ny*m.c) / det, (l.nx*m.c - l.c*m.nx) / det}, true
}

// dmMaxBlobs bounds the groups examined per crop and scale, most ink first.
const dmMaxBlobs = 3

// dmFineMax is the largest grouping radius on the 3×3-smoothed mask; larger ones group
// the twice-smoothed one.
const dmFineMax = 3

// dmMaxOutlines bounds the outlines refined per crop (the cost of a crop without a
// symbol).
const dmMaxOutlines = 8

// dmDetector yields the outlines of the symbols a crop may hold, most likely first.
type dmDetector struct {
	w, h        int
	blur        []float32 // the crop smoothed 3×3: edges and timing are measured on it
	fine        []dmRun   // ink runs of the 3×3-smoothed mask, labelled
	coarse      []dmRun   // … of the mask smoothed twice (coarse scales: fewer speckles)
	fineSizes   []int
	coarseSizes []int
	scale       int      // next index into dmScales
	hulls       [][]dmPt // hulls found so far
	pending     []dmQuad // first outlines of the hulls found, to refine and hand out
	made        int      // outlines refined so far
	done        []dmQuad // outlines handed out
}

// newDMDetector prepares the masks of crop c; nil when c is too small or too large.
func newDMDetector(c *gray) *dmDetector {
	if c.w < 16 || c.h < 16 || c.w > 2048 || c.h > 2048 {
		return nil
	}
	d := &dmDetector{w: c.w, h: c.h}
	d.blur = dmBox3(dmFloats(c), c.w, c.h)
	d.fine = dmRunsOf(dmMask(c.w, c.h, d.blur, dmNoise(d.blur, c.w, c.h)), c.w, c.h)
	d.fineSizes = dmLabelRuns(d.fine)
	return d
}

// coarseRuns returns the ink runs of the twice-smoothed mask, made on first use.
func (d *dmDetector) coarseRuns() ([]dmRun, []int) {
	if d.coarseSizes == nil {
		blur2 := dmBox3(d.blur, d.w, d.h)
		d.coarse = dmRunsOf(dmMask(d.w, d.h, blur2, dmNoise(blur2, d.w, d.h)), d.w, d.h)
		d.coarseSizes = dmLabelRuns(d.coarse)
	}
	return d.coarse, d.coarseSizes
}

// next returns the next outline; ok is false when there is none left.
func (d *dmDetector) next() (dmQuad, bool) { return d.nextOfScale(len(dmScales)) }

// nextOfScale returns the next outline of the first n groupings (dmScales); ok is false
// when they have none left (next goes on with the others). Each grouping's hulls give
// their first outlines at once, each refined only when it is handed out (most crops read
// from their first).
func (d *dmDetector) nextOfScale(n int) (dmQuad, bool) {
	for {
		for len(d.pending) > 0 && d.made < dmMaxOutlines {
			q := d.pending[0]
			d.pending = d.pending[1:]
			d.made++
			q = dmRefine(d.blur, d.w, d.h, q)
			if q.valid() && !dmHasQuad(d.done, q) {
				d.done = append(d.done, q)
				return q, true
			}
		}
		if d.scale >= min(n, len(dmScales)) || d.made == dmMaxOutlines {
			return dmQuad{}, false
		}
		sc := dmScales[d.scale]
		d.scale++
		runs, sizes := d.fine, d.fineSizes
		if sc.r > dmFineMax {
			runs, sizes = d.coarseRuns()
		}
		for _, hull := range dmGroupHulls(runs, sizes, d.w, d.h, sc.r, sc.open) {
			dup := false
			for _, o := range d.hulls {
				if dmSameHull(o, hull) {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			d.hulls = append(d.hulls, hull)
			for _, outline := range []func([]dmPt) (dmQuad, bool){dmHullQuad, dmMinRect} {
				if q, ok := outline(hull); ok {
					d.pending = append(d.pending, q)
				}
			}
		}
	}
}

// dmHasQuad reports whether qs holds an outline within 1.5 pixels of q at every corner.
func dmHasQuad(qs []dmQuad, q dmQuad) bool {
	for _, o := range qs {
		same := true
		for i := range 4 {
			if math.Hypot(o[i].x-q[i].x, o[i].y-q[i].y) > 1.5 {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

// dmFloats returns c's pixels as float32.
func dmFloats(c *gray) []float32 {
	out := make([]float32, len(c.pix))
	for i, v := range c.pix {
		out[i] = float32(v)
	}
	return out
}

// dmBox3 returns the w×h image p smoothed by a 3×3 box.
func dmBox3(p []float32, w, h int) []float32 {
	tmp := make([]float32, w*h)
	out := make([]float32, w*h)
	for y := range h {
		row := p[y*w : (y+1)*w]
		for x := range w {
			tmp[y*w+x] = row[max(0, x-1)] + row[x] + row[min(w-1, x+1)]
		}
	}
	for y := range h {
		u, d := max(0, y-1), min(h-1, y+1)
		for x := range w {
			out[y*w+x] = (tmp[u*w+x] + tmp[y*w+x] + tmp[d*w+x]) / 9
		}
	}
	return out
}

// dmNoise estimates the standard deviation of the pixel noise of p from the median
// absolute difference of horizontal neighbours (modules span several pixels, so most
// neighbours lie in one module), on every other pixel of every other row, through a
// histogram of quarter levels.
func dmNoise(p []float32, w, h int) float64 {
	var hist [1024]int
	n := 0
	for y := 1; y < h-1; y += 2 {
		row := p[y*w : (y+1)*w]
		for x := 1; x < w-2; x += 2 {
			d := row[x+1] - row[x]
			if d < 0 {
				d = -d
			}
			hist[min(1023, int(4*d))]++
			n++
		}
	}
	if n == 0 {
		return 1
	}
	acc := 0
	for i, c := range hist {
		if acc += c; 2*acc >= n {
			return max(0.5, 1.4826*(float64(i)+0.5)/4/math.Sqrt2)
		}
	}
	return 1
}

// dmMask marks ink: pixels darker, by more than three times the noise and 10 levels, than
// the mean of the pixels on both sides of them along a row or along a column (half-windows
// r long and r wide, r a sixteenth of the crop). Ink has paper on both sides along some
// axis; the shadowed paper along a hard shadow's edge, darker than a window straddling
// the edge would say, has the same shadowed paper on one side and is left out.
func dmMask(w, h int, b []float32, sigma float64) []bool {
	W := w + 1
	integ := make([]float64, W*(h+1))
	for y := range h {
		var row float64
		src := b[y*w : (y+1)*w]
		up, cur := integ[y*W:(y+1)*W], integ[(y+1)*W:(y+2)*W]
		for x, v := range src {
			row += float64(v)
			cur[x+1] = up[x+1] + row
		}
	}
	// sum of [x0, x1) × [y0, y1), already clipped and not empty.
	sum := func(x0, y0, x1, y1 int) float64 {
		return integ[y1*W+x1] - integ[y0*W+x1] - integ[y1*W+x0] + integ[y0*W+x0]
	}
	r := max(3, min(w, h)/16)
	hw := max(1, r/2)
	off := max(3*sigma, 10)
	mask := make([]bool, w*h)
	for y := range h {
		ya, yb := max(0, y-hw), min(h, y+hw+1) // the band across a row's half-windows
		yu0, yd1 := max(0, y-r), min(h, y+r+1)
		for x := range w {
			v := float64(b[y*w+x]) + off
			// Beyond the crop a half-window is empty: the other side decides.
			xl0, xr1 := max(0, x-r), min(w, x+r+1)
			nl, nr := float64((x-xl0)*(yb-ya)), float64((xr1-x-1)*(yb-ya))
			if nl+nr > 0 &&
				(nl == 0 || v*nl < sum(xl0, ya, x, yb)) &&
				(nr == 0 || v*nr < sum(x+1, ya, xr1, yb)) {
				mask[y*w+x] = true
				continue
			}
			xa, xb := max(0, x-hw), min(w, x+hw+1)
			nu, nd := float64((y-yu0)*(xb-xa)), float64((yd1-y-1)*(xb-xa))
			mask[y*w+x] = nu+nd > 0 &&
				(nu == 0 || v*nu < sum(xa, yu0, xb, y)) &&
				(nd == 0 || v*nd < sum(xa, y+1, xb, yd1))
		}
	}
	return mask
}

// side returns the corners of side k (from corner k to corner k+1).
func (q dmQuad) side(k int) (dmPt, dmPt) { return q[k], q[(k+1)%4] }

// withSide replaces side k by line l, moving its two corners to where l meets the
// neighbouring sides.
func (q dmQuad) withSide(k int, l dmLine) dmQuad {
	prev := lineThrough(q.side((k + 3) % 4))
	next := lineThrough(q.side((k + 1) % 4))
	a, ok1 := prev.intersect(l)
	b, ok2 := l.intersect(next)
	if !ok1 || !ok2 {
		return q
	}
	r := q
	r[k], r[(k+1)%4] = a, b
	if !r.valid() {
		return q
	}
	return r
}

// valid reports whether q could be a symbol's outline: convex, clockwise as displayed,
// every side at least 8 pixels, corners between 45° and 135°, opposite sides within a
// factor 2.5 of each other.
func (q dmQuad) valid() bool {
	var l [4]float64
	for k := range 4 {
		a, b := q.side(k)
		l[k] = math.Hypot(b.x-a.x, b.y-a.y)
		if l[k] < 8 || math.IsNaN(l[k]) {
			return false
		}
	}
	for k := range 4 {
		p, c, n := q[(k+3)%4], q[k], q[(k+1)%4]
		ux, uy := p.x-c.x, p.y-c.y
		vx, vy := n.x-c.x, n.y-c.y
		cr := vx*uy - vy*ux // clockwise (y down) turns give positive values
		cos := (ux*vx + uy*vy) / (math.Hypot(ux, uy) * math.Hypot(vx, vy))
		if cr <= 0 || math.Abs(cos) > math.Cos(45*math.Pi/180) {
			return false
		}
	}
	return l[0] < 2.5*l[2] && l[2] < 2.5*l[0] && l[1] < 2.5*l[3] && l[3] < 2.5*l[1]
}

// dmAt is the bilinear interpolation of b (w×h) at (x, y), clamped to the image.
func dmAt(b []float32, w, h int, x, y float64) float64 {
	if x != x || y != y { // NaN: a degenerate outline
		x, y = 0, 0
	}
	x = max(0, min(float64(w-1), x))
	y = max(0, min(float64(h-1), y))
	x0, y0 := int(x), int(y)
	fx, fy := x-float64(x0), y-float64(y0)
	x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
	p := float64(b[y0*w+x0]) + fx*float64(b[y0*w+x1]-b[y0*w+x0])
	q := float64(b[y1*w+x0]) + fx*float64(b[y1*w+x1]-b[y1*w+x0])
	return p + fy*(q-p)
}
