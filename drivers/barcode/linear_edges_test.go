package barcode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
)

// writerRuns returns the run lengths (modules, bar first) of what gozxing's writer makes of
// contents as format, without the quiet zones.
func writerRuns(t *testing.T, f gozxing.BarcodeFormat, contents string) []int {
	t.Helper()
	var w gozxing.Writer = oned.NewCode128Writer()
	if f == gozxing.BarcodeFormat_ITF {
		w = oned.NewITFWriter()
	}
	m, err := w.Encode(contents, f, 0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var runs []int
	for x := 0; x < m.GetWidth(); {
		v := m.Get(x, 0)
		k := x
		for k < m.GetWidth() && m.Get(k, 0) == v {
			k++
		}
		if v || len(runs) > 0 {
			runs = append(runs, k-x)
		}
		x = k
	}
	if len(runs)%2 == 0 {
		runs = runs[:len(runs)-1] // the trailing quiet zone
	}
	return runs
}

// TestCode128Patterns: our table of Code 128 element widths is the one gozxing's writer
// draws (every value: data pairs of code set C 00–99, the three starts, the stop, and the
// check characters, which take every value), and each character's similar-edge distances
// name it alone.
func TestCode128Patterns(t *testing.T) {
	if len(code128Similar) != len(code128Patterns) {
		t.Fatalf("%d distinct similar-edge keys for %d characters", len(code128Similar), len(code128Patterns))
	}
	seen := map[int]bool{}
	check := func(contents string, vals []int) {
		runs := writerRuns(t, gozxing.BarcodeFormat_CODE_128, contents)
		sum := vals[0]
		for i := 1; i < len(vals); i++ {
			sum += i * vals[i]
		}
		vals = append(vals, sum%103, 106)
		k := 0
		for _, v := range vals {
			p := code128Patterns[v]
			if k+len(p) > len(runs) || fmt.Sprint(runs[k:k+len(p)]) != fmt.Sprint(p) {
				t.Fatalf("%q: value %d drawn as %v, table %v", contents, v, runs[k:min(len(runs), k+len(p))], p)
			}
			seen[v] = true
			k += len(p)
		}
	}
	for v := range 100 {
		for u := range 100 {
			check(fmt.Sprintf("%02d%02d", v, u), []int{105, v, u})
		}
	}
	check("a", []int{104, 65})
	check("\x01", []int{103, 65})
	if len(seen) != 107 {
		t.Fatalf("only %d of 107 values checked", len(seen))
	}
}

// TestITFPatterns: our ITF digit patterns are those gozxing's writer draws.
func TestITFPatterns(t *testing.T) {
	for _, s := range []string{"0123456789", "9876543210", "30042012345631"} {
		runs := writerRuns(t, gozxing.BarcodeFormat_ITF, s)
		k := 4 // the start
		for i := 0; i < len(s); i += 2 {
			for e := range 5 {
				for h, d := range []byte{s[i], s[i+1]} {
					if got, want := runs[k+2*e+h] > 1, itfPatterns[d-'0'][e]; got != want {
						t.Fatalf("%s digit %c element %d: wide %v, table %v", s, d, e, got, want)
					}
				}
			}
			k += 10
		}
	}
}

// TestEdgeDecodersReadDistortedWidths: element widths with every bar thinned (or widened)
// by up to 0.4 module, jitter and a module that grows along the symbol (perspective) are
// read by the similar-edge decoders, where run-length matching fails; a changed character
// is refused.
func TestEdgeDecodersReadDistortedWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	d := NewDecoder(Options{Formats: OneD})
	for trial := range 200 {
		f, text := Code128, fmt.Sprintf("%012d", rng.Int64N(1e12))
		zf := gozxing.BarcodeFormat_CODE_128
		if trial%2 == 1 {
			f, text, zf = ITF, fmt.Sprintf("%014d", rng.Int64N(1e14)), gozxing.BarcodeFormat_ITF
		}
		runs := writerRuns(t, zf, text)
		bias := (rng.Float64()*2 - 1) * 0.4
		grow := 1 + 0.4*rng.Float64()
		w := make([]float64, len(runs))
		for i, r := range runs {
			m := 3 * (1 + (grow-1)*float64(i)/float64(len(runs)))
			b := bias
			if i%2 == 1 {
				b = -bias
			}
			w[i] = (float64(r)+b)*m + rng.NormFloat64()*0.1*m
		}
		var row []bool
		var ok bool
		if f == Code128 {
			row, ok = code128Edges(w)
		} else {
			row, ok = itfEdges(w)
		}
		if !ok {
			t.Fatalf("%v %s (bias %.2f, growth %.2f): not read", f, text, bias, grow)
		}
		r, ok := d.decodeBits(row)
		if !ok || r.Text != text {
			t.Fatalf("%v %s: gozxing read the ideal row as %q, %v", f, text, r.Text, ok)
		}
		// A narrow element in the middle drawn wide: the check character (Code 128) or the
		// patterns (ITF) refuse it, or it reads as another valid symbol, never as this text.
		i := len(w) / 2
		for runs[i] != 1 {
			i++
		}
		w[i] += 2 * 3 * (1 + (grow-1)*float64(i)/float64(len(runs)))
		if f == Code128 {
			row, ok = code128Edges(w)
		} else {
			row, ok = itfEdges(w)
		}
		if ok {
			if r, ok := d.decodeBits(row); ok && r.Text == text {
				t.Fatalf("%v %s: a changed element still reads as the text", f, text)
			}
		}
	}
}

