package barcode

import (
	"cmp"
	"math"
	"slices"
)

// cellTexture returns, per cell of g (cw×ch of cellSize px), the variance of the 2×2-pixel
// block sums over the cell's 64 blocks, and the frame's noise level: the median over the
// cells of the blocks' Haar detail energy (the three 2×2 differences, squared, averaged).
// White sensor noise of σ gives every block sum and every detail a variance of 4σ², so a
// cell of noise alone has a texture of about the noise level (spread ±18 % over 64 blocks);
// printed modules of 1.5–3 px keep most of their contrast in the block sums and little in
// the details, so a faint symbol's cells stand out of the noise by their texture where their
// gradient energy (the details' share) does not.
func cellTexture(g *gray, cw, ch int) (tex []float64, noise float64) {
	tex = make([]float64, cw*ch)
	det := make([]float64, cw*ch)
	w := g.w
	for cy := range ch {
		for cx := range cw {
			var s1, s2, d float64
			for y := cy * cellSize; y < (cy+1)*cellSize; y += 2 {
				r0, r1 := g.pix[y*w:], g.pix[(y+1)*w:]
				for x := cx * cellSize; x < (cx+1)*cellSize; x += 2 {
					a, b := int(r0[x]), int(r0[x+1])
					c, e := int(r1[x]), int(r1[x+1])
					s := float64(a + b + c + e)
					s1 += s
					s2 += s * s
					h, v, q := a-b+c-e, a+b-c-e, a-b-c+e
					d += float64(h*h + v*v + q*q)
				}
			}
			const n = cellSize * cellSize / 4
			tex[cy*cw+cx] = max(0, s2/n-(s1/n)*(s1/n))
			det[cy*cw+cx] = d / (3 * n)
		}
	}
	slices.Sort(det)
	return tex, det[len(det)/2]
}

// Texture candidates (appendTextured): under strong white sensor noise only (quietWhite).
const (
	texCellGain = 2.0 // a cell's texture over the noise level to join a textured cluster (noise alone: 1 ± 0.18)
	texPeakGain = 3.2 // the texture of a cluster's strongest cell (the 3.6–10 of a 25–30 % symbol under σ 15–19)
	texMaxCells = 30  // a cluster larger than a 26×26 symbol of 3-px modules with its ring is not one
	texMaxRegs  = 2   // textured clusters proposed at most, strongest first
)

// appendTextured adds to regions the clusters of textured cells (cellTexture over the noise
// level) that no matrix region holds yet: a faint symbol of 1.5–3-px modules under strong
// sensor noise (25 % contrast, σ 15–19 levels) whose gradient energy stays under the
// locator's noise floor. Only under white noise (the quiet cells' fineness, quietWhite),
// where the floor hides such symbols and the Haar details measure the noise alone; the
// clusters are edge-connected cells over texCellGain with one over texPeakGain, at most
// texMaxRegs of them, marked faint.
func appendTextured(regions []region, g *gray, cells []cellStat, cw, ch int) []region {
	es := make([]float64, len(cells))
	for i := range cells {
		es[i] = cells[i].e
	}
	slices.Sort(es)
	if !quietWhite(cells, es[len(es)/4]) {
		return regions
	}
	tex, n0 := cellTexture(g, cw, ch)
	if n0 <= 0 {
		return regions
	}
	found := texturedClusters(tex, n0, cw, ch)
	added := 0
	for _, c := range found {
		if added == texMaxRegs {
			break
		}
		r, ok := texturedRegion(cells, c.comp, cw)
		if !ok {
			continue
		}
		if q := matrixAt(regions, r); q >= 0 {
			regions[q].textured = true // found already: its crop is print, however noisy
			continue
		}
		regions = append(regions, r)
		added++
	}
	return regions
}

// texCluster is a cluster of textured cells and the texture of its strongest, over the noise
// level.
type texCluster struct {
	comp []int
	peak float64
}

// texturedClusters returns the edge-connected clusters of cells whose texture is at least
// texCellGain times the noise level n0, those with a cell over texPeakGain and at most
// texMaxCells cells, strongest first.
func texturedClusters(tex []float64, n0 float64, cw, ch int) []texCluster {
	in := make([]bool, len(tex))
	for i, t := range tex {
		in[i] = t >= texCellGain*n0
	}
	seen := make([]bool, len(tex))
	var found []texCluster
	var stack []int
	for start := range tex {
		if !in[start] || seen[start] {
			continue
		}
		seen[start] = true
		stack = append(stack[:0], start)
		var comp []int
		peak := 0.0
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, i)
			peak = max(peak, tex[i]/n0)
			x, y := i%cw, i/cw
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || nx >= cw || ny >= ch {
					continue
				}
				if j := ny*cw + nx; in[j] && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if peak >= texPeakGain && len(comp) <= texMaxCells {
			found = append(found, texCluster{comp, peak})
		}
	}
	slices.SortFunc(found, func(a, b texCluster) int { return cmp.Compare(b.peak, a.peak) })
	return found
}

// texturedRegion is the matrix region of a textured cluster: its cells' extent (a cell's
// half beyond the outer centres, as componentRegion's), oriented by the cells' 4-fold moment.
func texturedRegion(cells []cellStat, comp []int, cw int) (region, bool) {
	var c4, s4, fine, mx, my float64
	for _, i := range comp {
		c4 += cells[i].c4
		s4 += cells[i].s4
		fine += cells[i].fine
		mx += float64(i%cw) + 0.5
		my += float64(i/cw) + 0.5
	}
	n := float64(len(comp))
	mx, my = mx/n*cellSize, my/n*cellSize
	ang := 0.25 * math.Atan2(s4, c4)
	ux, uy := math.Cos(ang), math.Sin(ang)
	umin, umax, vmin, vmax := cellBounds(comp, cw, mx, my, ux, uy)
	const half = cellSize * 0.6
	cu, cv := (umin+umax)/2, (vmin+vmax)/2
	r := region{
		cx: mx + cu*ux - cv*uy, cy: my + cu*uy + cv*ux,
		angle: ang, axis: ang,
		halfU: (umax-umin)/2 + half, halfV: (vmax-vmin)/2 + half,
		faint: true, textured: true,
	}
	sq := min(r.halfU, r.halfV) / max(r.halfU, r.halfV)
	if sq < 0.4 {
		return region{}, false // a line of texture (a ruler's scale, a row of print), not a symbol
	}
	r.score = fine / n * sq * sq
	return r, true
}
