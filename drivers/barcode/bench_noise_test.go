package barcode

import (
	"image"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// noiseFrames returns 640×480 frames of pure noise: uniform, and Gaussian around mid grey.
func noiseFrames() []*image.Gray {
	var out []*image.Gray
	for i := range 4 {
		rng := rand.New(rand.NewPCG(5, uint64(i)))
		g := image.NewGray(image.Rect(0, 0, 640, 480))
		for j := range g.Pix {
			if i%2 == 0 {
				g.Pix[j] = byte(rng.IntN(256))
			} else {
				g.Pix[j] = byte(max(0, min(255, 128+40*rng.NormFloat64())))
			}
		}
		out = append(out, g)
	}
	return out
}

// BenchmarkDecodeNoiseFrame is the cost of a frame of pure sensor noise (a covered lens,
// a dark room at high gain): it must stay bounded, with every format enabled.
func BenchmarkDecodeNoiseFrame(b *testing.B) {
	frames := noiseFrames()
	d := NewDecoder(Options{Formats: AllFormats})
	var times []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := d.Decode(frames[i%len(frames)]); err == nil {
			b.Fatal("a code found in noise")
		}
		times = append(times, time.Since(t0))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "ms-median")
	b.ReportMetric(float64(times[len(times)-1])/1e6, "ms-max")
}
