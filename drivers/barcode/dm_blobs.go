package barcode

import (
	"math"
	"slices"
)

// Grouping the ink of a crop into candidate symbols. A symbol's ink is not one connected
// piece (a light timing module, a row of light data modules cut it), so the pieces are
// grouped after a closing at the module scale: 8-connected components smaller than about
// half a module are dropped (noise), the rest dilated by about 0.6 module and labelled
// again. The module size is not known yet (and clutter in the crop would bias an
// estimate), so the grouping is made at several scales. Everything works on runs of ink
// along rows, which keeps it to a fraction of a millisecond per scale.

// dmRun is a run of ink pixels [x0, x1) on row y, and the component it belongs to.
type dmRun struct {
	y, x0, x1 int
	label     int32
}

// dmRunsOf returns the runs of mask, row by row.
func dmRunsOf(mask []bool, w, h int) []dmRun {
	var runs []dmRun
	for y := range h {
		row := mask[y*w : (y+1)*w]
		for x := 0; x < w; {
			if !row[x] {
				x++
				continue
			}
			s := x
			for x < w && row[x] {
				x++
			}
			runs = append(runs, dmRun{y: y, x0: s, x1: x})
		}
	}
	return runs
}

// dmLabelRuns labels the 8-connected components of runs (sorted by row, then column) in
// place, labels from 1, and returns the components' pixel counts, indexed by label.
func dmLabelRuns(runs []dmRun) []int {
	parent := make([]int32, len(runs))
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(i int32) int32
	find = func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	// prev: the runs of the previous row, as an index range.
	p0, p1 := 0, 0
	for i := 0; i < len(runs); {
		y := runs[i].y
		j := i
		for j < len(runs) && runs[j].y == y {
			j++
		}
		if p1 > p0 && runs[p0].y != y-1 {
			p0, p1 = i, i
		}
		k := p0
		for c := i; c < j; c++ {
			r := runs[c]
			for k < p1 && runs[k].x1 < r.x0 { // ends before r's 8-neighbourhood
				k++
			}
			for q := k; q < p1 && runs[q].x0 <= r.x1; q++ {
				a, b := find(int32(c)), find(int32(q))
				if a != b {
					parent[max(a, b)] = min(a, b)
				}
			}
		}
		p0, p1 = i, j
		i = j
	}
	ids := make([]int32, len(runs))
	sizes := []int{0}
	for i := range runs {
		root := find(int32(i))
		if ids[root] == 0 {
			ids[root] = int32(len(sizes))
			sizes = append(sizes, 0)
		}
		runs[i].label = ids[root]
		sizes[ids[root]] += runs[i].x1 - runs[i].x0
	}
	return sizes
}

// dmScale is one grouping: the dilation radius r (pixels; modules of about 1.6r) and
// whether the grouped ink is then opened (thin structures touching the symbol cut off).
type dmScale struct {
	r    int
	open bool
}

// dmScales are the groupings in the order tried: modules of about 2 to 10 crop pixels.
// Radii over 2 group the coarser mask.
var dmScales = []dmScale{{2, false}, {3, true}}

