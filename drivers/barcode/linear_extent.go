package barcode

import (
	"math"
	"slices"
)

// fitAlong follows the bars of a linear region along their normal, out from the region: a
// faint code whose end cells stayed under the locator's floors, or whose component took in
// the ticket's edge on one side, is a candidate shorter than the code and off its centre,
// and a scan over the candidate and its margin stops inside the symbol. On a band through
// the region's centre (the lines within half its height, at most ±8 px, summed), from the
// candidate's own bar edges (barEdges), the extent grows edge by edge across gaps up to 3.5
// edge spacings (a Code 128 or ITF space is at most 2.2 of its mean spacing, a quiet
// zone at least 5). It returns the region over that extent, with a quiet zone's worth of
// margin, and ok when it reaches beyond reach (the scan's half-length) on either side.
// Where the bars run on to the end of the line followed (a candidate of a few cells at one
// end of a long code under strong noise: Code 128 or ITF of wide modules, the tuning frame
// of ITF mixed seed 960), they are followed again over a line twice as long.
func fitAlong(g *gray, r region, ux, uy, vx, vy, reach float64) (region, bool) {
	look := reach + 4*r.halfU // how far out from the centre the bars are followed
	lo, hi, open, ok := followBars(g, r, ux, uy, vx, vy, look)
	if ok && open {
		if l2, h2, _, ok2 := followBars(g, r, ux, uy, vx, vy, 2*look); ok2 {
			lo, hi = l2, h2
		}
	}
	if !ok || lo >= -reach && hi <= reach {
		return r, false
	}
	mid := (lo + hi) / 2
	r.cx, r.cy = r.cx+mid*ux, r.cy+mid*uy
	r.halfU = (hi - lo) / 2
	return r, true
}

// followBars is fitAlong's extent over a line ±look from the region's centre: the bars'
// extent [lo, hi] from the centre, quiet zones included, and open when it reaches within a
// quiet zone of the line's end (the bars may run on beyond it).
func followBars(g *gray, r region, ux, uy, vx, vy, look float64) (lo, hi float64, open, ok bool) {
	n := int(2 * look)
	if n < 32 || n > 4000 {
		return 0, 0, false, false
	}
	hb := min(0.5*r.halfV, 8)
	p := make([]float64, n)
	for dv := -hb; dv <= hb; dv++ {
		sx, sy := r.cx-look*ux+dv*vx, r.cy-look*uy+dv*vy
		for i := range p {
			t := float64(i) + 0.5
			p[i] += g.at(sx+t*ux, sy+t*uy)
		}
	}
	der := make([]float64, n) // the thresholds below are relative: the lines' sum will do
	for i := 1; i < n-1; i++ {
		der[i] = math.Abs(p[i+1] - p[i-1])
	}
	c0, c1 := int(look-r.halfU), int(look+r.halfU) // the candidate's span
	edges, count := barEdges(der, c0, c1)
	if count < minRunEdges {
		return 0, 0, false, false
	}
	spacing := 2 * r.halfU / float64(count)
	gap := 3.5 * spacing
	// The candidate's own edges, then outward while the next edge is within gap.
	a := slices.IndexFunc(edges, func(i int) bool { return i >= c0 })
	b := a
	for b+1 < len(edges) && edges[b+1] < c1 {
		b++
	}
	for a > 0 && float64(edges[a]-edges[a-1]) <= gap {
		a--
	}
	for b+1 < len(edges) && float64(edges[b+1]-edges[b]) <= gap {
		b++
	}
	quiet := 6 * spacing
	lo, hi = float64(edges[a])-look-quiet, float64(edges[b])-look+quiet
	return lo, hi, lo < -look || hi > look, true
}

// barEdges returns the bar edges of a line's derivative magnitudes der: its peaks above a
// third of the typical edge within [c0, c1) (the upper quartile of the peaks there: the
// lower ones are noise in wide elements) and above eight times the derivative's lower
// quartile (the flat samples, paper, desk and wide elements, are most of the line); and how
// many of them lie within [c0, c1).
func barEdges(der []float64, c0, c1 int) (edges []int, inside int) {
	var peaks []int // local maxima
	var inner []float64
	for i := 1; i < len(der)-1; i++ {
		if der[i] > 0 && der[i] >= der[i-1] && der[i] > der[i+1] {
			peaks = append(peaks, i)
			if i >= c0 && i < c1 {
				inner = append(inner, der[i])
			}
		}
	}
	if len(inner) < minRunEdges {
		return nil, 0
	}
	slices.Sort(inner)
	ref := inner[len(inner)*3/4]
	// Beyond the frame, whose edge repeats, the derivative is exactly zero and says nothing.
	var all []float64
	for _, v := range der {
		if v > 0 {
			all = append(all, v)
		}
	}
	if len(all) < len(der)/4 {
		return nil, 0
	}
	slices.Sort(all)
	thr := max(ref/3, 8*all[len(all)/4])
	for _, i := range peaks {
		if der[i] >= thr {
			edges = append(edges, i)
			if i >= c0 && i < c1 {
				inside++
			}
		}
	}
	return edges, inside
}

