package barcode

import (
	"image"
	"image/png"
	"math"
	"os"
	"strings"
	"testing"
)

func TestDebugFile(t *testing.T) {
	p := os.Getenv("DEBUGPNG")
	if p == "" {
		t.Skip()
	}
	fh, _ := os.Open(p)
	img, _ := png.Decode(fh)
	g := toGray(img)
	f := Code128
	if strings.Contains(p, "itf") {
		f = ITF
	}
	d := NewDecoder(Options{Formats: f | QRCode | DataMatrix, ITFLengths: []int{14}})
	for _, r := range locate(&g) {
		t.Logf("%+v", r)
		if r.linear {
			res, ok := d.decodeLinear(&g, r)
			t.Logf("  -> %v %+v", ok, res)
		} else {
			res, ok := d.decodeMatrix(&g, r)
			t.Logf("  -> %v %+v", ok, res)
		}
	}
}

func TestDebugCrop(t *testing.T) {
	p := os.Getenv("DEBUGPNG")
	if p == "" {
		t.Skip()
	}
	fh, _ := os.Open(p)
	img, _ := png.Decode(fh)
	g := toGray(img)
	r := locate(&g)[0]
	if os.Getenv("REG") != "" {
		for _, x := range locate(&g) {
			if x.linear {
				r = x
				break
			}
		}
	}
	ux, uy := math.Cos(r.angle), math.Sin(r.angle)
	m := 0.25*r.halfU + cellSize
	L := 2 * (r.halfU + m)
	k := 2.0
	ox := r.cx - (r.halfU+m)*ux + r.halfV*uy
	oy := r.cy - (r.halfU+m)*uy - r.halfV*ux
	c := g.resample(ox, oy, ux/k, uy/k, -uy, ux, int(L*k), int(2*r.halfV))
	out := image.NewGray(image.Rect(0, 0, c.w, c.h))
	copy(out.Pix, c.pix)
	fo, _ := os.Create("/tmp/crop.png")
	WritePNG(fo, out)
	fo.Close()
	prof := make([]float64, c.w)
	for i := range prof {
		prof[i] = float64(c.pix[c.h/2*c.w+i])
	}
	bits := make([]bool, c.w)
	edgeBits(prof, bits)
	var sb strings.Builder
	for _, b := range bits {
		if b {
			sb.WriteByte('#')
		} else {
			sb.WriteByte('.')
		}
	}
	t.Log(sb.String())
}

func TestDebugMatrixCrop(t *testing.T) {
	p := os.Getenv("DEBUGPNG")
	if p == "" {
		t.Skip()
	}
	fh, _ := os.Open(p)
	img, _ := png.Decode(fh)
	g := toGray(img)
	r := locate(&g)[0]
	s := max(r.halfU, r.halfV)
	s += max(0.3*s, 12)
	k := min(3, max(1, 240/(2*s)))
	n := int(2 * s * k)
	ux, uy := math.Cos(r.angle)/k, math.Sin(r.angle)/k
	ox := r.cx - s*(math.Cos(r.angle)-math.Sin(r.angle))
	oy := r.cy - s*(math.Sin(r.angle)+math.Cos(r.angle))
	c := g.resample(ox, oy, ux, uy, -uy, ux, n, n)
	out := image.NewGray(image.Rect(0, 0, c.w, c.h))
	copy(out.Pix, c.pix)
	fo, _ := os.Create("/tmp/crop.png")
	WritePNG(fo, out)
	fo.Close()
}

func TestDebugMatrixVariants(t *testing.T) {
	p := os.Getenv("DEBUGPNG")
	if p == "" {
		t.Skip()
	}
	fh, _ := os.Open(p)
	img, _ := png.Decode(fh)
	g := toGray(img)
	r := locate(&g)[0]
	d := NewDecoder(Options{Formats: QRCode | DataMatrix})
	for _, kk := range []float64{0, 3, 4} {
		for _, sh := range []float64{0, 0.5, 1, 2} {
			for _, rad := range []int{1, 2, 3} {
				s := max(r.halfU, r.halfV)
				s += max(0.3*s, 12)
				k := min(3, max(1, 240/(2*s)))
				if kk > 0 {
					k = kk
				}
				n := int(2 * s * k)
				ux, uy := math.Cos(r.angle)/k, math.Sin(r.angle)/k
				ox := r.cx - s*(math.Cos(r.angle)-math.Sin(r.angle))
				oy := r.cy - s*(math.Sin(r.angle)+math.Cos(r.angle))
				c := g.resample(ox, oy, ux, uy, -uy, ux, n, n)
				if sh > 0 {
					c = c.sharpen(rad, sh)
				}
				_, ok := d.decode2D(&c, true)
				t.Logf("k=%v sharpen=%v rad=%d: %v", kk, sh, rad, ok)
			}
		}
	}
}

func TestDebugLinearVariants(t *testing.T) {
	p := os.Getenv("DEBUGPNG")
	if p == "" {
		t.Skip()
	}
	fh, _ := os.Open(p)
	img, _ := png.Decode(fh)
	g := toGray(img)
	r := locate(&g)[0]
	d := NewDecoder(Options{Formats: OneD, ITFLengths: []int{14}})
	for _, da := range []float64{-1.5, -1, -0.5, 0, 0.5, 1, 1.5} {
		for _, k := range []float64{2, 3} {
			for _, lines := range []float64{2, 5, 10} {
				ok := 0
				for _, f := range []float64{0, -0.2, 0.2, -0.4, 0.4, -0.6, 0.6} {
					ang := r.angle + da*math.Pi/180
					ux, uy := math.Cos(ang), math.Sin(ang)
					vx, vy := -uy, ux
					margin := 0.25*r.halfU + cellSize
					n := int(2 * (r.halfU + margin) * k)
					prof := make([]float64, n)
					bits := make([]bool, n)
					off := f * r.halfV
					for dv := -lines; dv <= lines; dv++ {
						sx := r.cx - (r.halfU+margin)*ux + (off+dv)*vx
						sy := r.cy - (r.halfU+margin)*uy + (off+dv)*vy
						for i := range prof {
							tt := (float64(i) + 0.5) / k
							prof[i] += g.at(sx+tt*ux, sy+tt*uy)
						}
					}
					edgeBits(prof, bits)
					if _, good := d.decodeBits(bits); good {
						ok++
					}
				}
				t.Logf("da=%v k=%v lines=%v: %d/7", da, k, lines, ok)
			}
		}
	}
}
