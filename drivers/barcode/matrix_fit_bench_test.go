//go:build !race && linux

package barcode

import (
	"image"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// BenchmarkMatrixCornerFrame is issue 34's matrix corner as the camera meets it: the whole
// 640×480 frames of testdata/gen3-corner (1.5-px modules blurred σ 0.8, 25 % contrast, QR
// and DataMatrix, which only the fitted pass reads), the budgets counted in the thread's
// CPU time (cpuClock). full: one decode per op with the camera's Full budget (40 ms),
// reporting the share read (%-read) and the CPU time per frame (cpu-ms-*); stream: the
// frames fed to a Stream under DefaultCadence from every phase (benchStream), a frame shown
// until it reads (at most eight frames), reporting the frames it took.
func BenchmarkMatrixCornerFrame(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("testdata", "gen3-corner", "*.png"))
	if len(files) == 0 {
		b.Skip("no frames")
	}
	for _, fn := range files {
		img, want := loadCrop(b, fn)
		name := strings.SplitN(filepath.Base(fn), "-", 2)[0]
		opt := Options{Formats: AllFormats, ITFLengths: []int{14}, Clock: cpuClock{clockwork.NewRealClock()}}
		b.Run(name+"/full", func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			o := opt
			o.Budget = DefaultCadence().Full
			d := NewDecoder(o)
			var cpu []time.Duration
			read := 0
			for b.Loop() {
				c0 := threadCPU()
				r, err := d.Decode(img)
				cpu = append(cpu, threadCPU()-c0)
				if err == nil && r.Text == want {
					read++
				} else if err == nil {
					b.Fatalf("WRONG read %q", r.Text)
				}
			}
			reportSpread(b, cpu, "cpu-ms")
			b.ReportMetric(100*float64(read)/float64(len(cpu)), "%-read")
		})
		b.Run(name+"/stream", func(b *testing.B) {
			benchStream(b, []image.Image{img}, []string{want}, NewStream(opt, DefaultCadence()), false)
		})
	}
}

// BenchmarkMatrixFitted measures the fitted pass on one candidate (decodeFitted): read,
// the four checked-in frames' symbols (each read); clutter, the first two small matrix
// candidates of ten desk frames of clutter without a code (none reads; the share of them
// whose grid matched well enough to be sampled and read is reported as sampled/op);
// random, a QR and a DataMatrix structure with random data (matched, fitted, refused: the
// pass's most costly failure). Besides the wall time per candidate (ns/op), the thread's CPU
// time per candidate (cpu-ms-*), which a loaded machine inflates less.
func BenchmarkMatrixFitted(b *testing.B) {
	type cand struct {
		g gray
		r region
	}
	firstSmall := func(g gray, max int) []cand {
		var out []cand
		for _, r := range locate(&g) {
			if s, _ := cropSpan(r); r.linear || 2*s > fitMaxSide {
				continue
			}
			if out = append(out, cand{g, r}); len(out) == max {
				break
			}
		}
		return out
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "gen3-fit", "*.png"))
	var reads []cand
	for _, fn := range files {
		img, _ := loadCrop(b, fn)
		reads = append(reads, firstSmall(toGray(img), 1)...)
	}
	var clutter []cand
	for i := range 10 {
		img, _ := makeFrame(rand.New(rand.NewPCG(frameSeed+2, uint64(i))), 0, "")
		clutter = append(clutter, firstSmall(toGray(img), 2)...)
	}
	// Symbols whose fixed modules are right and data random (as
	// TestMatrixFittedRefusesRandomData draws them): matched, fitted and refused.
	var random []cand
	rng := rand.New(rand.NewPCG(34, 3))
	for _, sym := range []struct {
		dim int
		kn  fitKnown
	}{{25, qrFitKnown(25)}, {18, dmFitKnown(18)}} {
		g, grid := blurredGrid(randomData(sym.dim, sym.kn, rng), sym.dim, 1.5, 0.5, 0.8, 200, 50, 3, rng)
		cx, cy := grid.at(float64(sym.dim)/2, float64(sym.dim)/2)
		half := 1.5 * float64(sym.dim) / 2
		random = append(random, cand{g, region{cx: cx, cy: cy, halfU: half, halfV: half}})
	}
	for _, set := range []struct {
		name  string
		cands []cand
		want  bool
	}{{"read", reads, true}, {"clutter", clutter, false}, {"random", random, false}} {
		b.Run(set.name, func(b *testing.B) {
			if len(set.cands) == 0 {
				b.Skip("no candidates")
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			d := NewDecoder(Options{Formats: AllFormats})
			i := 0
			var cpu []time.Duration
			for b.Loop() {
				c := set.cands[i%len(set.cands)]
				i++
				d.chaseLeft = fitChaseFrameTrials // a frame's (scan sets it)
				c0 := threadCPU()
				_, ok, _ := d.decodeFitted(&c.g, c.r)
				cpu = append(cpu, threadCPU()-c0)
				if ok != set.want {
					b.Fatalf("candidate %d: read %v", i-1, ok)
				}
			}
			reportSpread(b, cpu, "cpu-ms")
			sampled := 0
			for _, c := range set.cands {
				s, _ := cropSpan(c.r)
				win := newFitWin(&c.g, c.r.cx, c.r.cy, int(math.Ceil(s)))
				if st, ok := fitStartOf(&win, c.r, false); ok {
					if len(d.fitHypotheses(&win, st)) > 0 {
						sampled++
					}
				}
			}
			b.ReportMetric(float64(sampled)/float64(len(set.cands)), "sampled/op")
			b.ReportMetric(float64(len(set.cands)), "candidates")
		})
	}
}
