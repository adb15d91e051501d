package barcode

import (
	"math"
	"slices"
)

// Our DataMatrix detector. gozxing's searches from the image centre for two solid edges
// and gives up on small, faint, shadowed or off-centre symbols; this one works on a matrix
// candidate's crop (decodeMatrix) at any rotation:
//
//  1. dmMask: a denoised local-threshold ink mask (a pixel is ink when it is clearly darker
//     than its neighbourhood, by a margin over the crop's own noise);
//  2. dmBlobs: the 8-connected ink components large enough to be a symbol; a symbol's L
//     finder and timing modules hold its data modules together in one component, whose
//     convex hull has the symbol's four sides as its longest edges (dmHullQuad);
//  3. dmRefineSide: each side fitted again to the sub-pixel edge points along it (the
//     strongest light-to-dark step across the side, a robust weighted line fit), so that
//     the corners are the intersections of four precise lines.
//
// dm_sample.go then finds the orientation and size from the L and the timing patterns and
// samples the modules.

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

// dmMaxBlobs bounds the components examined per crop, largest first.
const dmMaxBlobs = 3

// dmCandidatesBlur returns the outlines of the symbols the crop may hold, most likely
// first, and the smoothed crop they were found in.
func dmCandidatesBlur(c *gray) ([]dmQuad, []float32) {
	if c.w < 16 || c.h < 16 || c.w > 2048 || c.h > 2048 {
		return nil, nil
	}
	raw := make([]float32, len(c.pix))
	for i, v := range c.pix {
		raw[i] = float32(v)
	}
	// Two smoothings: 3×3 for the fine scales, twice that for the coarse ones, where
	// noise speckles would otherwise join the groups.
	blur := dmBox3(raw, c.w, c.h)
	blur2 := dmBox3(blur, c.w, c.h)
	fine := dmMask(c.w, c.h, blur, dmNoise(blur, c.w, c.h))
	coarse := dmMask(c.w, c.h, blur2, dmNoise(blur2, c.w, c.h))
	var out []dmQuad
	for _, hull := range dmBlobs(fine, coarse, c.w, c.h) {
		for _, outline := range []func([]dmPt) (dmQuad, bool){dmHullQuad, dmMinRect} {
			q, ok := outline(hull)
			if !ok {
				continue
			}
			q = dmRefine(blur, c.w, c.h, q)
			if q.valid() && !dmHasQuad(out, q) {
				out = append(out, q)
			}
		}
	}
	return out, blur
}

