package barcode

import (
	"image"
	"math"
	"math/rand/v2"
)

// Photo-like test frames, made at test time from a seed (never committed). Each is a 640×480
// grey "camera frame": a lit, cluttered desk (gradient background, rectangles, lines, discs,
// blocks of text-like glyphs), a white ticket carrying the code with its quiet zone and a
// line of text, scaled, rotated by up to ±90°, then optical blur, uneven light (gradient and a
// soft shadow) and sensor noise. docs/codes.md lists the parameter ranges.

const frameW, frameH = 640, 480

type frameParams struct {
	Module float64 // pixels per module
	Angle  float64 // degrees
	Blur   float64 // Gaussian sigma, pixels
	Noise  float64 // sigma, grey levels
	Light  float64 // darkest illumination factor
}

// codeText returns a random text of the shape the terminal uses for a format (no check
// characters: the image layer does not care).
func codeText(rng *rand.Rand, f Format) string {
	const digits = "0123456789"
	const b32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	var n int
	alpha := digits
	switch f {
	case Code128:
		n = 12
	case ITF:
		n = 14
	default:
		n, alpha = 25, b32
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = alpha[rng.IntN(len(alpha))]
	}
	return string(b)
}

// makeFrame draws one photo-like frame holding text as format f.
func makeFrame(rng *rand.Rand, f Format, text string) (*image.Gray, frameParams) {
	fr := make([]float64, frameW*frameH)
	// Background: a grey gradient.
	base := 70 + 120*rng.Float64()
	gxb, gyb := (rng.Float64()-0.5)*0.15, (rng.Float64()-0.5)*0.15
	for y := range frameH {
		for x := range frameW {
			fr[y*frameW+x] = base + gxb*float64(x-frameW/2) + gyb*float64(y-frameH/2)
		}
	}
	// Clutter.
	for range 8 + rng.IntN(9) {
		switch rng.IntN(4) {
		case 0:
			fillRotRect(fr, rng.Float64()*frameW, rng.Float64()*frameH, 10+rng.Float64()*90, 10+rng.Float64()*90,
				rng.Float64()*math.Pi, 255*rng.Float64())
		case 1:
			a := rng.Float64() * math.Pi
			fillRotRect(fr, rng.Float64()*frameW, rng.Float64()*frameH, 40+rng.Float64()*200, 1+rng.Float64()*3,
				a, 255*rng.Float64())
		case 2:
			fillDisc(fr, rng.Float64()*frameW, rng.Float64()*frameH, 5+rng.Float64()*40, 255*rng.Float64())
		default:
			textBlock(fr, rng, rng.Float64()*frameW, rng.Float64()*frameH, 1+rng.IntN(4), 5+rng.IntN(20),
				1+rng.Float64(), rng.Float64()*math.Pi, 20+60*rng.Float64())
		}
	}

	// The ticket (none when text is empty: a frame of clutter only).
	var p frameParams
	if text == "" {
		p.Module = 3
	} else {
		p = drawTicket(fr, rng, f, text)
	}
	// Optics, light, sensor.
	// Lens blur: σ 0.3–1.2 px, at most half a module (beyond that the narrowest bars
	// vanish into noise: no reader can resolve them, the camera must come closer).
	p.Blur = min(0.3+0.9*rng.Float64(), 0.5*p.Module)
	gaussBlur(fr, p.Blur)
	p.Light = 0.45 + 0.45*rng.Float64()
	la := rng.Float64() * 2 * math.Pi
	lx, ly := math.Cos(la), math.Sin(la)
	shadow := rng.IntN(2) == 0
	sa := rng.Float64() * 2 * math.Pi
	sx, sy := math.Cos(sa), math.Sin(sa)
	sd := (rng.Float64() - 0.5) * 300
	p.Noise = 2 + 6*rng.Float64()
	img := image.NewGray(image.Rect(0, 0, frameW, frameH))
	noise := normalTable()
	ni := rng.IntN(len(noise))
	step := 1 + 2*rng.IntN(1000)
	for y := range frameH {
		for x := range frameW {
			px, py := float64(x-frameW/2), float64(y-frameH/2)
			t := (px*lx + py*ly) / 400 // −1..1
			light := 1 - (1-p.Light)*(t+1)/2
			if shadow {
				s := (px*sx + py*sy - sd) / 40
				light *= 1 - 0.25*logistic(s)
			}
			ni = (ni + step) & (len(noise) - 1)
			v := fr[y*frameW+x]*light + noise[ni]*p.Noise
			img.Pix[y*img.Stride+x] = byte(max(0, min(255, v+0.5)))
		}
	}
	return img, p
}

