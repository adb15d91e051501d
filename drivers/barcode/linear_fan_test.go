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
)

// TestConvergingBarsReadByFan reads the third generator's ITF `mixed` tuning frames 1237
// (narrow 1.62 px, 26 % contrast, noise ×9.8, JPEG q47) and 1308 (1.93 px, 41 %, ×8.5, q45),
// both in perspective, with uneven light and clutter: their bars turn by 10° and 14° along
// the symbol, so the bands that average their lines along one direction smear one end or
// the other, and narrow bands keep the noise; neither read before the bands followed the
// bars (readFan).
func TestConvergingBarsReadByFan(t *testing.T) {
	for _, seed := range []string{"1237", "1308"} {
		fn := filepath.Join("testdata", "gen3-fan", "itf-mixed-"+seed+".jpg")
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
			t.Errorf("seed %s: read %q (%v), want %q", seed, r.Text, err, strings.TrimSpace(string(want)))
		}
	}
}

// convergingITF draws an ITF symbol (narrow 2 px on its centre line y = 100, 40 % contrast,
// noise σ 6) whose bars meet at (200, 100−dist) (dist 0: parallel, vertical bars).
func convergingITF(text string, dist float64, seed uint64) *image.Gray {
	mods := []int{1, 1, 1, 1}
	for i := 0; i+1 < len(text); i += 2 {
		for _, w := range itfPairWidths(int(text[i]-'0')*10+int(text[i+1]-'0'), 3) {
			mods = append(mods, int(w))
		}
	}
	mods = append(mods, 3, 1, 1)
	var bars []bool // one entry per module
	for i, m := range mods {
		for range m {
			bars = append(bars, i%2 == 0)
		}
	}
	const narrow, cy = 2.0, 100.0
	x0 := 200 - narrow*float64(len(bars))/2
	img := image.NewGray(image.Rect(0, 0, 400, 200))
	rng := rand.New(rand.NewPCG(seed, 7))
	for y := range 200 {
		for x := range 400 {
			v := 0.0 // 4×4 subpixels
			for i := range 16 {
				sx, sy := float64(x)+(float64(i%4)+0.5)/4, float64(y)+(float64(i/4)+0.5)/4
				// Where the bar through (sx, sy) crosses the centre line.
				u := sx
				if dist != 0 {
					u = 200 + (sx-200)*dist/(sy-cy+dist)
				}
				v += 200.0 / 16
				if k := int(math.Floor((u - x0) / narrow)); k >= 0 && k < len(bars) && bars[k] && math.Abs(sy-cy) < 60 {
					v -= 80.0 / 16
				}
			}
			img.SetGray(x, y, color.Gray{Y: uint8(min(255, max(0, v+6*rng.NormFloat64())))})
		}
	}
	return img
}

// TestMeasureFan fits the turn of bars that meet 1,600 px beyond the symbol's centre line:
// dθ/du = −1/1600 rad a pixel along it, 10° over its 280 px; parallel bars do not fit as
// a fan (their turn is under fanMinTurn).
func TestMeasureFan(t *testing.T) {
	r := region{linear: true, cx: 200, cy: 100, angle: 0, halfU: 140, halfV: 55}
	for _, c := range []struct {
		dist, slope float64
		ok          bool
	}{{1600, -1.0 / 1600, true}, {-1600, 1.0 / 1600, true}, {0, 0, false}} {
		g := toGray(convergingITF("97110605744306", c.dist, 1))
		theta, slope, ok := measureFan(&g, r)
		if ok != c.ok {
			t.Errorf("bars meeting %.0f px away: fan %v, want %v (θ %.2f°, %.4f°/px)", c.dist, ok, c.ok, theta*180/math.Pi, slope*180/math.Pi)
			continue
		}
		if ok && (math.Abs(slope-c.slope) > 0.15*math.Abs(c.slope) || math.Abs(theta) > math.Pi/180) {
			t.Errorf("bars meeting %.0f px away: θ %.2f°, %.4f°/px; want 0°, %.4f°/px", c.dist, theta*180/math.Pi, slope*180/math.Pi, c.slope*180/math.Pi)
		}
	}
}
