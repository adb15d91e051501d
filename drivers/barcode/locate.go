package barcode

import (
	"math"
	"slices"
)

// The locator works on cells of cellSize×cellSize pixels, sampling the central-difference
// gradient on every other pixel of every other row (64 samples per cell at full resolution,
// so that bars one or two pixels wide still count). Per cell it sums the structure tensor
// (gx², gy², gx·gy), whose dominant direction is the bars' normal, and a 4-fold orientation
// moment, whose angle is the module grid's orientation of a matrix code.
const cellSize = 16

// matrixMaxCoh bounds the coherence of cells joining a matrix candidate: straight edges (a
// ticket border, a ruler) would otherwise glue clutter to the symbol.
const matrixMaxCoh = 0.75

type cellStat struct {
	sxx, syy, sxy float64 // structure tensor sums
	c4, s4        float64 // Σ |g|²·(cos 4θ, sin 4θ)
	e             float64 // mean squared gradient
	fine          float64 // e over the cell's grey-level variance: fineness of structure, whatever the contrast
	coh           float64 // coherence in [0, 1]: 1 = one direction (bars)
	ang           float64 // gradient direction mod π
	active        bool    // busy: a matrix candidate's cell
	activeLin     bool    // busy or coherent enough for a linear candidate's cell
	faint         bool    // above the lower floor of faint matrix symbols
	faintLin      bool    // above that floor and coherent: faint bars beside strong clutter
	cohN, angN    float64 // coherence and direction of the tensor summed over the 3×3 cells around
}

// region is a candidate symbol: a rotated rectangle in frame pixels. For a linear code u
// (at angle) runs across the bars; for a matrix code u and v follow its module grid.
type region struct {
	linear       bool
	cx, cy       float64
	angle        float64
	axis         float64 // linear: direction of the cells' long axis (the line through the symbol)
	halfU, halfV float64
	score        float64
	faint        bool     // found over the lower floor only (a faint symbol)
	textured     bool     // holds a textured cluster (locate_texture.go): print under strong noise, not noise alone
	grown        []region // matrix: larger regions that a faint symbol's border cells may reach (growMatrix, the lower floor's cluster)
}