// normals holds 2¹⁸ standard normal samples (fixed seed), read with a random start and odd
// stride per frame: sensor noise without a random draw per pixel.
var normals = func() []float64 {
	rng := rand.New(rand.NewPCG(99, 99))
	t := make([]float64, 1<<18)
	for i := range t {
		t[i] = rng.NormFloat64()
	}
	return t
}()

func normalTable() []float64 { return normals }

// logistic is 1/(1+e^−s), tabulated.
func logistic(s float64) float64 {
	if s <= -8 {
		return 0
	}
	if s >= 8 {
		return 1
	}
	return logisticTable[int((s+8)*64)]
}

var logisticTable = func() (t [16*64 + 1]float64) {
	for i := range t {
		t[i] = 1 / (1 + math.Exp(-(float64(i)/64 - 8)))
	}
	return
}()

// drawTicket draws the ticket carrying text as f into fr and returns its parameters.
func drawTicket(fr []float64, rng *rand.Rand, f Format, text string) frameParams {
	// The ticket: the code at one pixel per module, on paper with a text line under it.
	var p frameParams
	linear := f&OneD != 0
	opt := RenderOptions{Module: 1}
	if linear {
		opt.Height = 30 + rng.IntN(20)
		p.Module = 1.5 + 1.7*rng.Float64()
	} else {
		p.Module = 2.5 + 3.5*rng.Float64()
	}
	code, err := Render(f, text, opt)
	if err != nil {
		panic(err)
	}
	cw, ch := float64(code.Bounds().Dx()), float64(code.Bounds().Dy())
	tw, th := cw+4, ch+16 // paper beyond the quiet zone, room for a line of text
	p.Angle = -90 + 180*rng.Float64()
	theta := p.Angle * math.Pi / 180
	cs, sn := math.Cos(theta), math.Sin(theta)
	var cx, cy float64
	for {
		bw := p.Module * (math.Abs(tw*cs) + math.Abs(th*sn))
		bh := p.Module * (math.Abs(tw*sn) + math.Abs(th*cs))
		if bw < frameW-8 && bh < frameH-8 {
			cx = bw/2 + 4 + rng.Float64()*(frameW-8-bw)
			cy = bh/2 + 4 + rng.Float64()*(frameH-8-bh)
			break
		}
		p.Module *= 0.95
	}
	paper := 190 + 60*rng.Float64()
	ink := 60 * rng.Float64()
	// The text line under the code, in ticket coordinates (modules).
	glyphs := make([]bool, int(tw)*8)
	for i := range glyphs {
		glyphs[i] = rng.IntN(3) == 0 && (i%int(tw))%6 != 5 && i%int(tw) > 8 && i%int(tw) < int(tw)-8
	}
	ticket := func(tx, ty float64) (float64, bool) {
		if tx < 0 || ty < 0 || tx >= tw || ty >= th {
			return 0, false
		}
		x, y := int(tx)-2, int(ty)-2
		if x >= 0 && y >= 0 && x < int(cw) && y < int(ch) {
			if code.Pix[y*code.Stride+x] == 0 {
				return ink, true
			}
			return paper, true
		}
		if gy := int(ty) - int(ch) - 5; gy >= 0 && gy < 8 && glyphs[gy*int(tw)+int(tx)] {
			return ink + 30, true
		}
		return paper, true
	}
	// Rasterise with 2×2 supersampling (the lens blur comes next).
	rx := p.Module*(math.Abs(tw*cs)+math.Abs(th*sn))/2 + 2
	ry := p.Module*(math.Abs(tw*sn)+math.Abs(th*cs))/2 + 2
	x0, x1 := max(0, int(cx-rx)), min(frameW, int(cx+rx))
	y0, y1 := max(0, int(cy-ry)), min(frameH, int(cy+ry))
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			var sum float64
			hits := 0
			for sy := range 2 {
				for sx := range 2 {
					dx := float64(x) + (float64(sx)+0.5)/2 - cx
					dy := float64(y) + (float64(sy)+0.5)/2 - cy
					tx := (dx*cs+dy*sn)/p.Module + tw/2
					ty := (-dx*sn+dy*cs)/p.Module + th/2
					if v, ok := ticket(tx, ty); ok {
						sum += v
						hits++
					}
				}
			}
			if hits > 0 {
				i := y*frameW + x
				fr[i] = (sum + float64(4-hits)*fr[i]) / 4
			}
		}
	}
	return p
}