// dmRefine fits the four sides of q to the image, first within 12 % of each side's
// length (perspective, a rough outline), then within 4 %.
func dmRefine(b []float32, w, h int, q dmQuad) dmQuad {
	for _, f := range []float64{0.12, 0.04} {
		for k := range 4 {
			a, e := q.side(k)
			win := max(2.5, f*math.Hypot(e.x-a.x, e.y-a.y))
			if l, ok := dmRefineSide(b, w, h, q, k, win); ok {
				q = q.withSide(k, l)
			}
		}
	}
	return q
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
// neighbours lie in one module).
func dmNoise(p []float32, w, h int) float64 {
	var diffs []float64
	for y := 1; y < h-1; y += 2 {
		for x := 1; x < w-2; x += 2 {
			diffs = append(diffs, math.Abs(float64(p[y*w+x+1]-p[y*w+x])))
		}
	}
	if len(diffs) == 0 {
		return 1
	}
	k := len(diffs) / 2
	slices.Sort(diffs)
	return max(0.5, 1.4826*diffs[k]/math.Sqrt2)
}

// dmMask marks ink: pixels darker than the mean of their neighbourhood (a window of about
// a sixteenth of the crop) by more than three times the noise and 4 % of the full scale.
func dmMask(w, h int, b []float32, sigma float64) []bool {
	integ := make([]float64, (w+1)*(h+1))
	for y := range h {
		var row float64
		for x := range w {
			row += float64(b[y*w+x])
			integ[(y+1)*(w+1)+x+1] = integ[y*(w+1)+x+1] + row
		}
	}
	r := max(3, min(w, h)/16)
	off := max(3*sigma, 10)
	mask := make([]bool, w*h)
	for y := range h {
		y0, y1 := max(0, y-r), min(h, y+r+1)
		for x := range w {
			x0, x1 := max(0, x-r), min(w, x+r+1)
			s := integ[y1*(w+1)+x1] - integ[y0*(w+1)+x1] - integ[y1*(w+1)+x0] + integ[y0*(w+1)+x0]
			mean := s / float64((y1-y0)*(x1-x0))
			mask[y*w+x] = float64(b[y*w+x]) < mean-off
		}
	}
	return mask
}

// dmBlobs groups the ink into candidate symbols and returns their convex hulls: at each
// of a few module scales, the largest dmMaxBlobs groups. A symbol's ink is not one
// connected piece (a light timing module, a row of light data modules cut it), so the
// pieces are grouped after a closing at the module scale: 8-connected components smaller
// than about half a module are dropped (noise), the rest dilated by about 0.6 module and
// labelled again. The module size is not known yet (and clutter in the crop would bias an
// estimate), so the grouping is made at several scales. A group must be at least 10
// pixels across each way, at most 90 % of the crop, and fill a fifth of its hull.
func dmBlobs(fine, coarse []bool, w, h int) [][]dmPt {
	lf, sf := dmLabel(fine, w, h)
	lc, sc := dmLabel(coarse, w, h)
	var out [][]dmPt
	for _, r := range dmScales {
		label, sizes := lf, sf
		if r > 2 {
			label, sizes = lc, sc
		}
		for _, hull := range dmGroups(label, sizes, w, h, r) {
			dup := false
			for _, o := range out {
				if dmSameHull(o, hull) {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, hull)
			}
		}
	}
	return out
}

// dmScales are the dilation radii (pixels) of the grouping: modules of about 2 to 10
// crop pixels. Radii over 2 group the coarser mask.
var dmScales = []int{1, 2, 3, 4, 5, 7}

// dmSameHull reports whether two hulls have about the same bounding box (2 pixels).
func dmSameHull(a, b []dmPt) bool {
	box := func(p []dmPt) (x0, y0, x1, y1 float64) {
		x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, q := range p {
			x0, y0, x1, y1 = min(x0, q.x), min(y0, q.y), max(x1, q.x), max(y1, q.y)
		}
		return
	}
	ax0, ay0, ax1, ay1 := box(a)
	bx0, by0, bx1, by1 := box(b)
	return math.Abs(ax0-bx0) <= 2 && math.Abs(ay0-by0) <= 2 && math.Abs(ax1-bx1) <= 2 && math.Abs(ay1-by1) <= 2
}

// dmGroups groups the components of label (sizes by label) dilated by r and returns the
// hulls of the dmMaxBlobs largest plausible groups, largest first.
func dmGroups(label []int32, sizes []int, w, h, r int) [][]dmPt {
	minSize := max(3, int(1.1*float64(r*r)))
	keep := make([]bool, w*h)
	for i, l := range label {
		keep[i] = l > 0 && sizes[l] >= minSize
	}
	groups, _ := dmLabel(dmDilate(keep, w, h, r), w, h)
	type blob struct {
		hull []dmPt
		area float64
	}
	// Per group and row: leftmost and rightmost kept pixel.
	type ext struct {
		lo, hi         []int
		n              int
		x0, y0, x1, y1 int
	}
	exts := map[int32]*ext{}
	for y := range h {
		for x := range w {
			i := y*w + x
			if !keep[i] {
				continue
			}
			g := groups[i]
			e := exts[g]
			if e == nil {
				e = &ext{lo: make([]int, h), hi: make([]int, h), x0: x, y0: y, x1: x, y1: y}
				for k := range e.lo {
					e.lo[k], e.hi[k] = w, -1
				}
				exts[g] = e
			}
			e.n++
			e.lo[y], e.hi[y] = min(e.lo[y], x), max(e.hi[y], x)
			e.x0, e.x1, e.y0, e.y1 = min(e.x0, x), max(e.x1, x), min(e.y0, y), max(e.y1, y)
		}
	}
	var blobs []blob
	for _, e := range exts {
		if e.x1-e.x0 < 10 || e.y1-e.y0 < 10 || (e.x1-e.x0)*(e.y1-e.y0) > w*h*9/10 || e.n < 60 {
			continue
		}
		var pts []dmPt
		for y := e.y0; y <= e.y1; y++ {
			if e.hi[y] < 0 {
				continue
			}
			pts = append(pts, dmPt{float64(e.lo[y]), float64(y)}, dmPt{float64(e.lo[y]), float64(y + 1)},
				dmPt{float64(e.hi[y] + 1), float64(y)}, dmPt{float64(e.hi[y] + 1), float64(y + 1)})
		}
		hull := convexHull(pts)
		a := polyArea(hull)
		// A symbol covers a good part of its hull (the L, the timing and about half the
		// data); a ring or a thin line does not.
		if a <= 0 || float64(e.n) < 0.2*a {
			continue
		}
		blobs = append(blobs, blob{hull, a})
	}
	slices.SortFunc(blobs, func(a, b blob) int {
		switch {
		case a.area > b.area:
			return -1
		case a.area < b.area:
			return 1
		}
		return 0
	})
	var out [][]dmPt
	for i := 0; i < len(blobs) && i < dmMaxBlobs; i++ {
		out = append(out, blobs[i].hull)
	}
	return out
}

// dmLabel labels the 8-connected components of mask (labels from 1; 0 off the mask) and
// returns their sizes, indexed by label.
func dmLabel(mask []bool, w, h int) ([]int32, []int) {
	label := make([]int32, w*h)
	sizes := []int{0}
	var stack []int
	for start := range mask {
		if !mask[start] || label[start] != 0 {
			continue
		}
		l := int32(len(sizes))
		label[start] = l
		stack = append(stack[:0], start)
		n := 0
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			x, y := i%w, i/w
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					if j := ny*w + nx; mask[j] && label[j] == 0 {
						label[j] = l
						stack = append(stack, j)
					}
				}
			}
		}
		sizes = append(sizes, n)
	}
	return label, sizes
}