// dmGroupHulls groups the runs (labelled, sizes by label) after a dilation by r and
// returns the convex hulls of the dmMaxBlobs groups with the most ink that could be a
// symbol: at least 10 pixels across each way, at most 90 % of the crop, their ink filling
// a fifth of their hull.
func dmGroupHulls(runs []dmRun, sizes []int, w, h, r int, open bool) [][]dmPt {
	minSize := max(3, int(1.1*float64(r*r)))
	var kept []dmRun
	for _, run := range runs {
		if sizes[run.label] >= minSize {
			kept = append(kept, run)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	mask := dmPaintDilated(kept, w, h, r)
	// Open (erode by r+e, dilate by e, e about a third of a module): thin structures touching the
	// symbol (a hard shadow's edge, a pen, the ticket's edge) are cut off; the kept ink
	// outside what remains is dropped.
	if open {
		e := max(1, r/2)
		mask = dmDilate(dmErode(mask, w, h, r+e), w, h, e)
		kept = dmClip(kept, mask, w)
		if len(kept) == 0 {
			return nil
		}
	}
	druns := dmRunsOf(mask, w, h)
	dmLabelRuns(druns)
	// The group of a kept run: the dilated run that holds its first pixel.
	rowStart := make([]int, h+1)
	for i := range rowStart {
		rowStart[i] = len(druns)
	}
	for i := len(druns) - 1; i >= 0; i-- {
		rowStart[druns[i].y] = i
	}
	for y := h - 1; y >= 0; y-- {
		rowStart[y] = min(rowStart[y], rowStart[y+1])
	}
	groups := map[int32]*dmGroup{}
	of := make([]int32, len(kept))
	for i, run := range kept {
		k := rowStart[run.y]
		for k < len(druns) && druns[k].y == run.y && druns[k].x1 <= run.x0 {
			k++
		}
		l := druns[k].label
		of[i] = l
		g := groups[l]
		if g == nil {
			g = &dmGroup{x0: run.x0, y0: run.y, x1: run.x1, y1: run.y + 1}
			groups[l] = g
		}
		g.n += run.x1 - run.x0
		g.x0, g.x1 = min(g.x0, run.x0), max(g.x1, run.x1)
		g.y0, g.y1 = min(g.y0, run.y), max(g.y1, run.y+1)
	}
	return dmLargestHulls(kept, of, groups, w, h)
}

// dmGroup is a group's ink: pixel count and bounding box [x0, x1) × [y0, y1).
type dmGroup struct {
	n              int
	x0, y0, x1, y1 int
}

// dmLargestHulls returns the convex hulls of the dmMaxBlobs groups with the most ink that
// could be a symbol: at least 10 pixels across each way, at most 90 % of the w×h crop,
// their ink filling a fifth of their hull. of gives each kept run's group.
func dmLargestHulls(kept []dmRun, of []int32, groups map[int32]*dmGroup, w, h int) [][]dmPt {
	var cand []int32
	for l, g := range groups {
		if g.x1-g.x0 >= 10 && g.y1-g.y0 >= 10 && (g.x1-g.x0)*(g.y1-g.y0) <= w*h*9/10 && g.n >= 60 {
			cand = append(cand, l)
		}
	}
	slices.SortFunc(cand, func(a, b int32) int {
		if d := groups[b].n - groups[a].n; d != 0 {
			return d
		}
		return int(a - b)
	})
	var out [][]dmPt
	for _, l := range cand {
		if len(out) == dmMaxBlobs {
			break
		}
		var pts []dmPt
		for i, run := range kept {
			if of[i] == l {
				y := float64(run.y)
				pts = append(pts, dmPt{float64(run.x0), y}, dmPt{float64(run.x0), y + 1},
					dmPt{float64(run.x1), y}, dmPt{float64(run.x1), y + 1})
			}
		}
		hull := convexHull(pts)
		// A symbol covers a good part of its hull (the L, the timing and about half the
		// data); a ring or a thin line does not.
		if a := polyArea(hull); a > 0 && float64(groups[l].n) >= 0.2*a {
			out = append(out, hull)
		}
	}
	return out
}

// dmPaintDilated returns the mask of runs dilated by r: each run widened by r covers rows
// y−r … y+r.
func dmPaintDilated(runs []dmRun, w, h, r int) []bool {
	mask := make([]bool, w*h)
	for _, run := range runs {
		x0, x1 := max(0, run.x0-r), min(w, run.x1+r)
		for y := max(0, run.y-r); y <= min(h-1, run.y+r); y++ {
			row := mask[y*w:]
			for x := x0; x < x1; x++ {
				row[x] = true
			}
		}
	}
	return mask
}

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

// dmClip returns the parts of runs inside mask.
func dmClip(runs []dmRun, mask []bool, w int) []dmRun {
	var out []dmRun
	for _, run := range runs {
		row := mask[run.y*w:]
		for x := run.x0; x < run.x1; {
			if !row[x] {
				x++
				continue
			}
			s := x
			for x < run.x1 && row[x] {
				x++
			}
			out = append(out, dmRun{y: run.y, x0: s, x1: x})
		}
	}
	return out
}

// dmErode returns mask eroded by a (2r+1)² square: ink where the whole square is ink
// (beyond the image counts as ink, so that a symbol cut by the frame is not eaten).
func dmErode(mask []bool, w, h, r int) []bool {
	inv := make([]bool, len(mask))
	for i, m := range mask {
		inv[i] = !m
	}
	d := dmDilate(inv, w, h, r)
	for i := range d {
		d[i] = !d[i]
	}
	return d
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
