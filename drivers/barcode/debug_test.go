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
