package barcode

import (
	"image"
	"image/color"
	"math"
)

// gray is an 8-bit luminance image with stride = width.
type gray struct {
	w, h int
	pix  []byte
}

// toGray converts any image to luminance, with fast paths for the types cameras and
// decoders produce (Gray, YCbCr: its Y plane, RGBA, NRGBA).
func toGray(img image.Image) gray {
	b := img.Bounds()
	g := gray{w: b.Dx(), h: b.Dy()}
	g.pix = make([]byte, g.w*g.h)
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < g.h; y++ {
			off := m.PixOffset(b.Min.X, b.Min.Y+y)
			copy(g.pix[y*g.w:(y+1)*g.w], m.Pix[off:off+g.w])
		}
	case *image.YCbCr:
		for y := 0; y < g.h; y++ {
			off := m.YOffset(b.Min.X, b.Min.Y+y)
			copy(g.pix[y*g.w:(y+1)*g.w], m.Y[off:off+g.w])
		}
	case *image.RGBA:
		for y := 0; y < g.h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := g.pix[y*g.w : (y+1)*g.w]
			for x := range dst {
				r, gg, bb := uint32(src[4*x]), uint32(src[4*x+1]), uint32(src[4*x+2])
				dst[x] = byte((r + 2*gg + bb) >> 2)
			}
		}
	case *image.NRGBA:
		for y := 0; y < g.h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := g.pix[y*g.w : (y+1)*g.w]
			for x := range dst {
				r, gg, bb, a := uint32(src[4*x]), uint32(src[4*x+1]), uint32(src[4*x+2]), uint32(src[4*x+3])
				l := (r + 2*gg + bb) >> 2
				dst[x] = byte((l*a + 255*(255-a)) / 255) // transparent reads as white paper
			}
		}
	default:
		i := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				l := (uint32(c.R) + 2*uint32(c.G) + uint32(c.B)) >> 2
				g.pix[i] = byte((l*uint32(c.A) + 255*(255-uint32(c.A))) / 255)
				i++
			}
		}
	}
	return g
}

// at returns the bilinear interpolation at (x, y), clamped to the image; a NaN coordinate
// (a degenerate transform's) is taken as 0, the image's edge.
func (g *gray) at(x, y float64) float64 {
	if !(x >= 0) {
		x = 0
	}
	if !(y >= 0) {
		y = 0
	}
	maxX, maxY := float64(g.w-1), float64(g.h-1)
	if x > maxX {
		x = maxX
	}
	if y > maxY {
		y = maxY
	}
	x0, y0 := int(x), int(y)
	fx, fy := x-float64(x0), y-float64(y0)
	x1, y1 := min(x0+1, g.w-1), min(y0+1, g.h-1)
	r0, r1 := g.pix[y0*g.w:], g.pix[y1*g.w:]
	a := float64(r0[x0]) + fx*(float64(r0[x1])-float64(r0[x0]))
	b := float64(r1[x0]) + fx*(float64(r1[x1])-float64(r1[x0]))
	return a + fy*(b-a)
}

// resample returns the w×h image whose pixel (i, j) is g at o + (i+½)·du + (j+½)·dv: an
// affine, rotated and scaled crop.
func (g *gray) resample(ox, oy, dux, duy, dvx, dvy float64, w, h int) gray {
	out := gray{w: w, h: h, pix: make([]byte, w*h)}
	for j := 0; j < h; j++ {
		fj := float64(j) + 0.5
		bx, by := ox+fj*dvx, oy+fj*dvy
		row := out.pix[j*w : (j+1)*w]
		for i := range row {
			fi := float64(i) + 0.5
			row[i] = byte(g.at(bx+fi*dux, by+fi*duy) + 0.5) // at is within 0–255: rounded
		}
	}
	return out
}

// sharpen returns g with an unsharp mask of the given radius (box) and amount, which
// restores the edges of modules softened by lens blur before binarization.
func (g *gray) sharpen(radius int, amount float64) gray { return g.boxed(radius, amount, false) }

// boxMean returns g blurred: each pixel the rounded mean of its (2·radius+1)² neighbourhood
// (sensor noise smoothed before faint ink is thresholded).
func (g *gray) boxMean(radius int) gray { return g.boxed(radius, 0, true) }

// boxed is sharpen, or with meanOnly the box mean alone (in integers).
func (g *gray) boxed(radius int, amount float64, meanOnly bool) gray {
	out := gray{w: g.w, h: g.h, pix: make([]byte, len(g.pix))}
	// Box sums via an integral image.
	w, h := g.w, g.h
	integ := make([]int32, (w+1)*(h+1))
	for y := 0; y < h; y++ {
		var row int32
		for x := 0; x < w; x++ {
			row += int32(g.pix[y*w+x])
			integ[(y+1)*(w+1)+x+1] = integ[y*(w+1)+x+1] + row
		}
	}
	for y := 0; y < h; y++ {
		y0, y1 := max(0, y-radius), min(h, y+radius+1)
		top, bot := integ[y0*(w+1):(y0+1)*(w+1)], integ[y1*(w+1):(y1+1)*(w+1)]
		src, dst := g.pix[y*w:(y+1)*w], out.pix[y*w:(y+1)*w]
		for x := range dst {
			x0, x1 := max(0, x-radius), min(w, x+radius+1)
			s := bot[x1] - top[x1] - bot[x0] + top[x0]
			area := int32((y1 - y0) * (x1 - x0))
			if meanOnly {
				dst[x] = byte((s + area/2) / area)
				continue
			}
			mean := float64(s) / float64(area)
			v := float64(src[x])
			dst[x] = byte(max(0, min(255, math.Round(v+amount*(v-mean)))))
		}
	}
	return out
}

