package barcode

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
)

// faintBars draws a Code 128 symbol of 3-px modules across a 640×120 image of paper 210
// with ink 185 and sensor noise (σ 4), from x0: the image and the symbol's end.
func faintBars(t *testing.T, x0 int) (gray, int) {
	t.Helper()
	runs := writerRuns(t, gozxing.BarcodeFormat_CODE_128, "314475325945")
	const mod = 3
	g := gray{w: 640, h: 120, pix: make([]byte, 640*120)}
	rng := rand.New(rand.NewPCG(7, 11))
	x, dark := x0, true
	ink := make([]bool, g.w)
	for _, r := range runs {
		for range r * mod {
			ink[x] = dark
			x++
		}
		dark = !dark
	}
	for y := range g.h {
		for i := range g.w {
			v := 210.0
			if ink[i] && y >= 20 && y < 100 {
				v = 185
			}
			g.pix[y*g.w+i] = byte(math.Round(min(255, max(0, v+4*rng.NormFloat64()))))
		}
	}
	return g, x
}

// TestFitAlongFollowsTheBars: a candidate over the first third of a faint code grows to
// the whole code (its ends within a quiet zone's margin); a candidate over the whole code
// already, or over plain paper, does not.
func TestFitAlongFollowsTheBars(t *testing.T) {
	g, end := faintBars(t, 100)
	length := float64(end - 100)
	part := region{linear: true, cx: 100 + length/6, cy: 60, halfU: length / 6, halfV: 40}
	reach := part.halfU + 0.5*part.halfU + 2*cellSize
	e, ok := fitAlong(&g, part, 1, 0, 0, 1, reach)
	if !ok {
		t.Fatalf("a candidate over the code's first third did not grow")
	}
	lo, hi := e.cx-e.halfU, e.cx+e.halfU
	// The margin is six edge spacings (about 10 modules of 3 px): the ends lie inside it.
	if lo > 100 || lo < 100-60 || hi < float64(end) || hi > float64(end)+60 {
		t.Errorf("grown to [%.0f, %.0f], want the code [100, %d] with a quiet zone's margin", lo, hi, end)
	}
	whole := region{linear: true, cx: 100 + length/2, cy: 60, halfU: length / 2, halfV: 40}
	if _, ok := fitAlong(&g, whole, 1, 0, 0, 1, whole.halfU+0.5*whole.halfU+2*cellSize); ok {
		t.Errorf("a candidate over the whole code grew")
	}
	paper := region{linear: true, cx: 60, cy: 60, halfU: 30, halfV: 40}
	if _, ok := fitAlong(&g, paper, 1, 0, 0, 1, 30+15+2*cellSize); ok {
		t.Errorf("a candidate over plain paper grew")
	}
}

// TestFitAlongFollowsWideBarsFromTheirEnd: under strong noise the locator may find only a
// few cells at one end of a long code of wide modules (the tuning frame of ITF `mixed`
// seed 960: a candidate of 62 px at the end of a code of 370 px, narrow 2.7 px). The
// candidate holds 12–15 bar edges, and the code runs on past the line first followed;
// fitAlong still grows it to the whole code.
func TestFitAlongFollowsWideBarsFromTheirEnd(t *testing.T) {
	runs := writerRuns(t, gozxing.BarcodeFormat_ITF, "25086692904620")
	const mod, x0 = 3, 120
	g := gray{w: 640, h: 120, pix: make([]byte, 640*120)}
	rng := rand.New(rand.NewPCG(3, 5))
	x, dark := x0, true
	ink := make([]bool, g.w)
	for _, r := range runs {
		for range r * mod {
			ink[x] = dark
			x++
		}
		dark = !dark
	}
	end := x
	for y := range g.h {
		for i := range g.w {
			v := 210.0
			if ink[i] && y >= 20 && y < 100 {
				v = 185
			}
			g.pix[y*g.w+i] = byte(math.Round(min(255, max(0, v+4*rng.NormFloat64()))))
		}
	}
	part := region{linear: true, cx: float64(end) - 40, cy: 60, halfU: 40, halfV: 40}
	reach := part.halfU + 0.5*part.halfU + 2*cellSize
	e, ok := fitAlong(&g, part, 1, 0, 0, 1, reach)
	if !ok {
		t.Fatalf("a candidate over the code's last %d px did not grow", 80)
	}
	lo, hi := e.cx-e.halfU, e.cx+e.halfU
	if lo > x0 || lo < x0-60 || hi < float64(end) || hi > float64(end)+60 {
		t.Errorf("grown to [%.0f, %.0f], want the code [%d, %d] with a quiet zone's margin", lo, hi, x0, end)
	}
}