// locate returns candidate regions, best first: linear ones (coherent cells with one
// orientation) and matrix ones (busy, incoherent clusters).
func locate(g *gray) []region {
	cells, cw, ch := cellStats(g)
	if cells == nil {
		return nil
	}
	markActive(cells)
	var regions []region
	label := make([]int32, len(cells))
	// Linear codes: coherent cells whose orientations agree within ~17°.
	regions = appendComponents(regions, cells, label, cw, ch, true)
	regions = mergeLinear(regions)
	// Faint bars: coherent cells over the lower floor. Strong clutter (a striped mat) lifts
	// the floors, which are relative to the busiest cell, over bars 25 levels under the paper.
	clear(label)
	markFaintLinear(cells, cw, ch)
	for _, r := range mergeLinear(appendComponents(nil, cells, label, cw, ch, true, true)) {
		if !hasLinear(regions, r) {
			r.faint = true
			regions = append(regions, r)
		}
	}
	clear(label)
	// Matrix codes: any busy cells; kept when the cluster as a whole is incoherent.
	regions = appendComponents(regions, cells, label, cw, ch, false)
	// Faint matrix symbols: the clusters over the lower floor, unless one of them is a
	// cluster already found (those with their clutter neighbours cut off by the higher one).
	clear(label)
	faint := appendComponents(nil, cells, label, cw, ch, false, true)
	// The faint cells alone (over the lower floor, under the higher one): a faint symbol
	// beside busy clutter joins it at the lower floor, and the crop of both is mostly clutter.
	clear(label)
	faint = appendComponents(faint, cells, label, cw, ch, false, true, true)
	for _, r := range faint {
		q := matrixAt(regions, r)
		if q < 0 {
			r.faint = true
			regions = append(regions, r)
			continue
		}
		// The same cluster over the lower floor: where it reaches further (the border cells
		// of a faint symbol found at the higher floor), it is one more grown region.
		if reachesBeyond(r, regions[q]) {
			r.grown = nil
			regions[q].grown = append(regions[q].grown, r)
		}
	}
	// Faint symbols under strong sensor noise, found by their texture (locate_texture.go).
	regions = appendTextured(regions, g, cells, cw, ch)
	slices.SortFunc(regions, func(a, b region) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return regions
}

// cellStats measures every cell of g (cw×ch of them; nil when g is under two cells wide).
func cellStats(g *gray) (cells []cellStat, cw, ch int) {
	cw, ch = g.w/cellSize, g.h/cellSize
	if cw < 2 || ch < 2 {
		return nil, 0, 0
	}
	cells = make([]cellStat, cw*ch)
	w := g.w
	for cy := 0; cy < ch; cy++ {
		for cx := 0; cx < cw; cx++ {
			c := &cells[cy*cw+cx]
			var s1, s2 float64
			for y := cy*cellSize + 1; y < (cy+1)*cellSize && y < g.h-1; y += 2 {
				row := g.pix[y*w:]
				up, down := g.pix[(y-1)*w:], g.pix[(y+1)*w:]
				for x := cx*cellSize + 1; x < (cx+1)*cellSize && x < w-1; x += 2 {
					gx := float64(int(row[x+1]) - int(row[x-1]))
					gy := float64(int(down[x]) - int(up[x]))
					v := float64(row[x])
					s1 += v
					s2 += v * v
					xx, yy, xy := gx*gx, gy*gy, gx*gy
					c.sxx += xx
					c.syy += yy
					c.sxy += xy
					if m2 := xx + yy; m2 > 0 {
						c2, s2 := xx-yy, 2*xy
						c.c4 += (c2*c2 - s2*s2) / m2
						c.s4 += 2 * c2 * s2 / m2
					}
				}
			}
			c.e = (c.sxx + c.syy) / 64
			c.fine = c.e / (max(0, s2/64-(s1/64)*(s1/64)) + 25)
			c.coh, c.ang = orientation(c.sxx, c.syy, c.sxy)
		}
	}
	return cells, cw, ch
}

// noiseFloorGain is how far over the quieter cells' energy (the 25th percentile: paper and
// its sensor noise) a cell must be to join a candidate, whatever the busiest cell.
const noiseFloorGain = 1.7

// whiteFine is the fineness (cellStat.fine) over which a cell is mostly white sensor noise:
// uncorrelated pixels have a gradient energy of four times their variance (fine 2.3–3.1 for
// the quiet cells of the third generator's noise class, 1.3 under its base noise of σ 4,
// where the floor is not needed), printed structure resolved over a pixel or more much less
// (0.4–0.5 for the quiet cells of a symbol filling the frame).
const whiteFine = 2

// quietWhite reports whether the quiet cells (energy at most esP25) are mostly white
// sensor noise: the median of their fineness is at least whiteFine.
func quietWhite(cells []cellStat, esP25 float64) bool {
	var fs []float64
	for i := range cells {
		if cells[i].e <= esP25 {
			fs = append(fs, cells[i].fine)
		}
	}
	if len(fs) < 8 { // a crop of a few cells: no floor to speak of
		return false
	}
	slices.Sort(fs)
	return fs[len(fs)/2] >= whiteFine
}

// markActive marks the cells busy enough to join a candidate.
func markActive(cells []cellStat) {
	// Threshold: well above the noise floor (the quieter cells are paper or background; the
	// 25th percentile, so that a symbol filling most of the image does not raise the floor)
	// and a fraction of the busiest cell, so that dim light and low contrast still pass.
	es := make([]float64, len(cells))
	for i := range cells {
		es[i] = cells[i].e
	}
	slices.Sort(es)
	top := es[len(es)-1]
	esP25 := es[len(es)/4]
	// Under strong sensor noise (σ 10–20 levels) every cell is busy and the busiest is
	// only a few times the quietest: a quarter of it falls under the noise floor, and the
	// whole frame joins one candidate. The cells must then stand out of the noise floor
	// itself (its relative spread over a cell's 64 samples is about a seventh) — when the
	// quiet cells are noise, not a symbol filling the frame (quietWhite).
	noiseFloor := 0.0
	if quietWhite(cells, esP25) {
		noiseFloor = noiseFloorGain * esP25
	}
	thr := max(min(4*esP25, 0.25*top), 0.02*top, 80, noiseFloor)
	// Bars are also found by their coherent energy (e·coh): sensor noise has energy in every
	// direction and little coherent energy, so faint bars under strong noise, which the
	// plain energy threshold loses, stand out on it.
	for i := range cells {
		es[i] = cells[i].e * cells[i].coh
	}
	slices.Sort(es)
	thrLin := max(min(4*es[len(es)/4], 0.25*es[len(es)-1]), 15)
	// Matrix cells: a lower floor, for faint symbols (no coherence to tell them from noise,
	// but three times the noise floor is still above it: a QR code 25 levels under the
	// paper, modules of 5 px, reaches it).
	thrMat := max(min(3*esP25, 0.25*top), 0.005*top, 30, noiseFloor)
	for i := range cells {
		c := &cells[i]
		c.active = c.e >= thr
		c.faint = c.e >= thrMat
		c.activeLin = c.active || c.e*c.coh >= thrLin
	}
}

// markFaintLinear marks the cells of faint bars: over the lower floor, and coherent over their
// 3×3 neighbourhood (sensor noise on bars 25 levels under the paper takes a single cell's
// coherence down to 0.3–0.5; summed over nine cells, the bars' direction holds).
func markFaintLinear(cells []cellStat, cw, ch int) {
	for y := range ch {
		for x := range cw {
			var sxx, syy, sxy float64
			for j := max(0, y-1); j <= min(ch-1, y+1); j++ {
				for i := max(0, x-1); i <= min(cw-1, x+1); i++ {
					n := &cells[j*cw+i]
					sxx, syy, sxy = sxx+n.sxx, syy+n.syy, sxy+n.sxy
				}
			}
			c := &cells[y*cw+x]
			c.cohN, c.angN = orientation(sxx, syy, sxy)
			c.faintLin = c.faint && c.cohN >= faintLinMinCoh
		}
	}
}

// orientation returns the coherence in [0, 1] (1: one direction) and the dominant gradient
// direction mod π of the structure tensor sums (sxx, syy, sxy); 0, 0 without gradient.
func orientation(sxx, syy, sxy float64) (coh, ang float64) {
	sum := sxx + syy
	if sum <= 0 {
		return 0, 0
	}
	d := sxx - syy
	return math.Sqrt(d*d+4*sxy*sxy) / sum, 0.5 * math.Atan2(2*sxy, d)
}

func angleDiff(a, b float64) float64 {
	d := math.Abs(a - b)
	for d > math.Pi/2 {
		d = math.Abs(d - math.Pi)
	}
	return d
}

func appendComponents(out []region, cells []cellStat, label []int32, cw, ch int, linear bool, faint ...bool) []region {
	low := len(faint) > 0 && faint[0]
	only := len(faint) > 1 && faint[1]
	member := func(c *cellStat) bool {
		if linear && low {
			return c.faintLin
		}
		if linear {
			return c.activeLin && c.coh >= linMinCoh
		}
		if only {
			return c.faint && !c.active && c.coh < matrixMaxCoh
		}
		if low {
			return c.faint && c.coh < matrixMaxCoh
		}
		return c.active && c.coh < matrixMaxCoh
	}
	var next int32
	stack := make([]int, 0, 64)
	var comp []int
	for start := range cells {
		if label[start] != 0 || !member(&cells[start]) {
			continue
		}
		next++
		label[start] = next
		stack = append(stack[:0], start)
		comp = comp[:0]
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, i)
			x, y := i%cw, i/cw
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= cw || ny >= ch {
						continue
					}
					// Matrix clusters grow through edges only: diagonal contacts glue text
					// and other clutter to the symbol.
					if !linear && dx != 0 && dy != 0 {
						continue
					}
					j := ny*cw + nx
					if label[j] != 0 || !member(&cells[j]) {
						continue
					}
					if linear {
						// Faint bars' cells agree through their neighbourhoods' directions.
						a, b := cells[i].ang, cells[j].ang
						if low {
							a, b = cells[i].angN, cells[j].angN
						}
						if angleDiff(a, b) > 0.3 {
							continue
						}
					}
					label[j] = next
					stack = append(stack, j)
				}
			}
		}
		var grown []int
		if !linear && len(comp) >= 4 {
			grown = growMatrix(cells, comp, cw, ch)
		}
		if r, ok := componentRegion(cells, comp, grown, cw, linear, low); ok {
			out = append(out, r)
		}
	}
	return out
}

