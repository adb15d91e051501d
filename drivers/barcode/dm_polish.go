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
	return dmClimbCorners(fit, []float64{0.3, 0.15, 0.08}, 4, func(h *dmHomography) float64 {
		return dmPatternContrast(b, w, hh, h, fit.cols, fit.rows)
	}, nil)
}

// dmPolishModules returns fit (polished by dmPolish) with its corners moved further, by
// steps down to 0.04 module, to where the modules themselves stand out most: the sum over
// the inner modules of each one's distance to the mean of the 3×3 modules around it. Under
// strong noise or JPEG the fixed pattern's few modules place the grid within a quarter of a
// module; all the modules place it closer (module centres on a module, not between two,
// give the most extreme values): on the third generator's tuning frames that took a symbol
// from 27 of 324 modules wrong to 17, within the soft read's reach. Each round costs a
// sampling of every module 32 times (about 0.5 ms for 18×18), so the climb ends early when
// stop (the frame's budget spent) says so.
func dmPolishModules(b []float32, w, hh int, fit dmFit, stop func() bool) dmFit {
	vals := make([]float64, fit.rows*fit.cols)
	return dmClimbCorners(fit, []float64{0.3, 0.15, 0.08, 0.04}, 6, func(h *dmHomography) float64 {
		return dmModuleContrast(b, w, hh, h, fit.cols, fit.rows, vals)
	}, stop)
}

// dmModuleContrast is dmPolishModules' measure for the grid h of cols×rows modules, one
// point per module centre in the smoothed crop b (vals: room for the modules' values).
func dmModuleContrast(b []float32, w, hh int, h *dmHomography, cols, rows int, vals []float64) float64 {
	for i := range rows {
		for j := range cols {
			x, y := h.at(float64(j)+0.5, float64(i)+0.5)
			vals[i*cols+j] = dmAt(b, w, hh, x, y)
		}
	}
	var s float64
	for i := 1; i < rows-1; i++ {
		for j := 1; j < cols-1; j++ {
			var m float64
			for _, r := range [3]int{i - 1, i, i + 1} {
				row := vals[r*cols+j-1 : r*cols+j+2]
				m += row[0] + row[1] + row[2]
			}
			s += math.Abs(vals[i*cols+j] - m/9)
		}
	}
	return s
}

// dmClimbCorners moves each of fit's corners in turn in eight directions, by each of steps
// (modules, from the outline's perimeter) for up to passes rounds while score (of the grid
// the corners make) grows, and returns fit with the corners where it ended (or where it was
// when stop, unless nil, said to stop before a round).
func dmClimbCorners(fit dmFit, steps []float64, passes int, score func(*dmHomography) float64, stop func() bool) dmFit {
	c := fit.corners
	cols, rows := fit.cols, fit.rows
	at := func(c [4]dmPt) float64 {
		h := newDMHomography(c[0], c[1], c[2], c[3], cols, rows)
		return score(&h)
	}
	best := at(c)
	// Module size in pixels, from the outline's perimeter.
	var per float64
	for k := range 4 {
		a, e := c[k], c[(k+1)%4]
		per += math.Hypot(e.x-a.x, e.y-a.y)
	}
	m := per / float64(2*(cols+rows))
	dirs := [8][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.7, 0.7}, {-0.7, 0.7}, {0.7, -0.7}, {-0.7, -0.7}}
	for _, step := range steps {
		d := step * m
		for range passes {
			if stop != nil && stop() {
				break
			}
			moved := false
			for k := range 4 {
				for _, dir := range dirs {
					t := c
					t[k].x += d * dir[0]
					t[k].y += d * dir[1]
					if s := at(t); s > best {
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
