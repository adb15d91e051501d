//go:build !race && linux

package barcode

import (
	"image"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/sys/unix"
)

// BenchmarkDecodeSet is the speed target of issue 34 per set (docs/codes.md, Speed): each
// 640×480 frame of a set decoded once per op in turn, without a budget and with the 40-ms
// budget of the terminal's camera loop, reporting the median, 99th percentile and worst
// wall time per frame, the same of the thread's CPU time (which a loaded machine does not
// inflate: the decoder runs on one goroutine, locked to its thread here), and the share of
// frames read. Sets:
//   - desk: the first generator's 60 frames (Code 128, ITF, QR) as camera YCbCr;
//   - camera: the second generator's frames, 22 per symbology (zint: skipped without it);
//   - gen3: the third generator's checked-in sample, plus its class frames in the cache
//     directory BARCODE_GEN3_BENCH names (out/gen3/qr: the wider QR set);
//   - nearmiss: near-miss codes (nearmiss_test.go) with no code to read: the failing path;
//   - clutter: desk frames of clutter without a code, the terminal's formats;
//   - real: ZXing's blackbox camera photographs at 640×480 (realphotos_test.go: code128-2
//     and qrcode-1, 60 photos), every format.
//
// A set of frames that must not read counts a read as a failure (%-read is then the
// share of frames that read nothing, as it should).
func BenchmarkDecodeSet(b *testing.B) {
	for _, set := range benchSets() {
		b.Run(set.name, func(b *testing.B) {
			imgs, texts := set.load(b)
			for _, v := range []struct {
				name   string
				budget time.Duration
				clock  clockwork.Clock
			}{
				{"budget=none", 0, nil},
				{"budget=40ms", 40 * time.Millisecond, nil},
				// The budget counted in the thread's CPU time: what the wall-clock budget
				// does on an idle machine, measured on a loaded one.
				{"budget=40ms-cpu", 40 * time.Millisecond, cpuClock{clockwork.NewRealClock()}},
			} {
				b.Run(v.name, func(b *testing.B) {
					opt := set.opt
					opt.Budget, opt.Clock = v.budget, v.clock
					benchDecodeCPU(b, imgs, texts, NewDecoder(opt).Decode, set.empty)
				})
			}
		})
	}
}

// benchSet is one of the sets of BenchmarkDecodeSet and BenchmarkCameraStream.
type benchSet struct {
	name  string
	load  func(b *testing.B) ([]image.Image, []string)
	opt   Options
	empty bool // no frame holds a code
}

func benchSets() []benchSet {
	return []benchSet{
		{"desk", deskSet, DefaultOptions(), false},
		{"camera", cameraSet, Options{Formats: AllFormats, ITFLengths: []int{14}}, false},
		{"gen3", gen3SampleFrames, Options{Formats: AllFormats, ITFLengths: []int{14}}, false},
		{"nearmiss", nearMissSet, DefaultOptions(), true},
		{"clutter", clutterSet, DefaultOptions(), true},
		{"real", realPhotoSet, Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}}, false},
	}
}

// benchDecodeCPU is benchDecode with the thread's CPU time per frame beside the wall time.
func benchDecodeCPU(b *testing.B, imgs []image.Image, texts []string, decode func(image.Image) (Result, error), empty bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var wall, cpu []time.Duration
	read, i := 0, 0
	for b.Loop() {
		k := i % len(imgs)
		c0, t0 := threadCPU(), time.Now()
		r, err := decode(imgs[k])
		wall, cpu = append(wall, time.Since(t0)), append(cpu, threadCPU()-c0)
		if empty && err != nil || !empty && err == nil && r.Text == texts[k] {
			read++
		}
		i++
	}
	reportSpread(b, wall, "ms")
	reportSpread(b, cpu, "cpu-ms")
	b.ReportMetric(100*float64(read)/float64(i), "%-read")
}

// reportSpread reports the median, 99th percentile and worst of ds in ms as unit-median,
// unit-p99 and unit-max (sorting ds).
func reportSpread(b *testing.B, ds []time.Duration, unit string) {
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2])/1e6, unit+"-median")
	b.ReportMetric(float64(ds[len(ds)*99/100])/1e6, unit+"-p99")
	b.ReportMetric(float64(ds[len(ds)-1])/1e6, unit+"-max")
}

// cpuClock is a clock whose time runs with the calling thread's CPU time (benchDecodeCPU
// locks the goroutine to its thread).
type cpuClock struct{ clockwork.Clock }

var cpuEpoch = time.Now()

func (cpuClock) Now() time.Time { return cpuEpoch.Add(threadCPU()) }

// threadCPU is the calling thread's CPU time (user and system), to the nanosecond
// (CLOCK_THREAD_CPUTIME_ID: getrusage's per-thread times move in scheduler ticks, 4 ms here).
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

func deskSet(b *testing.B) ([]image.Image, []string) {
	frames, _, texts := benchFrames(b)
	imgs := make([]image.Image, len(frames))
	for i, f := range frames {
		imgs[i] = f
	}
	return imgs, texts
}

func cameraSet(b *testing.B) ([]image.Image, []string) {
	needZint(b)
	var imgs []image.Image
	var texts []string
	for _, f := range []Format{Code128, ITF, QRCode, DataMatrix} {
		fi, ft := camBenchFrames(b, f, 2*int(numCamClasses))
		imgs, texts = append(imgs, fi...), append(texts, ft...)
	}
	return imgs, texts
}

// realPhotoSet is the 640×480 camera photographs of ZXing's blackbox sets (code128-2 and
// qrcode-1) as gozxing ships them: the benchmark is skipped when gozxing's module is not found.
func realPhotoSet(b *testing.B) ([]image.Image, []string) {
	dir := realPhotoDir(b)
	var imgs []image.Image
	var texts []string
	for _, set := range realSets() {
		if set.name != "code128-2" && set.name != "qrcode-1" {
			continue
		}
		for _, p := range set.photos {
			imgs = append(imgs, loadImage(b, filepath.Join(dir, set.dir, p.file)))
			texts = append(texts, p.text)
		}
	}
	return imgs, texts
}

func clutterSet(*testing.B) ([]image.Image, []string) {
	var imgs []image.Image
	for i := range 20 {
		rng := rand.New(rand.NewPCG(frameSeed+3, uint64(i)))
		img, _ := makeFrame(rng, 0, "")
		imgs = append(imgs, img)
	}
	return imgs, make([]string, len(imgs))
}