// FuzzEdgeDecoders: any profile read by its edges (both decoders, both ways round) gives an
// ideal row gozxing reads or nothing; never a panic.
func FuzzEdgeDecoders(f *testing.F) {
	bars, _ := Render(Code128, "004201234560", RenderOptions{Module: 2, Height: 1, QuietZone: 10})
	f.Add(bars.Pix[:bars.Rect.Dx()])
	itf, _ := Render(ITF, "30042012345631", RenderOptions{Module: 2, Height: 1, QuietZone: 10})
	f.Add(itf.Pix[:itf.Rect.Dx()])
	f.Add([]byte{255, 0, 255, 0, 0, 255, 255, 0, 255})
	// A blurred ITF that only the fit reads (itf_profile.go).
	blurred := itfProfileOf("30042012345631", true, 2.75, 1.5, 0.9, 50, 1.5, rand.New(rand.NewPCG(34, 3)))
	bb := make([]byte, len(blurred))
	for i, v := range blurred {
		bb[i] = byte(max(0, min(255, v)))
	}
	f.Add(bb)
	d := NewDecoder(Options{Formats: OneD})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4000 {
			return
		}
		p := make([]float64, len(b))
		for i, v := range b {
			p[i] = float64(v)
		}
		row, ok := d.edgeRow(p)
		if !ok {
			return
		}
		if len(row) == 0 {
			t.Fatal("empty ideal row")
		}
		if r, ok := d.decodeBits(row); ok && (r.Text == "" || r.Format&OneD == 0) {
			t.Fatalf("empty read %+v", r)
		}
	})
}

// blurredProfile draws runs (modules, bar first) between quiet zones of 12 modules at px
// pixels a module, blurred by a Gaussian of sigma pixels, as a profile of 2 samples a pixel
// with noise of the given deviation (paper 200, ink 60).
func blurredProfile(runs []int, px, sigma, noise float64, rng *rand.Rand) []float64 {
	var edges []float64 // module positions where the ink changes
	at := 12.0
	for _, r := range runs {
		edges = append(edges, at)
		at += float64(r)
	}
	edges = append(edges, at)
	n := int((at + 12) * px * 2)
	p := make([]float64, n)
	for i := range p {
		x := (float64(i) + 0.5) / 2 // pixels
		// Ink between edges 2k and 2k+1: each edge contributes the Gaussian's integral.
		ink := 0.0
		for k := 0; k+1 < len(edges); k += 2 {
			a, b := edges[k]*px, edges[k+1]*px
			ink += 0.5 * (math.Erf((x-a)/(sigma*math.Sqrt2)) - math.Erf((x-b)/(sigma*math.Sqrt2)))
		}
		p[i] = 200 - 140*ink + noise*rng.NormFloat64()
	}
	return p
}

