package barcode

// A phone photo (1–12 megapixels) holds symbols with modules of 4–20 pixels: the locator's
// 16-pixel cells would see flat module interiors, and its cost grows with the area. Such a
// frame is located on a pyramid of images halved in each direction (2×2 means), from the
// level whose longer side is at most maxLocateSide: there the modules of a symbol that fills
// a good part of the frame are a few pixels, as in a 640×480 camera frame. Candidates are
// read on that level; bars reduced to a pixel are read again one level finer. When nothing
// reads, the next coarser level (larger modules, a symbol filling the frame) and then the
// next finer one (the smallest modules) are located too. A frame located at full resolution
// (a camera frame) is located halved too when nothing read, for faint symbols only
// (scanHalf). The full-frame fallback always reads the original.

// maxLocateSide is the longer side of the level a frame is first located on: frames up to
// it are located at full resolution.
const maxLocateSide = 1024

// minLocateSide is the longer side under which no coarser level is located.
const minLocateSide = 320

// pyramid holds the levels of a frame, made when first asked for: level 0 is the frame,
// level l+1 is level l halved.
type pyramid struct {
	levels []*gray
}

func newPyramid(g *gray) *pyramid { return &pyramid{levels: []*gray{g}} }

// level returns level l.
func (p *pyramid) level(l int) *gray {
	for len(p.levels) <= l {
		h := p.levels[len(p.levels)-1].half()
		p.levels = append(p.levels, &h)
	}
	return p.levels[l]
}

// locateLevels returns the levels to locate on, in order: the first level whose longer side
// is at most maxLocateSide; for a frame larger than that, then the next coarser (while its
// longer side is at least minLocateSide) and the next finer one.
func (p *pyramid) locateLevels() []int {
	g := p.levels[0]
	side := max(g.w, g.h)
	l := 0
	for side>>l > maxLocateSide {
		l++
	}
	if l == 0 {
		return []int{0}
	}
	out := []int{l}
	if side>>(l+1) >= minLocateSide {
		out = append(out, l+1)
	}
	return append(out, l-1)
}

// half returns g halved in each direction (each pixel the rounded mean of a 2×2 block; an
// odd last row or column is dropped).
func (g *gray) half() gray {
	w, h := g.w/2, g.h/2
	out := gray{w: w, h: h, pix: make([]byte, w*h)}
	for y := range h {
		r0, r1 := g.pix[2*y*g.w:], g.pix[(2*y+1)*g.w:]
		row := out.pix[y*w : (y+1)*w]
		for x := range row {
			row[x] = byte((int(r0[2*x]) + int(r0[2*x+1]) + int(r1[2*x]) + int(r1[2*x+1]) + 2) >> 2)
		}
	}
	return out
}

// scaled returns the region in the coordinates of an image k times larger.
func (r region) scaled(k float64) region {
	r.cx, r.cy = (r.cx+0.5)*k-0.5, (r.cy+0.5)*k-0.5
	r.halfU, r.halfV = r.halfU*k, r.halfV*k
	if r.grown != nil {
		g := make([]region, len(r.grown))
		for i, q := range r.grown {
			g[i] = q.scaled(k)
		}
		r.grown = g
	}
	return r
}