func componentRegion(cells []cellStat, comp, grown []int, cw int, linear, low bool) (region, bool) {
	if len(comp) < 3 {
		return region{}, false
	}
	var sxx, syy, sxy, c4, s4, e, fine, mx, my float64
	for _, i := range comp {
		c := &cells[i]
		sxx += c.sxx
		syy += c.syy
		sxy += c.sxy
		c4 += c.c4
		s4 += c.s4
		e += c.e
		fine += c.fine
		mx += float64(i%cw) + 0.5
		my += float64(i/cw) + 0.5
	}
	n := float64(len(comp))
	mx, my = mx/n*cellSize, my/n*cellSize
	coh, ang := orientation(sxx, syy, sxy) // the cells have energy over a floor: sxx+syy > 0
	if linear {
		minCoh := linMinCompCoh
		if low {
			minCoh = faintLinMinCompCoh
		}
		if coh < minCoh {
			return region{}, false
		}
	} else {
		if coh > 0.6 || len(comp) < 4 {
			return region{}, false
		}
		ang = 0.25 * math.Atan2(s4, c4)
	}
	ux, uy := math.Cos(ang), math.Sin(ang)
	umin, umax, vmin, vmax := cellBounds(comp, cw, mx, my, ux, uy)
	// The long axis of the cell positions: for bars seen at a slant, the line through the
	// symbol, which shear turns away from the bars' normal.
	var pxx, pyy, pxy float64
	for _, i := range comp {
		px := (float64(i%cw)+0.5)*cellSize - mx
		py := (float64(i/cw)+0.5)*cellSize - my
		pxx += px * px
		pyy += py * py
		pxy += px * py
	}
	axis := ang
	if dd := pxx - pyy; math.Sqrt(dd*dd+4*pxy*pxy) > 0.5*(pxx+pyy) { // elongated (eigenvalue ratio > 3)
		axis = 0.5 * math.Atan2(2*pxy, dd)
	}
	// Cell centres are half a cell (up to a half diagonal once rotated) inside the symbol.
	const half = cellSize * 0.6
	cu, cv := (umin+umax)/2, (vmin+vmax)/2
	r := region{
		linear: linear,
		cx:     mx + cu*ux - cv*uy,
		cy:     my + cu*uy + cv*ux,
		angle:  ang,
		axis:   axis,
		halfU:  (umax-umin)/2 + half,
		halfV:  (vmax-vmin)/2 + half,
		score:  fine * coh,
	}
	if !linear {
		// Matrix symbols are square: an elongated cluster (a line of text) ranks lower.
		sq := min(r.halfU, r.halfV) / max(r.halfU, r.halfV)
		r.score = fine * (1 - coh) * sq * sq
		// The grown region, when it reaches half a cell further along either axis.
		if len(grown) > len(comp) {
			gu0, gu1, gv0, gv1 := cellBounds(grown, cw, mx, my, ux, uy)
			if gu1-gu0 > umax-umin+cellSize/2 || gv1-gv0 > vmax-vmin+cellSize/2 {
				cu, cv := (gu0+gu1)/2, (gv0+gv1)/2
				g := r
				g.cx, g.cy = mx+cu*ux-cv*uy, my+cu*uy+cv*ux
				g.halfU, g.halfV = (gu1-gu0)/2+half, (gv1-gv0)/2+half
				r.grown = []region{g}
			}
		}
	}
	return r, true
}

