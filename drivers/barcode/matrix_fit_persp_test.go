package barcode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// TestMatrixFittedPerspective reads QR (version 2) and DataMatrix (18×18) symbols seen from
// aside: each corner of the symbol moved inwards by up to 14 % of its side (as the third
// generator's perspective class moves a label's), turned at random, its narrowest module
// 1.5–1.8 px (the centre's 2.1–2.5), blurred σ 0.8 over the pixels' own size, 25–50 %
// contrast, noise σ 4 (perspSymbol: drawn through a homography of the unit square, apart from
// the fit). The fitted pass (decodeFitted) must read every one its text; the affine fit alone
// (affineRead: the pass before it knew perspective) must miss most, or the symbols no longer
// show what the perspective fit is for. Six of each (two under -short; skipped under -race).
func TestMatrixFittedPerspective(t *testing.T) {
	skipUnderRace(t)
	n := 6
	if testing.Short() {
		n = 2
	}
	for _, f := range []Format{QRCode, DataMatrix} {
		affine := 0
		for i := range n {
			rng := rand.New(rand.NewPCG(77, uint64(i)))
			text := ""
			for range 25 {
				text += string("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"[rng.IntN(34)])
			}
			sym := perspSymbol(t, f, text, rng, 1.5)
			d := NewDecoder(Options{Formats: AllFormats})
			if res, ok := affineRead(d, &sym.g, sym.r); ok {
				affine++
				if res.Text != text {
					t.Errorf("%v %d: affine WRONG read %q", f, i, res.Text)
				}
			}
			res, ok, _ := d.decodeFitted(&sym.g, sym.r)
			if !ok || res.Text != text {
				t.Errorf("%v %d (%s): read %v %q, want %q", f, i, sym.info, ok, res.Text, text)
			}
		}
		if 2*affine > n {
			t.Errorf("%v: the affine fit reads %d of %d: the symbols no longer need perspective", f, affine, n)
		}
	}
}

type perspSym struct {
	g    gray
	r    region
	info string
}

// perspSymbol draws text as f under a random perspective (each corner of the symbol moved
// inwards by up to 14 % of its side), narrowest module narrowLo..narrowLo+0.3 px, blurred σ
// 0.8, contrast 25–50 %, noise σ 4.
func perspSymbol(t testing.TB, f Format, text string, rng *rand.Rand, narrowLo float64) perspSym {
	img, err := Render(f, text, RenderOptions{Module: 1, QuietZone: 1})
	if err != nil {
		t.Fatal(err)
	}
	dim := img.Bounds().Dx() - 2
	dark := make([]bool, dim*dim)
	for j := range dim {
		for i := range dim {
			dark[j*dim+i] = img.Pix[(j+1)*img.Stride+i+1] < 128
		}
	}
	theta := rng.Float64() * 2 * math.Pi
	var q [4][2]float64 // unit square's corners (0,0),(1,0),(1,1),(0,1), moved inwards
	for k, c := range [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
		q[k] = [2]float64{c[0] + (1-2*c[0])*0.14*rng.Float64(), c[1] + (1-2*c[1])*0.14*rng.Float64()}
	}
	// In label units, then scaled: narrowest local module.
	h := squareToQuad(q)
	narrow := math.Inf(1)
	for j := 0; j <= 10; j++ {
		for i := 0; i <= 10; i++ {
			u, v := float64(i)/10, float64(j)/10
			const e = 1e-4
			x0, y0 := h.at(u, v)
			x1, y1 := h.at(u+e, v)
			x2, y2 := h.at(u, v+e)
			narrow = min(narrow, math.Hypot(x1-x0, y1-y0)/e, math.Hypot(x2-x0, y2-y0)/e)
		}
	}
	want := narrowLo + 0.3*rng.Float64()
	scale := want / (narrow / float64(dim)) // pixels per label unit
	side := int(scale*1.4) + 16
	c, s := math.Cos(theta), math.Sin(theta)
	var pts [4][2]float64
	for k := range q {
		x, y := (q[k][0]-0.5)*scale, (q[k][1]-0.5)*scale
		pts[k] = [2]float64{float64(side)/2 + x*c - y*s, float64(side)/2 + x*s + y*c}
	}
	hm := squareToQuad(pts)
	contrast := 50 + 50*rng.Float64()
	g := blurredGridAt(dark, dim, quadMap{hm, dim}, side, 0.8, 200, contrast, 4, rng)
	half := scale * 0.5
	return perspSym{g: g, r: region{cx: float64(side) / 2, cy: float64(side) / 2, halfU: half, halfV: half},
		info: fmt.Sprintf("dim %d narrow %.2f module %.2f contrast %.0f θ %.0f° corners %.3f", dim, want, scale/float64(dim), contrast, theta*180/math.Pi, q)}
}