// TestFaintLinearBesideClutter reads tuning frames of faint Code 128 and ITF that each
// linear fallback was made for; without it they read nothing: a candidate half the code's
// length off its centre (fitAlong: Code 128 30146), a striped block in the scan's margin
// that turned the refined angle 15° off (Code 128 19377), a matrix of dark blocks or a
// shadow edge that both fits chose over the bars (sweepLinear: Code 128 28397 and 30799,
// ITF 22028).
func TestFaintLinearBesideClutter(t *testing.T) {
	eachCamFrame(t, []camCase{{Code128, 30146}, {Code128, 19377}, {Code128, 28397}, {Code128, 30799}, {ITF, 22028}}, func(c camCase, cf camFrame, text string) {
		wantDecoded(t, c, cf, text)
	})
}

// TestCutOuterBar reads Code 128 and ITF symbols whose frame cuts a third off the outermost
// bar (no quiet zone left) at either end, lower in contrast and noisy as a photo: the cut
// bar is drawn at its known width (decodeCutBar); without it none of them reads.
func TestCutOuterBar(t *testing.T) {
	for _, c := range []struct {
		f    Format
		text string
		cut  int // a third of the outermost bar, in pixels (3-px modules)
	}{{Code128, "314475325945", 2}, {ITF, "03483959684458", 1}} {
		img, err := Render(c.f, c.text, RenderOptions{Module: 3, QuietZone: 10, Height: 80})
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		first, last := -1, -1 // the symbol's first and last dark column
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.GrayAt(x, b.Min.Y+b.Dy()/2).Y < 128 {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		rng := rand.New(rand.NewPCG(9, 10))
		for _, cut := range []image.Rectangle{
			image.Rect(first+c.cut, b.Min.Y, b.Max.X, b.Max.Y),  // the start's outer bar cut
			image.Rect(b.Min.X, b.Min.Y, last+1-c.cut, b.Max.Y), // the stop's
		} {
			sub := image.NewGray(image.Rect(0, 0, cut.Dx(), cut.Dy()))
			for y := range cut.Dy() {
				for x := range cut.Dx() {
					v := float64(img.GrayAt(cut.Min.X+x, cut.Min.Y+y).Y)*0.7 + 40 + 4*rng.NormFloat64()
					sub.SetGray(x, y, color.Gray{Y: uint8(min(255, max(0, v)))})
				}
			}
			res, err := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}}).Decode(sub)
			if err != nil || res.Text != c.text || res.Format != c.f {
				t.Errorf("%v cut to %v of %v: got %+v, %v; want %q", c.f, cut, b, res, err, c.text)
			}
		}
	}
}

// TestNoisyBarsLocatedOnTheMean reads the tuning frame of ITF `mixed` seed 827 (narrow
// 1.65 px under perspective, motion σ 0.72, 32 % contrast, uneven light, JPEG q68, sensor
// noise ×7): on the frame its bars locate as a faint piece of the code only, which neither
// pass reads; located again on the frame's 3×3 mean (scanSmoothedLocate), they read.
func TestNoisyBarsLocatedOnTheMean(t *testing.T) {
	fn := filepath.Join("testdata", "gen3-noise1d", "itf-mixed-827.jpg")
	data, err := os.ReadFile(fn)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(strings.TrimSuffix(fn, ".jpg") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}})
	r, err := d.Decode(img)
	if err != nil || r.Text != strings.TrimSpace(string(want)) {
		t.Errorf("read %q (%v), want %q", r.Text, err, strings.TrimSpace(string(want)))
	}
}

// TestNoisyBarsReadOverTheirHeight reads a crop (320×320 px) of the tuning frame of ITF
// `mixed` seed 820 (narrow 1.57 px, 27 % contrast, uneven light, sensor noise ×10: σ 20):
// it locates as a linear candidate on the frame's 3×3 mean only, and the usual bands of 11
// lines read it nowhere twice; bands over the bars' whole height do (readTall).
func TestNoisyBarsReadOverTheirHeight(t *testing.T) {
	img, want := loadCrop(t, filepath.Join("testdata", "gen3-noise1d", "itf-mixed-820.png"))
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}})
	r, err := d.Decode(img)
	if err != nil || r.Text != want {
		t.Errorf("read %q (%v), want %q", r.Text, err, want)
	}
}
