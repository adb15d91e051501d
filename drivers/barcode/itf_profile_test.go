package barcode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/makiuchi-d/gozxing"
)

// itfProfileOf draws ITF digits (wide elements ratio narrow modules; a 16-digit text and
// no stop when stop is false) between quiet zones of 12 modules at px pixels a module,
// blurred by a Gaussian of sigma pixels, as a profile of 2 samples a pixel: paper 200, ink
// 200 − contrast, Gaussian noise of the given deviation.
func itfProfileOf(digits string, stop bool, ratio, px, sigma, contrast, noise float64, rng *rand.Rand) []float64 {
	var w []float64
	for _, m := range itfElementModules(digits, stop) {
		if m == 3 {
			w = append(w, ratio)
		} else {
			w = append(w, 1)
		}
	}
	var edges []float64
	at := 12.0
	for _, m := range w {
		edges = append(edges, at*px)
		at += m
	}
	edges = append(edges, at*px)
	n := int((at + 12) * px * 2)
	p := make([]float64, n)
	for i := range p {
		x := (float64(i) + 0.5) / 2
		ink := 0.0
		for k := 0; k+1 < len(edges); k += 2 {
			ink += 0.5 * (math.Erf((x-edges[k])/(sigma*math.Sqrt2)) - math.Erf((x-edges[k+1])/(sigma*math.Sqrt2)))
		}
		p[i] = 200 - contrast*ink + noise*rng.NormFloat64()
	}
	return p
}

// itfElementModules returns the element widths of ITF digits (bar first; narrow 1, wide 3),
// with the stop or without.
func itfElementModules(digits string, stop bool) []int {
	w := []int{1, 1, 1, 1}
	for i := 0; i+1 < len(digits); i += 2 {
		a, b := itfPatterns[digits[i]-'0'], itfPatterns[digits[i+1]-'0']
		for k := range 5 {
			w = append(w, itfWide(a[k]), itfWide(b[k]))
		}
	}
	if stop {
		w = append(w, 3, 1, 1)
	}
	return w
}

func itfWide(wide bool) int {
	if wide {
		return 3
	}
	return 1
}

// TestITFProfileReadsBlurredNarrowRuns: ITF of 1.5-px modules blurred by σ 0.8–0.9 px
// (issue 34's envelope corner) loses the inner edges of its runs of narrow elements, so
// that the edge readers see one element where there are three; fitted, it reads, both ways
// round and at the wide-to-narrow ratios ITF allows, and never as another text. The edge
// reader alone reads about half of them (34 of 60; almost none while its quiet zones had to
// be one space, before they skipped noise edges by strength): the fit reads at least a
// quarter more.
func TestITFProfileReadsBlurredNarrowRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	d := NewDecoder(Options{Formats: ITF, ITFLengths: []int{14}})
	trials := 60
	if testing.Short() || raceEnabled {
		trials = 8 // CI under qemu
	}
	edgesAlone, fitted := 0, 0
	for i := range trials {
		text := randDigits(rng, 14)
		ratio := []float64{2.5, 2.75, 3}[i%3]
		p := itfProfileOf(text, true, ratio, 1.5, 0.8+0.1*rng.Float64(), 50, 1.5, rng)
		if i%2 == 1 {
			slices.Reverse(p)
		}
		w, st := edgeElements(pruneEdges(findEdges(p)))
		rev, rst := slices.Clone(w), slices.Clone(st)
		slices.Reverse(rev)
		slices.Reverse(rst)
		if len(rev)%2 == 0 && len(rev) > 0 {
			rev, rst = rev[1:], rst[1:]
		}
		if _, ok := itfEdgesQuiet(w, st); ok {
			edgesAlone++
		} else if _, ok := itfEdgesQuiet(rev, rst); ok {
			edgesAlone++
		}
		// Through the band reader's last way (edgeRow), as a frame's band is read.
		row, ok := d.edgeRow(p)
		if !ok {
			continue
		}
		r, ok := d.decodeBits(row)
		if !ok || r.Text != text {
			t.Fatalf("%s (ratio %.2f) read as %q, %v", text, ratio, r.Text, ok)
		}
		fitted++
	}
	t.Logf("%d of %d read by their edges, %d fitted", edgesAlone, trials, fitted)
	if fitted < trials*9/10 || fitted-edgesAlone < trials/4 {
		t.Fatalf("%d of %d read by their edges, %d fitted", edgesAlone, trials, fitted)
	}
}

// TestITFProfileRefusesNearMisses: the fit reads only a symbol of an allowed length with
// its start and stop: blurred ITF of 12 and 16 digits held to 14, an ITF without its stop,
// a Code 128 symbol and noise alone read nothing.
func TestITFProfileRefusesNearMisses(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	n := 90
	if testing.Short() || raceEnabled {
		n = 10
	}
	for i := range n {
		sigma := 0.5 + 0.4*rng.Float64()
		var p []float64
		var what string
		switch i % 5 {
		case 0, 1:
			n := []int{12, 16}[i%2]
			what = fmt.Sprintf("%d digits", n)
			p = itfProfileOf(randDigits(rng, n), true, 2.5+0.5*rng.Float64(), 1.5+rng.Float64(), sigma, 50+100*rng.Float64(), 1.5, rng)
		case 2:
			what = "no stop"
			p = itfProfileOf(randDigits(rng, 16), false, 3, 1.5+rng.Float64(), sigma, 100, 1.5, rng)
		case 3:
			what = "Code 128"
			p = blurredProfile(writerRuns(t, gozxing.BarcodeFormat_CODE_128, randDigits(rng, 12)), 1.5+rng.Float64(), sigma, 1.5, rng)
		default:
			what = "noise"
			p = make([]float64, 800)
			for k := range p {
				p[k] = 150 + 20*rng.NormFloat64()
			}
		}
		if row, ok := itfProfile(p, []int{14}); ok {
			r, _ := NewDecoder(Options{Formats: ITF}).decodeBits(row)
			t.Errorf("%s #%d (σ %.2f) read as %q", what, i, sigma, r.Text)
		}
	}
}

// BenchmarkITFProfile: one band profile fitted, both ways round: a blurred ITF of 1.5-px
// modules that reads (read), and a profile of noise between two quiet zones that the first
// look drops (refused).
func BenchmarkITFProfile(b *testing.B) {
	rng := rand.New(rand.NewPCG(34, 4))
	read := itfProfileOf("30042012345631", true, 2.75, 1.5, 0.85, 50, 1.5, rng)
	noise := slices.Clone(read)
	for i := 60; i < len(noise)-60; i++ {
		noise[i] = 170 + 30*rng.NormFloat64()
	}
	for _, c := range []struct {
		name string
		p    []float64
	}{{"read", read}, {"refused", noise}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				itfProfile(c.p, []int{14})
			}
		})
	}
}