// quadMap maps module coordinates of a dim×dim symbol through a homography of the unit square.
type quadMap struct {
	h   homography
	dim int
}

func (q quadMap) inv(x, y float64) (u, v float64) {
	u, v = q.h.inv(x, y)
	return u * float64(q.dim), v * float64(q.dim)
}

type homography [9]float64

func (h homography) at(u, v float64) (x, y float64) {
	w := h[6]*u + h[7]*v + h[8]
	return (h[0]*u + h[1]*v + h[2]) / w, (h[3]*u + h[4]*v + h[5]) / w
}

func (h homography) inv(x, y float64) (u, v float64) {
	a, b, c, d, e, f, g, k, i := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	// adjugate
	A := homography{e*i - f*k, c*k - b*i, b*f - c*e, f*g - d*i, a*i - c*g, c*d - a*f, d*k - e*g, b*g - a*k, a*e - b*d}
	return A.at(x, y)
}

// squareToQuad maps the unit square's corners (0,0),(1,0),(1,1),(0,1) to p (Heckbert).
func squareToQuad(p [4][2]float64) homography {
	x0, y0, x1, y1, x2, y2, x3, y3 := p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1], p[3][0], p[3][1]
	dx1, dx2, dx3 := x1-x2, x3-x2, x0-x1+x2-x3
	dy1, dy2, dy3 := y1-y2, y3-y2, y0-y1+y2-y3
	den := dx1*dy2 - dx2*dy1
	g := (dx3*dy2 - dx2*dy3) / den
	h := (dx1*dy3 - dx3*dy1) / den
	return homography{x1 - x0 + g*x1, x3 - x0 + h*x3, x0, y1 - y0 + g*y1, y3 - y0 + h*y3, y0, g, h, 1}
}

// readPerspNoise reads one crop of testdata/gen3-perspnoise (200-px crops of third
// generator tuning frames: symbols in perspective under strong sensor noise).
func readPerspNoise(t *testing.T, name string) {
	t.Helper()
	skipUnderRace(t)
	img, want := loadCrop(t, filepath.Join("testdata", "gen3-perspnoise", name+".png"))
	r, err := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}}).Decode(img)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if r.Text != want {
		t.Fatalf("%s: read %q, want %q", name, r.Text, want)
	}
}

// TestPerspUnderStrongNoise reads DataMatrix `mixed` seed 1290: an 18×18 symbol of 2.9-px
// modules in perspective (its near side 2.2 px), 30 % contrast dimmed to 65 % by an uneven
// light, noise ×8.4 (σ 17 grey levels). Its best affine grid of its own size matched 0.53,
// under the 0.6 that started the perspective climb, and its corners climbed on the pixels
// matched 0.60; climbed on the window's 3×3 means they match 0.90 and the symbol reads. And
// QR `mixed` seed 1002 (version 2, 2.47-px modules, 1.78 px on the near side, 29 %, noise
// ×8.9), climbed in perspective from its finders' affine grid (0.72) to 0.76 on the pixels
// and 0.94 on the means. Nothing read either before.
func TestPerspUnderStrongNoise(t *testing.T) {
	readPerspNoise(t, "dm-mixed-1290")
	readPerspNoise(t, "qr-mixed-1002")
}
