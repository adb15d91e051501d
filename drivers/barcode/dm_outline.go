package barcode

import (
	"math"
	"slices"
)

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

// dmHullSide is a run of hull edges turning by less than 15°: from a to b.
type dmHullSide struct {
	a, b dmPt
	len  float64
}

// dmHullSides merges the edges of a convex hull into sides, starting after its sharpest
// turn (so that no side wraps round the start); each side ends where the next edge turns by
// 15° or more from the side's direction so far (so that a slow curve still ends).
func dmHullSides(hull []dmPt) []dmHullSide {
	n := len(hull)
	if n < 4 {
		return nil
	}
	ang := func(a, b dmPt) float64 { return math.Atan2(b.y-a.y, b.x-a.x) }
	turn := func(a, b float64) float64 {
		d := math.Mod(b-a+3*math.Pi, 2*math.Pi) - math.Pi
		return math.Abs(d)
	}
	start, sharp := 0, -1.0
	for i := range n {
		p, c, nx := hull[(i+n-1)%n], hull[i], hull[(i+1)%n]
		if t := turn(ang(p, c), ang(c, nx)); t > sharp {
			start, sharp = i, t
		}
	}
	var sides []dmHullSide
	cur := dmHullSide{a: hull[start], b: hull[(start+1)%n]}
	for k := 1; k < n; k++ {
		a, b := hull[(start+k)%n], hull[(start+k+1)%n]
		if turn(ang(cur.a, cur.b), ang(a, b)) < 15*math.Pi/180 {
			cur.b = b
			continue
		}
		cur.len = math.Hypot(cur.b.x-cur.a.x, cur.b.y-cur.a.y)
		sides = append(sides, cur)
		cur = dmHullSide{a: a, b: b}
	}
	cur.len = math.Hypot(cur.b.x-cur.a.x, cur.b.y-cur.a.y)
	return append(sides, cur)
}

// dmHullQuad approximates a convex hull by the quadrilateral of its four longest sides:
// consecutive hull edges turning by less than 15° are merged into one side (a curved or
// blurred edge), the four longest sides are kept in their order round the hull and
// extended to meet. A symbol's hull has its four sides as long runs and only short cuts at
// the corners (the light top-right corner module, a timing module left out of the
// component).
func dmHullQuad(hull []dmPt) (dmQuad, bool) {
	sides := dmHullSides(hull)
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