// stretch maps the 1st–99th percentile of g's levels onto 0–255 in place: a low-contrast
// symbol (faded print, grey ink) otherwise stays under the binarizer's minimum local range.
func (g *gray) stretch() {
	var hist [256]int
	for _, v := range g.pix {
		hist[v]++
	}
	n := len(g.pix)
	lo, hi, acc := 0, 255, 0
	for i, c := range hist {
		acc += c
		if acc > n/100 {
			lo = i
			break
		}
	}
	acc = 0
	for i := 255; i >= 0; i-- {
		acc += hist[i]
		if acc > n/100 {
			hi = i
			break
		}
	}
	if hi-lo < 8 || (lo == 0 && hi == 255) {
		return
	}
	var lut [256]byte
	for i := range lut {
		lut[i] = byte(max(0, min(255, (i-lo)*255/(hi-lo))))
	}
	for i, v := range g.pix {
		g.pix[i] = lut[v]
	}
}

// equalise is normalize over about three modules of a matrix crop (6 % of its side, at least
// 6 pixels): faded print, grey ink, a shadow edge across the symbol.
func (g *gray) equalise() gray { return g.normalize(max(6, int(0.06*float64(g.w))), 10) }

// normalize returns g with its local contrast equalised: each pixel's difference to the
// mean of its (2·radius+1)² neighbourhood, divided by the local standard deviation (at least
// minStd), mapped around mid grey. A faded symbol and one under a hard shadow edge come out
// at full contrast; flat paper stays flat (its noise under minStd).
func (g *gray) normalize(radius int, minStd float64) gray {
	w, h := g.w, g.h
	out := gray{w: w, h: h, pix: make([]byte, len(g.pix))}
	s1 := make([]int64, (w+1)*(h+1))
	s2 := make([]int64, (w+1)*(h+1))
	for y := 0; y < h; y++ {
		var r1, r2 int64
		for x := 0; x < w; x++ {
			v := int64(g.pix[y*w+x])
			r1 += v
			r2 += v * v
			s1[(y+1)*(w+1)+x+1] = s1[y*(w+1)+x+1] + r1
			s2[(y+1)*(w+1)+x+1] = s2[y*(w+1)+x+1] + r2
		}
	}
	minVar := minStd * minStd
	for y := 0; y < h; y++ {
		y0, y1 := max(0, y-radius), min(h, y+radius+1)
		t1, b1 := s1[y0*(w+1):(y0+1)*(w+1)], s1[y1*(w+1):(y1+1)*(w+1)]
		t2, b2 := s2[y0*(w+1):(y0+1)*(w+1)], s2[y1*(w+1):(y1+1)*(w+1)]
		src, dst := g.pix[y*w:(y+1)*w], out.pix[y*w:(y+1)*w]
		for x := range dst {
			x0, x1 := max(0, x-radius), min(w, x+radius+1)
			n := float64((y1 - y0) * (x1 - x0))
			a := float64(b1[x1] - t1[x1] - b1[x0] + t1[x0])
			b := float64(b2[x1] - t2[x1] - b2[x0] + t2[x0])
			mean := a / n
			sd := minStd // max(√variance, minStd), without the root on flat paper
			if v := b/n - mean*mean; v > minVar {
				sd = math.Sqrt(v)
			}
			v := 128 + 70*(float64(src[x])-mean)/sd
			dst[x] = byte(max(0, min(255, v)) + 0.5)
		}
	}
	return out
}

// neighbourCorr returns the correlation of horizontally adjacent pixels over the rectangle
// (every other row): near 1 for anything printed and photographed (modules span ≥ 1.5
// pixels and the lens blurs), near 0 for sensor noise. It lets the decoder skip a region of
// pure noise before gozxing's finder-pattern search, which turns cubic on it.
func (g *gray) neighbourCorr(x0, y0, x1, y1 int) float64 {
	x0, y0 = max(0, x0), max(0, y0)
	x1, y1 = min(g.w, x1), min(g.h, y1)
	var n, s, s2, d2 float64
	for y := y0; y < y1; y += 2 {
		row := g.pix[y*g.w:]
		for x := x0; x+1 < x1; x++ {
			v, w := float64(row[x]), float64(row[x+1])
			s += v
			s2 += v * v
			d2 += (w - v) * (w - v)
			n++
		}
	}
	if n < 16 {
		return 1
	}
	variance := s2/n - (s/n)*(s/n)
	if variance < 1 {
		return 1
	}
	return 1 - d2/n/(2*variance)
}
