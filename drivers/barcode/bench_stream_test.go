//go:build !race && linux

package barcode

import (
	"image"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// BenchmarkCameraStream is issue 34's speed target as a camera meets it: the sets of
// BenchmarkDecodeSet fed to a Stream under DefaultCadence, each frame of a set shown as a
// camera shows a scene, frame after frame, starting at every phase of the cadence in turn
// (frame k at phase k mod Every). A frame with a code is shown until it reads, at most twice
// Every frames; a frame without one is shown for Every frames (one whole cycle). It reports
// the CPU time per frame shown (median, 99th percentile, worst: cpu-ms-*), the share of
// frames with a code read (%-read; for the sets without a code, the share that read nothing),
// and for those that read, the frames shown until they did (frames-to-read-p99, -max) and
// the CPU spent on the way (cpu-ms-to-read-p99). The budgets are counted in the thread's
// CPU time (cpuClock), as an idle machine spends them.
func BenchmarkCameraStream(b *testing.B) {
	for _, set := range benchSets() {
		b.Run(set.name, func(b *testing.B) {
			imgs, texts := set.load(b)
			opt := set.opt
			opt.Clock = cpuClock{clockwork.NewRealClock()}
			benchStream(b, imgs, texts, NewStream(opt, DefaultCadence()), set.empty)
		})
	}
}

func benchStream(b *testing.B, imgs []image.Image, texts []string, s *Stream, empty bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	every := max(s.c.Every, 1)
	var perFrame, toRead []time.Duration
	var frames []int
	read, shown, k := 0, 0, 0
	for b.Loop() {
		i := k % len(imgs)
		s.n = uint64(k % every)
		k++
		shows := 2 * every
		if empty {
			shows = every
		}
		var spent time.Duration
		ok := empty
		for f := range shows {
			c0 := threadCPU()
			r, err := s.Decode(imgs[i])
			c := threadCPU() - c0
			perFrame, spent = append(perFrame, c), spent+c
			if empty && err == nil {
				ok = false
			}
			if !empty && err == nil && r.Text == texts[i] {
				ok = true
				frames, toRead = append(frames, f+1), append(toRead, spent)
				break
			}
		}
		shown++
		if ok {
			read++
		}
	}
	reportSpread(b, perFrame, "cpu-ms")
	b.ReportMetric(100*float64(read)/float64(shown), "%-read")
	if len(frames) > 0 {
		slices.Sort(frames)
		slices.Sort(toRead)
		b.ReportMetric(float64(frames[len(frames)*99/100]), "frames-to-read-p99")
		b.ReportMetric(float64(frames[len(frames)-1]), "frames-to-read-max")
		b.ReportMetric(float64(toRead[len(toRead)*99/100])/1e6, "cpu-ms-to-read-p99")
	}
}