func fillRotRect(fr []float64, cx, cy, w, h, a, v float64) {
	cs, sn := math.Cos(a), math.Sin(a)
	r := math.Hypot(w, h) / 2
	for y := max(0, int(cy-r)); y < min(frameH, int(cy+r)+1); y++ {
		for x := max(0, int(cx-r)); x < min(frameW, int(cx+r)+1); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			if u, w2 := dx*cs+dy*sn, -dx*sn+dy*cs; math.Abs(u) <= w/2 && math.Abs(w2) <= h/2 {
				fr[y*frameW+x] = v
			}
		}
	}
}

func fillDisc(fr []float64, cx, cy, r, v float64) {
	for y := max(0, int(cy-r)); y < min(frameH, int(cy+r)+1); y++ {
		for x := max(0, int(cx-r)); x < min(frameW, int(cx+r)+1); x++ {
			if math.Hypot(float64(x)-cx, float64(y)-cy) <= r {
				fr[y*frameW+x] = v
			}
		}
	}
}

// textBlock draws lines of 3×5-dot glyphs (dot size px), rotated by a.
func textBlock(fr []float64, rng *rand.Rand, x0, y0 float64, lines, chars int, px, a, v float64) {
	cs, sn := math.Cos(a), math.Sin(a)
	for l := range lines {
		for c := range chars {
			for d := range 15 {
				if rng.IntN(2) == 0 {
					continue
				}
				u := (float64(c*4+d%3) + 0.5) * px
				w := (float64(l*7+d/3) + 0.5) * px
				fillRotRect(fr, x0+u*cs-w*sn, y0+u*sn+w*cs, px, px, a, v)
			}
		}
	}
}

// gaussBlur blurs fr with a separable Gaussian kernel of the given sigma.
func gaussBlur(fr []float64, sigma float64) {
	r := int(math.Ceil(3 * sigma))
	k := make([]float64, 2*r+1)
	var sum float64
	for i := range k {
		x := float64(i - r)
		k[i] = math.Exp(-x * x / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	// Rows, with replicated edges in a padded line.
	line := make([]float64, frameW+2*r)
	for y := range frameH {
		row := fr[y*frameW : (y+1)*frameW]
		copy(line[r:], row)
		for i := range r {
			line[i], line[r+frameW+i] = row[0], row[frameW-1]
		}
		for x := range row {
			var s float64
			for i, w := range k {
				s += w * line[x+i]
			}
			row[x] = s
		}
	}
	// Columns, a row at a time (cache friendly).
	tmp := make([]float64, len(fr))
	copy(tmp, fr)
	for y := range frameH {
		out := fr[y*frameW : (y+1)*frameW]
		clear(out)
		for i, w := range k {
			yy := max(0, min(frameH-1, y+i-r))
			src := tmp[yy*frameW : (yy+1)*frameW]
			for x := range out {
				out[x] += w * src[x]
			}
		}
	}
}