// cellBounds returns the extent of the centres of cells (indices in a grid cw cells wide)
// along the axes (ux, uy) and (−uy, ux) from the point (mx, my), in pixels.
func cellBounds(cells []int, cw int, mx, my, ux, uy float64) (umin, umax, vmin, vmax float64) {
	umin, umax, vmin, vmax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, i := range cells {
		px := (float64(i%cw)+0.5)*cellSize - mx
		py := (float64(i/cw)+0.5)*cellSize - my
		u := px*ux + py*uy
		v := -px*uy + py*ux
		umin, umax = min(umin, u), max(umax, u)
		vmin, vmax = min(vmin, v), max(vmax, v)
	}
	return umin, umax, vmin, vmax
}

// mergeLinear joins linear regions that are pieces of one symbol: same orientation, on the
// same axis, and close along it. Wide bars and spaces of a large symbol leave cells without
// gradient, which split its component.
func mergeLinear(rs []region) []region {
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(rs) && !merged; i++ {
			for j := i + 1; j < len(rs) && !merged; j++ {
				a, b := rs[i], rs[j]
				if !a.linear || !b.linear || angleDiff(a.angle, b.angle) > 0.15 {
					continue
				}
				ux, uy := math.Cos(a.angle), math.Sin(a.angle)
				dx, dy := b.cx-a.cx, b.cy-a.cy
				du, dv := dx*ux+dy*uy, -dx*uy+dy*ux
				if math.Abs(dv) > 0.5*max(a.halfV, b.halfV) || math.Abs(du)-a.halfU-b.halfU > max(3*cellSize, 0.5*(a.halfU+b.halfU)) {
					continue
				}
				u0, u1 := min(-a.halfU, du-b.halfU), max(a.halfU, du+b.halfU)
				v0, v1 := min(-a.halfV, dv-b.halfV), max(a.halfV, dv+b.halfV)
				cu, cv := (u0+u1)/2, (v0+v1)/2
				a.cx, a.cy = a.cx+cu*ux-cv*uy, a.cy+cu*uy+cv*ux
				a.halfU, a.halfV = (u1-u0)/2, (v1-v0)/2
				a.score += b.score
				rs[i] = a
				rs = append(rs[:j], rs[j+1:]...)
				merged = true
			}
		}
	}
	return rs
}