// minRunEdges is the number of bar edges a candidate must hold for fitAlong to follow them:
// enough for their spacing (a scan over it and its margin saw a symbol's worth,
// minSymbolEdges). Twelve, not more: a candidate of a few cells over modules of 2.7 px
// holds 12–13 (ITF `mixed` seed 960).
const minRunEdges = 12

// sweepLinear reads a linear region band after band across its whole height, at the
// refined angle, without fitting it across: a faint code beside dense clutter of stronger
// contrast (a block of print, a matrix of blocks) that the component took in, and that
// fitAcross and fitByEdges both chose. The bands average 17 lines, every 12 px (at most
// sweepBands of them, spread evenly); a read still needs two bands to agree.
func (d *Decoder) sweepLinear(g *gray, r region) (Result, bool) {
	const bandHalf = 8.0
	if r.halfV < 2*bandHalf {
		return Result{}, false
	}
	r.angle = refineAngle(g, r)
	ux, uy := math.Cos(r.angle), math.Sin(r.angle)
	vx, vy := -uy, ux
	span := 2 * (r.halfV - bandHalf)
	k := min(sweepBands, int(span/12)+1)
	bands := make([]band, k)
	for i := range bands {
		off := -span / 2
		if k > 1 {
			off += span * float64(i) / float64(k-1)
		}
		bands[i] = band{off / r.halfV, bandHalf}
	}
	votes := bandVotes{}
	seen := 0
	return d.scanBands(g, r, ux, uy, vx, vy, r.halfU+linearMargin(r), bands, votes, &seen)
}

// sweepBands is the most bands sweepLinear reads across a region.
const sweepBands = 16

// inFrame returns the samples [in0, in1) of a scan line of n samples, from (x0, y0) in
// steps of (dx, dy) (sample i at i+0.5 steps), that lie on the frame: beyond it g.at
// repeats the frame's edge.
func inFrame(g *gray, x0, y0, dx, dy float64, n int) (in0, in1 int) {
	on := func(i int) bool {
		t := float64(i) + 0.5
		x, y := x0+t*dx, y0+t*dy
		return x >= 0 && y >= 0 && x <= float64(g.w-1) && y <= float64(g.h-1)
	}
	in0, in1 = 0, n
	for in0 < n && !on(in0) {
		in0++
	}
	for in1 > in0 && !on(in1-1) {
		in1--
	}
	return in0, in1
}

// decodeCutBar reads a row whose outermost bar the frame's edge cuts: the row is dark at the
// frame's edge, and beyond it (the edge repeated) runs on dark or, where the bar finders
// see no edge, blank; either way there is no quiet zone. A symbol's outermost bar has a
// known width: two modules in Code 128 (the starts' first bar, the stop's last), one
// narrow element in ITF (the start's first, the stop's last). The cut bar is drawn that wide from its inner edge, the frame beyond it white,
// and the row read again.
func (d *Decoder) decodeCutBar(row []bool, in0, in1 int) (Result, bool) {
	n := len(row)
	cutEnd := in1 < n && in1 > 0 && row[in1-1]
	cutStart := in0 > 0 && in0 < n && row[in0]
	if !cutEnd && !cutStart {
		return Result{}, false
	}
	m := narrowRun(row)
	if m < 1 {
		return Result{}, false
	}
	v := make([]bool, n)
	for _, k := range []int{2, 1} {
		copy(v, row)
		if cutEnd {
			e := in1 - 1
			for e > 0 && v[e-1] {
				e--
			}
			if in1-e > k*m+m/2 {
				continue // the visible part is wider than such a bar: not one cut
			}
			for i := e; i < n; i++ {
				v[i] = i < e+k*m
			}
		}
		if cutStart {
			e := in0 + 1
			for e < n && v[e] {
				e++
			}
			if e-in0 > k*m+m/2 {
				continue
			}
			for i := 0; i < e; i++ {
				v[i] = i >= e-k*m
			}
		}
		if res, ok := d.decodeBits(v); ok {
			return res, true
		}
	}
	return Result{}, false
}
