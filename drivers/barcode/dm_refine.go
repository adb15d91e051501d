package barcode

import "math"

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

// dmRefineSide fits side k of q again to the image's edge, searching win pixels either
// side of it. Along the side, every ~1.5 pixels, the edge point is the outermost
// light-to-dark step (going inwards) of at least half the strongest one in the window
// (sub-pixel, from a parabola through the derivative's peak): the border, not a data
// module behind it. The line is the one through two of those points that the most
// (weighted) points lie on, within 1.2 % of the side: on a timing side only the
// dark modules' points do, those at the light modules lie a module deeper.
func dmRefineSide(b []float32, w, h int, q dmQuad, k int, win float64) (dmLine, bool) {
	a, e := q.side(k)
	L := math.Hypot(e.x-a.x, e.y-a.y)
	ux, uy := (e.x-a.x)/L, (e.y-a.y)/L
	// Inward normal: the quad is clockwise as displayed (y down), so the inside is to the
	// left of the direction of travel in the image's own coordinates.
	nx, ny := -uy, ux
	step := max(0.25, win/24)
	m := int(2*win/step) + 1
	prof := make([]float64, m)
	der := make([]float64, m)
	var pts []dmEdgePoint
	for t := 0.04 * L; t <= 0.96*L; t += max(1.5, L/40) {
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
// to 16 spread along it), the one the heaviest set of points lies near (within 1.2 % of the
// side, at least a pixel), then a weighted least-squares fit to that set.
func dmConsensusLine(pts []dmEdgePoint, L, ux, uy float64) (dmLine, bool) {
	if len(pts) < 5 {
		return dmLine{}, false
	}
	tol := max(1, 0.012*L)
	stride := max(1, len(pts)/16)
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
