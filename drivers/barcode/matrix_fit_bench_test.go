//go:build !race && linux

package barcode

import (
	"image"
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
