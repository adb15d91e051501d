package barcode

// Uneven light across a symbol: a hard shadow edge, vignetting. The paper's level under it is
// estimated by a morphological closing of the grey levels (the local maximum, then the
// local minimum of that, over the same square): the closing fills every ink feature narrower
// than the square with the paper around it but keeps a step of light, the shadow's edge,
// where it is. Dividing by it leaves the ink at the same level on both sides of the edge,
// where a local threshold (gozxing's hybrid binarizer, our equalisation) would turn the
// shadowed paper along the edge into ink for a few modules.

// flatten returns g divided by its paper level (the closing over a square of about
// 2·radius+1 pixels), stretched to full range, and whether the light was uneven enough for a
// hard shadow: the paper level's 5th percentile under 70 % of its 95th (a shadow 0.4–0.65
// deep is well under; paper in even light with its vignetting well over). The closing is
// taken at half resolution (the maximum of each 2×2 pixels, then radius/2): a quarter of
// the cost, and a shadow's edge moves by a pixel at most.
func (g *gray) flatten(radius int) (gray, bool) {
	paper := g.maxPool2()
	r := max(1, radius/2)
	paper = paper.slide(r, true)
	paper = paper.slide(r, false)
	var hist [256]int
	for _, v := range paper.pix {
		hist[v]++
	}
	lo, hi := percentile(&hist, len(paper.pix), 5), percentile(&hist, len(paper.pix), 95)
	out := gray{w: g.w, h: g.h, pix: make([]byte, len(g.pix))}
	for y := range g.h {
		prow := paper.pix[(y/2)*paper.w:]
		for x, v := range g.pix[y*g.w : (y+1)*g.w] {
			p := max(int(prow[x/2]), 1)
			out.pix[y*g.w+x] = byte(min(255, int(v)*255/p))
		}
	}
	out.stretch()
	return out, 10*lo < 7*hi
}

// maxPool2 returns the maximum of each 2×2 pixels of g (the last row and column alone
// when g's side is odd).
func (g *gray) maxPool2() gray {
	w, h := (g.w+1)/2, (g.h+1)/2
	out := gray{w: w, h: h, pix: make([]byte, w*h)}
	for y := range g.h {
		row := g.pix[y*g.w : (y+1)*g.w]
		orow := out.pix[(y/2)*w : (y/2+1)*w]
		for x, v := range row {
			orow[x/2] = max(orow[x/2], v)
		}
	}
	return out
}

// percentile returns the level under which pct % of the n counted levels lie.
func percentile(hist *[256]int, n, pct int) int {
	acc := 0
	for v, c := range hist {
		if acc += c; 100*acc >= pct*n {
			return v
		}
	}
	return 255
}

// slide returns the maximum (or the minimum) of g over the (2·radius+1)² square around
// each pixel, clipped to the image: rows then columns, each in linear time (slideLine).
func (g *gray) slide(radius int, maxima bool) gray {
	w, h := g.w, g.h
	tmp := gray{w: w, h: h, pix: make([]byte, len(g.pix))}
	out := gray{w: w, h: h, pix: make([]byte, len(g.pix))}
	q := make([]int, max(w, h))
	for y := range h {
		slideLine(g.pix[y*w:], tmp.pix[y*w:], w, 1, radius, maxima, q)
	}
	for x := range w {
		slideLine(tmp.pix[x:], out.pix[x:], h, w, radius, maxima, q)
	}
	return out
}

// flatSmoothed is g smoothed over 3×3 pixels, then flattened over about two modules of a
// matrix crop (4 % of its side); uneven as flatten says.
func (g *gray) flatSmoothed() (f gray, uneven bool) {
	b := g.boxMean(1)
	return b.flatten(max(3, int(0.04*float64(b.w))))
}