// TestCode128BlurredNarrowModules: a Code 128 symbol of 1.8-px modules blurred by a
// Gaussian of about a module (the camera frames' small codes out of focus) spreads its
// narrow elements into their wide neighbours; matched against the widths the symbol's own
// elements come out, most such profiles read that the similar-edge distances alone miss,
// and none reads as another text.
func TestCode128BlurredNarrowModules(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	d := NewDecoder(Options{Formats: Code128})
	plain, calibrated := 0, 0
	const trials = 200
	for range trials {
		text := fmt.Sprintf("%012d", rng.Int64N(1e12))
		runs := writerRuns(t, gozxing.BarcodeFormat_CODE_128, text)
		p := blurredProfile(runs, 1.8, 1.0+0.2*rng.Float64(), 1, rng)
		w := edgeWidths(pruneEdges(findEdges(p)))
		for s := 0; s+6 <= len(w); s += 2 {
			if _, ok := code128From(w, s, false); ok {
				plain++
				break
			}
		}
		row, ok := code128Edges(w)
		if !ok {
			continue
		}
		r, ok := d.decodeBits(row)
		if !ok || r.Text != text {
			t.Fatalf("%s read as %q, %v", text, r.Text, ok)
		}
		calibrated++
	}
	t.Logf("%d of %d read by similar edges alone, %d calibrated", plain, trials, calibrated)
	if calibrated < trials*3/4 || calibrated < plain+trials/5 {
		t.Fatalf("%d of %d read by similar edges alone, %d calibrated", plain, trials, calibrated)
	}
}

// TestITFQuietZoneSkipsNoiseEdges reads ITF widths whose quiet zones hold weak edges (a
// tenth of a bar's: noise beside a faint symbol), each splitting the zone into spaces
// narrower than five narrow elements: the edges' strengths let them pass (quietFrom). Before,
// the start's widths shadowed the strengths in itfEdgesQuiet and a quiet zone had to be one
// space. Edges as strong as a bar's still close the zone.
func TestITFQuietZoneSkipsNoiseEdges(t *testing.T) {
	const text = "77672569616393"
	mods := []float64{1, 1, 1, 1}
	for i := 0; i+1 < len(text); i += 2 {
		mods = append(mods, itfPairWidths(int(text[i]-'0')*10+int(text[i+1]-'0'), 3)...)
	}
	mods = append(mods, 3, 1, 1)
	for _, noise := range []float64{0.1, 1} {
		// A noise bar, a quiet zone of 3 + 0.5 + 4 narrow split twice, the symbol, the same after.
		w := []float64{0.5, 3, 0.5, 4}
		w = append(w, mods...)
		w = append(w, 4, 0.5, 3, 0.5, 10)
		st := make([]float64, len(w)+1)
		for i := range st {
			st[i] = 1
		}
		// The edges of the noise bars: 0–1 and 2–3 before, and the two after.
		for _, i := range []int{0, 1, 2, 3, len(w) - 4, len(w) - 3, len(w) - 2, len(w) - 1} {
			st[i] = noise
		}
		for i := range w {
			w[i] *= 4 // narrow 4 samples
		}
		row, ok := itfEdgesQuiet(w, st)
		if ok != (noise < quietNoise) {
			t.Fatalf("noise edges at %.1f of a bar's: read %v, want %v", noise, ok, noise < quietNoise)
		}
		if !ok {
			continue
		}
		d := NewDecoder(Options{Formats: ITF, ITFLengths: []int{14}})
		if r, ok := d.decodeBits(row); !ok || r.Text != text {
			t.Errorf("read %q (%v), want %q", r.Text, ok, text)
		}
	}
}
