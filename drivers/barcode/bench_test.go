package barcode

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchFrames returns 60 seeded photo-like frames (20 each of Code 128, ITF, QR) as camera
// YCbCr images, with their texts.
func benchFrames(tb testing.TB) ([]*image.YCbCr, []*image.Gray, []string) {
	var ycc []*image.YCbCr
	var grays []*image.Gray
	var texts []string
	for _, f := range []Format{Code128, ITF, QRCode} {
		for i := range 20 {
			rng := rand.New(rand.NewPCG(frameSeed+1, uint64(f)<<32|uint64(i)))
			text := codeText(rng, f)
			g, _ := makeFrame(rng, f, text)
			y := image.NewYCbCr(g.Rect, image.YCbCrSubsampleRatio420)
			copy(y.Y, g.Pix)
			for j := range y.Cb {
				y.Cb[j], y.Cr[j] = 128, 128
			}
			ycc = append(ycc, y)
			grays = append(grays, g)
			texts = append(texts, text)
		}
	}
	return ycc, grays, texts
}

// BenchmarkDecodeFrame decodes one 640×480 desk frame per op with Decode (default formats),
// cycling over the 60 frames; it reports the median, 99th percentile and worst time per
// frame and the share of frames read.
func BenchmarkDecodeFrame(b *testing.B) {
	frames, _, texts := benchFrames(b)
	imgs := make([]image.Image, len(frames))
	for i, f := range frames {
		imgs[i] = f
	}
	benchDecode(b, imgs, texts, Decode)
}

// BenchmarkDecodeCameraFrame is the same over 88 camera frames (frames2_test.go,
// tuning range: 22 per symbology, two of each distortion class), every format enabled.
func BenchmarkDecodeCameraFrame(b *testing.B) {
	needZint(b)
	var imgs []image.Image
	var texts []string
	for _, f := range []Format{Code128, ITF, QRCode, DataMatrix} {
		fi, ft := camBenchFrames(b, f, 2*int(numCamClasses))
		imgs, texts = append(imgs, fi...), append(texts, ft...)
	}
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
	benchDecode(b, imgs, texts, d.Decode)
}

// BenchmarkDecodeCameraSymbology is BenchmarkDecodeCameraFrame per symbology, over 88
// camera frames of each (tuning range, eight of each distortion class), every format
// enabled: the median and the 99th percentile per symbology (the goal: ≤ 10 ms and ≤ 50 ms).
func BenchmarkDecodeCameraSymbology(b *testing.B) {
	needZint(b)
	for _, f := range []Format{Code128, ITF, QRCode, DataMatrix} {
		imgs, texts := camBenchFrames(b, f, 8*int(numCamClasses))
		b.Run(f.String(), func(b *testing.B) {
			d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
			benchDecode(b, imgs, texts, d.Decode)
		})
	}
}

// camBenchFrames returns the camera frames 0…n-1 of symbology f and their texts.
func camBenchFrames(b *testing.B, f Format, n int) ([]image.Image, []string) {
	var imgs []image.Image
	var texts []string
	for i := range n {
		cf, text, err := camFrameAt(f, i)
		if err != nil {
			b.Fatal(err)
		}
		imgs = append(imgs, cf.img)
		texts = append(texts, text)
	}
	return imgs, texts
}

func benchDecode(b *testing.B, imgs []image.Image, texts []string, decode func(image.Image) (Result, error)) {
	var times []time.Duration
	read, i := 0, 0
	for b.Loop() {
		k := i % len(imgs)
		t0 := time.Now()
		r, err := decode(imgs[k])
		times = append(times, time.Since(t0))
		if err == nil && r.Text == texts[k] {
			read++
		}
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "ms-median")
	b.ReportMetric(float64(times[len(times)*99/100])/1e6, "ms-p99")
	b.ReportMetric(float64(times[len(times)-1])/1e6, "ms-max")
	b.ReportMetric(100*float64(read)/float64(i), "%-read")
}

// BenchmarkZbarimgFrame runs zbarimg (all its symbologies, as shipped) over the same 60
// frames in one process per op and reports its time per frame and the ratio to ours.
func BenchmarkZbarimgFrame(b *testing.B) {
	bin := needTool(b, "zbarimg", "zbar-tools")
	frames, grays, texts := benchFrames(b)
	dir := b.TempDir()
	files := make([]string, len(grays))
	for i, g := range grays {
		files[i] = filepath.Join(dir, fmt.Sprintf("f%02d.pgm", i))
		if err := writePGM(files[i], g); err != nil {
			b.Fatal(err)
		}
	}
	// Ours on the same frames (three passes, mean per frame), for the ratio.
	t0 := time.Now()
	for range 3 {
		for _, f := range frames {
			_, _ = Decode(f)
		}
	}
	ours := time.Since(t0) / time.Duration(3*len(frames))
	b.ResetTimer()
	start := time.Now()
	var out []byte
	for b.Loop() {
		var err error
		out, err = exec.Command(bin, append([]string{"-q", "--nodbus"}, files...)...).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 {
				b.Fatal(err)
			}
		}
	}
	per := time.Since(start) / time.Duration(b.N*len(files))
	read := 0
	for _, t := range texts {
		if strings.Contains(string(out), ":"+t+"\n") {
			read++
		}
	}
	b.ReportMetric(float64(per)/1e6, "ms/frame")
	b.ReportMetric(float64(per)/float64(ours), "zbar/ours")
	b.ReportMetric(100*float64(read)/float64(len(texts)), "%-read")
}

// BenchmarkDecodeEmptyFrame is the cost of a frame with clutter but no code: what a camera
// loop pays between scans.
func BenchmarkDecodeEmptyFrame(b *testing.B) {
	var frames []*image.Gray
	for i := range 20 {
		rng := rand.New(rand.NewPCG(frameSeed+3, uint64(i)))
		img, _ := makeFrame(rng, 0, "")
		frames = append(frames, img)
	}
	var times []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := Decode(frames[i%len(frames)]); err == nil {
			b.Fatal("a code found in clutter")
		}
		times = append(times, time.Since(t0))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "ms-median")
	b.ReportMetric(float64(times[len(times)*9/10])/1e6, "ms-p90")
}