// dmDilate returns mask dilated by a (2r+1)² square (two running passes).
func dmDilate(mask []bool, w, h, r int) []bool {
	tmp := make([]bool, w*h)
	out := make([]bool, w*h)
	for y := range h {
		last := -1 << 30 // last ink column seen
		row := mask[y*w : (y+1)*w]
		for x := 0; x < w+r; x++ {
			if x < w && row[x] {
				last = x
			}
			if t := x - r; t >= 0 && t < w && x-last <= 2*r {
				tmp[y*w+t] = true
			}
		}
	}
	for x := range w {
		last := -1 << 30
		for y := 0; y < h+r; y++ {
			if y < h && tmp[y*w+x] {
				last = y
			}
			if t := y - r; t >= 0 && t < h && y-last <= 2*r {
				out[t*w+x] = true
			}
		}
	}
	return out
}

// convexHull returns the convex hull of pts (Andrew's monotone chain), clockwise as
// displayed (y down), without collinear points.
func convexHull(pts []dmPt) []dmPt {
	if len(pts) < 3 {
		return nil
	}
	slices.SortFunc(pts, func(a, b dmPt) int {
		switch {
		case a.x < b.x || (a.x == b.x && a.y < b.y):
			return -1
		case a.x == b.x && a.y == b.y:
			return 0
		}
		return 1
	})
	cross := func(o, a, b dmPt) float64 { return (a.x-o.x)*(b.y-o.y) - (a.y-o.y)*(b.x-o.x) }
	hull := make([]dmPt, 0, 2*len(pts))
	for _, p := range pts {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		p := pts[i]
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull[:len(hull)-1]
}

// polyArea is the area of a simple polygon (either winding).
func polyArea(p []dmPt) float64 {
	var a float64
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i].x*p[j].y - p[j].x*p[i].y
	}
	return math.Abs(a) / 2
}