// hasLinear reports whether rs holds a linear region at about r's place and angle.
func hasLinear(rs []region, r region) bool {
	for _, q := range rs {
		if q.linear && angleDiff(q.angle, r.angle) < 0.15 &&
			math.Hypot(r.cx-q.cx, r.cy-q.cy) < 0.5*max(q.halfU, r.halfU) {
			return true
		}
	}
	return false
}

// matrixAt returns the index in rs of a matrix region at about r's place and size, or −1.
func matrixAt(rs []region, r region) int {
	for i, q := range rs {
		if !q.linear && math.Hypot(r.cx-q.cx, r.cy-q.cy) < 0.5*max(q.halfU, q.halfV) &&
			math.Abs(max(r.halfU, r.halfV)-max(q.halfU, q.halfV)) < 0.3*max(q.halfU, q.halfV) {
			return i
		}
	}
	return -1
}

// reachesBeyond reports whether a corner of region r lies half a cell or more outside
// region q.
func reachesBeyond(r, q region) bool {
	ux, uy := math.Cos(q.angle), math.Sin(q.angle)
	rx, ry := math.Cos(r.angle), math.Sin(r.angle)
	for _, c := range [4][2]float64{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		x := r.cx + c[0]*r.halfU*rx - c[1]*r.halfV*ry - q.cx
		y := r.cy + c[0]*r.halfU*ry + c[1]*r.halfV*rx - q.cy
		if math.Abs(x*ux+y*uy) > q.halfU+cellSize/2 || math.Abs(-x*uy+y*ux) > q.halfV+cellSize/2 {
			return true
		}
	}
	return false
}

// faintLinMinCoh is the coherence over its 3×3 neighbourhood of a cell of faint bars.
const faintLinMinCoh = 0.3

// faintLinMinCompCoh is the coherence a component of faint bars needs in all (summed over its
// cells, noise included).
const faintLinMinCompCoh = 0.3

// linMinCoh and linMinCompCoh are the coherence a cell and a whole component need to count as
// bars. Sensor noise adds energy in every direction, so faint bars on bright (noisier) paper
// measure 0.4–0.6 per cell: the thresholds sit below that, and the orientation agreement
// between neighbours and the decoders' checks keep text and clutter out.
const (
	linMinCoh     = 0.35
	linMinCompCoh = 0.5
)

// growFloor is the share of a matrix component's median cell energy from which a cell
// beside it joins its grown region (growMatrix).
const growFloor = 0.5

// growMatrix returns comp with the cells beside it (sharing an edge) whose energy is at
// least growFloor of the component's median, whatever their coherence: one ring (two read
// no more tuning frames and cost more crop pixels). The cells on a faint symbol's border
// hold part of a module row and fall under the floors, and the straight edges of a
// DataMatrix symbol's solid L make its border cells coherent: a faint symbol with large
// modules is found as its core, or in pieces, and the crop around either cuts it. The quiet
// zone around a symbol stops the growth.
func growMatrix(cells []cellStat, comp []int, cw, ch int) []int {
	es := make([]float64, len(comp))
	for k, i := range comp {
		es[k] = cells[i].e
	}
	slices.Sort(es)
	floor := growFloor * es[len(es)/2]
	out := slices.Clone(comp)
	in := make(map[int]bool, 2*len(comp))
	for _, i := range comp {
		in[i] = true
	}
	for _, i := range comp {
		x, y := i%cw, i/cw
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if nx < 0 || ny < 0 || nx >= cw || ny >= ch {
				continue
			}
			if j := ny*cw + nx; cells[j].e >= floor && !in[j] {
				in[j] = true
				out = append(out, j)
			}
		}
	}
	return out
}
