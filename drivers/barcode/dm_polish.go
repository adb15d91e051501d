package barcode

import "math"

// Polishing a hypothesis's corners. The side fits put the corners within a fraction of a
// module; on small modules (2 pixels) or a blurred border that fraction is enough to sample
// a row or column between two modules. dmPolish moves each corner in turn, by steps of 0.3,
// 0.15 and 0.08 module in eight directions, as long as the contrast of the symbol's fixed
// pattern improves: the timing modules against their expected colours, the L and the
// timing's dark modules against the quiet zone just outside them.

// dmPatternContrast is that contrast for the symbol of cols×rows modules that h describes,
// sampled (one point per module) in the smoothed crop b.
func dmPatternContrast(b []float32, w, hh int, h *dmHomography, cols, rows int) float64 {
	at := func(u, v float64) float64 {
		x, y := h.at(u, v)
		return dmAt(b, w, hh, x, y)
	}
	const out = 0.7 // quiet-zone samples, modules outside the border
	var s float64
	for j := range cols {
		u := float64(j) + 0.5
		top := at(u, 0.5)
		if j%2 == 0 { // dark timing module: against the quiet zone above and its light neighbours
			s += at(u, -out) - top
		} else {
			s += top - at(u, 1.5) // light: against the data row below (half dark on average)
		}
		s += at(u, float64(rows)+out) - at(u, float64(rows)-0.5) // bottom of the L
	}
	for i := range rows {
		v := float64(i) + 0.5
		right := at(float64(cols)-0.5, v)
		if i%2 == 1 {
			s += at(float64(cols)+out, v) - right
		} else {
			s += right - at(float64(cols)-1.5, v)
		}
		s += at(-out, v) - at(0.5, v) // left of the L
	}
	return s
}

// dmPolish returns fit with its corners moved to where the fixed pattern's contrast is
// highest (a local search from where they are).
func dmPolish(b []float32, w, hh int, fit dmFit) dmFit {
	c := fit.corners
	cols, rows := fit.cols, fit.rows
	score := func(c [4]dmPt) float64 {
		h := newDMHomography(c[0], c[1], c[2], c[3], cols, rows)
		return dmPatternContrast(b, w, hh, &h, cols, rows)
	}
	best := score(c)
	// Module size in pixels, from the outline's perimeter.
	var per float64
	for k := range 4 {
		a, e := c[k], c[(k+1)%4]
		per += math.Hypot(e.x-a.x, e.y-a.y)
	}
	m := per / float64(2*(cols+rows))
	dirs := [8][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.7, 0.7}, {-0.7, 0.7}, {0.7, -0.7}, {-0.7, -0.7}}
	for _, step := range []float64{0.3, 0.15, 0.08} {
		d := step * m
		for pass := 0; pass < 4; pass++ {
			moved := false
			for k := range 4 {
				for _, dir := range dirs {
					t := c
					t[k].x += d * dir[0]
					t[k].y += d * dir[1]
					if s := score(t); s > best {
						best, c, moved = s, t, true
					}
				}
			}
			if !moved {
				break
			}
		}
	}
	fit.corners = c
	fit.h = newDMHomography(c[0], c[1], c[2], c[3], cols, rows)
	return fit
}