// dmHullQuad approximates a convex hull by the quadrilateral of its four longest sides:
// consecutive hull edges turning by less than 15° are merged into one side (a curved or
// blurred edge), the four longest sides are kept in their order round the hull and
// extended to meet. A symbol's hull has its four sides as long runs and only short cuts at
// the corners (the light top-right corner module, a timing module left out of the
// component).
func dmHullQuad(hull []dmPt) (dmQuad, bool) {
	n := len(hull)
	if n < 4 {
		return dmQuad{}, false
	}
	type side struct {
		a, b  dmPt
		len   float64
		first int
	}
	ang := func(a, b dmPt) float64 { return math.Atan2(b.y-a.y, b.x-a.x) }
	turn := func(a, b float64) float64 {
		d := math.Mod(b-a+3*math.Pi, 2*math.Pi) - math.Pi
		return math.Abs(d)
	}
	// Start after the sharpest turn, so that no side wraps round the start.
	start, sharp := 0, -1.0
	for i := range n {
		p, c, nx := hull[(i+n-1)%n], hull[i], hull[(i+1)%n]
		if t := turn(ang(p, c), ang(c, nx)); t > sharp {
			start, sharp = i, t
		}
	}
	var sides []side
	cur := side{a: hull[start], b: hull[(start+1)%n], first: 0}
	for k := 1; k < n; k++ {
		a, b := hull[(start+k)%n], hull[(start+k+1)%n]
		// Compare with the side's direction so far, so that a slow curve still ends.
		if turn(ang(cur.a, cur.b), ang(a, b)) < 15*math.Pi/180 {
			cur.b = b
			continue
		}
		cur.len = math.Hypot(cur.b.x-cur.a.x, cur.b.y-cur.a.y)
		sides = append(sides, cur)
		cur = side{a: a, b: b, first: k}
	}
	cur.len = math.Hypot(cur.b.x-cur.a.x, cur.b.y-cur.a.y)
	sides = append(sides, cur)
	if len(sides) < 4 {
		return dmQuad{}, false
	}
	// The symbol's sides are four of the longest: of every choice of four (in order round
	// the hull) that makes a plausible outline, the one that adds the least area to the
	// hull (a corner cut taken for a side leaves a large triangle outside the hull).
	idx := make([]int, len(sides))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case sides[a].len > sides[b].len:
			return -1
		case sides[a].len < sides[b].len:
			return 1
		}
		return 0
	})
	idx = idx[:min(len(idx), 7)]
	slices.Sort(idx) // back in order round the hull
	area := polyArea(hull)
	best, bestExcess := dmQuad{}, math.Inf(1)
	var pick [4]int
	var choose func(from, k int)
	choose = func(from, k int) {
		if k == 4 {
			var q dmQuad
			for i := range 4 {
				s0, s1 := sides[pick[(i+3)%4]], sides[pick[i]]
				p, ok := lineThrough(s0.a, s0.b).intersect(lineThrough(s1.a, s1.b))
				if !ok {
					return
				}
				q[i] = p
			}
			if !q.valid() {
				return
			}
			if e := polyArea(q[:]) - area; e < bestExcess {
				best, bestExcess = q, e
			}
			return
		}
		for i := from; i < len(idx); i++ {
			pick[k] = idx[i]
			choose(i+1, k+1)
		}
	}
	choose(0, 0)
	return best, bestExcess < math.Inf(1)
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

// dmRefineSide fits side k of q again to the image's edge, searching win pixels either
// side of it. Along the side, every ~1.5 pixels, the edge point is the outermost
// light-to-dark step (going inwards) of at least half the strongest one in the window
// (sub-pixel, from a parabola through the derivative's peak): the border, not a data
// module behind it. The line is the one through two of those points that the most
// (weighted) points lie on, within a pixel or 2 % of the side: on a timing side only the
// dark modules' points do, those at the light modules lie a module deeper.
func dmRefineSide(b []float32, w, h int, q dmQuad, k int, win float64) (dmLine, bool) {
	a, e := q.side(k)
	L := math.Hypot(e.x-a.x, e.y-a.y)
	ux, uy := (e.x-a.x)/L, (e.y-a.y)/L
	// Inward normal: the quad is clockwise as displayed (y down), so the inside is to the
	// left of the direction of travel in the image's own coordinates.
	nx, ny := -uy, ux
	const step = 0.25
	m := int(2*win/step) + 1
	prof := make([]float64, m)
	der := make([]float64, m)
	var pts []dmEdgePoint
	for t := 0.04 * L; t <= 0.96*L; t += 1.5 {
		px, py := a.x+t*ux, a.y+t*uy
		for i := range prof {
			s := -win + float64(i)*step
			prof[i] = dmAt(b, w, h, px+s*nx, py+s*ny)
		}
		clear(der)
		peak := 0.0
		for i := 2; i < m-2; i++ {
			der[i] = prof[i-2] - prof[i+2] // positive: darker inwards
			peak = max(peak, der[i])
		}
		if peak <= 0 {
			continue
		}
		// The outermost local maximum of at least half the peak.
		bi := -1
		for i := 2; i < m-2; i++ {
			if der[i] >= 0.5*peak && der[i] >= der[i-1] && der[i] >= der[i+1] {
				bi = i
				break
			}
		}
		if bi < 0 {
			continue
		}
		off := 0.0
		if den := der[bi-1] - 2*der[bi] + der[bi+1]; bi > 2 && bi < m-3 && den < 0 {
			off = 0.5 * (der[bi-1] - der[bi+1]) / den
		}
		s := -win + (float64(bi)+max(-1, min(1, off)))*step
		pts = append(pts, dmEdgePoint{px + s*nx, py + s*ny, t, der[bi]})
	}
	return dmConsensusLine(pts, L, ux, uy)
}

// dmEdgePoint is an edge point found along a side: where, how far along the side, how
// strong.
type dmEdgePoint struct{ x, y, t, wt float64 }

// dmConsensusLine fits a line to edge points along a side of length L and direction
// (ux, uy): of the lines through two points at least a third of the side apart (among up
// to 24 spread along it), the one the heaviest set of points lies near, then a weighted
// least-squares fit to that set.
func dmConsensusLine(pts []dmEdgePoint, L, ux, uy float64) (dmLine, bool) {
	if len(pts) < 5 {
		return dmLine{}, false
	}
	tol := max(1, 0.02*L)
	stride := max(1, len(pts)/24)
	var best dmLine
	bestW := 0.0
	for i := 0; i < len(pts); i += stride {
		for j := i + stride; j < len(pts); j += stride {
			if pts[j].t-pts[i].t < L/3 {
				continue
			}
			l := lineThrough(dmPt{pts[i].x, pts[i].y}, dmPt{pts[j].x, pts[j].y})
			var sw float64
			for _, p := range pts {
				if math.Abs(l.nx*p.x+l.ny*p.y-l.c) <= tol {
					sw += p.wt
				}
			}
			if sw > bestW {
				best, bestW = l, sw
			}
		}
	}
	if bestW == 0 {
		return dmLine{}, false
	}
	var sw, sx, sy float64
	cnt := 0
	for _, p := range pts {
		if math.Abs(best.nx*p.x+best.ny*p.y-best.c) <= tol {
			sw += p.wt
			sx += p.wt * p.x
			sy += p.wt * p.y
			cnt++
		}
	}
	if cnt < 4 {
		return dmLine{}, false
	}
	mx, my := sx/sw, sy/sw
	var cxx, cyy, cxy float64
	for _, p := range pts {
		if math.Abs(best.nx*p.x+best.ny*p.y-best.c) <= tol {
			dx, dy := p.x-mx, p.y-my
			cxx += p.wt * dx * dx
			cyy += p.wt * dy * dy
			cxy += p.wt * dx * dy
		}
	}
	th := 0.5 * math.Atan2(2*cxy, cxx-cyy)
	dx, dy := math.Cos(th), math.Sin(th)
	if dx*ux+dy*uy < 0 {
		dx, dy = -dx, -dy
	}
	if dx*ux+dy*uy < math.Cos(25*math.Pi/180) {
		return dmLine{}, false
	}
	return lineThrough(dmPt{mx, my}, dmPt{mx + dx, my + dy}), true
}

// dmMinRect returns the minimum-area rectangle enclosing a convex hull, clockwise as
// displayed (rotating calipers: one side lies on a hull edge). Unlike the hull's own
// sides it is not misled by a corner cut deep into the hull; under perspective its sides
// are only a first guess that dmRefineSide corrects.
func dmMinRect(hull []dmPt) (dmQuad, bool) {
	n := len(hull)
	if n < 3 {
		return dmQuad{}, false
	}
	bestA := math.Inf(1)
	var best dmQuad
	for i := range n {
		a, b := hull[i], hull[(i+1)%n]
		l := math.Hypot(b.x-a.x, b.y-a.y)
		if l == 0 {
			continue
		}
		ux, uy := (b.x-a.x)/l, (b.y-a.y)/l
		u0, u1, v0, v1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			u := (p.x-a.x)*ux + (p.y-a.y)*uy
			v := -(p.x-a.x)*uy + (p.y-a.y)*ux
			u0, u1, v0, v1 = min(u0, u), max(u1, u), min(v0, v), max(v1, v)
		}
		if area := (u1 - u0) * (v1 - v0); area < bestA {
			bestA = area
			at := func(u, v float64) dmPt { return dmPt{a.x + u*ux - v*uy, a.y + u*uy + v*ux} }
			best = dmQuad{at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)}
		}
	}
	if polyArea(best[:]) == 0 {
		return dmQuad{}, false
	}
	// Clockwise as displayed: positive signed area in the image's own coordinates.
	var sa float64
	for i := range 4 {
		j := (i + 1) % 4
		sa += best[i].x*best[j].y - best[j].x*best[i].y
	}
	if sa < 0 {
		best[1], best[3] = best[3], best[1]
	}
	return best, best.valid()
}

// dmAt is the bilinear interpolation of b (w×h) at (x, y), clamped to the image.
func dmAt(b []float32, w, h int, x, y float64) float64 {
	x = max(0, min(float64(w-1), x))
	y = max(0, min(float64(h-1), y))
	x0, y0 := int(x), int(y)
	fx, fy := x-float64(x0), y-float64(y0)
	x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
	p := float64(b[y0*w+x0]) + fx*float64(b[y0*w+x1]-b[y0*w+x0])
	q := float64(b[y1*w+x0]) + fx*float64(b[y1*w+x1]-b[y1*w+x0])
	return p + fy*(q-p)
}
