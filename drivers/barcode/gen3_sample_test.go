package barcode

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestGen3Sample reads the small checked-in sample of the third generator's held-out frames
// (testdata/gen3: zint + ImageMagick, scripts/gen3/frame.sh, seeds from gen3HeldOut, never
// tuned on; those drawn as PNG re-encoded as JPEG at quality 90 to stay small (at 80, the DataMatrix one of seed 1000000 no longer reads)). Each must read its exact text
// and nothing else: it runs in every test run, where the generator itself (BARCODE_GEN3)
// does not. File names: SYMBOLOGY-CLASS-SEED.jpg beside SYMBOLOGY-CLASS-SEED.txt.
func TestGen3Sample(t *testing.T) {
	skipUnderRace(t)
	files, err := filepath.Glob(filepath.Join("testdata", "gen3", "*.jpg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample frames in testdata/gen3: %v", err)
	}
	formats := map[string]Format{"code128": Code128, "itf": ITF, "qr": QRCode, "dm": DataMatrix}
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".jpg")
		f, ok := formats[strings.SplitN(name, "-", 2)[0]]
		if !ok {
			t.Fatalf("%s: unknown symbology in the name", file)
		}
		meta, err := os.ReadFile(strings.TrimSuffix(file, ".jpg") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		want, params, _ := strings.Cut(strings.TrimSpace(string(meta)), "\n")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		r, err := d.Decode(img)
		if err != nil || r.Text != want || r.Format != f {
			t.Errorf("%s: read %v %q (%v), want %v %q; %s", name, r.Format, r.Text, err, f, want, params)
		}
	}
}

// gen3SampleFrames loads the checked-in sample (TestGen3Sample) and, when BARCODE_GEN3_BENCH
// names a cache directory of the generator (out/gen3/SYM), its class frames too.
func gen3SampleFrames(b *testing.B) ([]image.Image, []string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "gen3", "*.jpg"))
	if dir := os.Getenv("BARCODE_GEN3_BENCH"); dir != "" {
		for _, e := range []string{"*.png", "*.jpg"} {
			more, _ := filepath.Glob(filepath.Join(dir, e))
			for _, m := range more {
				if !strings.HasPrefix(filepath.Base(m), "sweep-") && !strings.HasPrefix(filepath.Base(m), "none-") {
					files = append(files, m)
				}
			}
		}
	}
	var imgs []image.Image
	var texts []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		img, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		meta, err := os.ReadFile(strings.TrimSuffix(strings.TrimSuffix(file, ".jpg"), ".png") + ".txt")
		if err != nil {
			b.Fatal(err)
		}
		text, _, _ := strings.Cut(string(meta), "\n")
		imgs, texts = append(imgs, img), append(texts, text)
	}
	if len(imgs) == 0 {
		b.Skip("no frames of the third generator")
	}
	return imgs, texts
}

// BenchmarkDecodeGen3 decodes the third generator's frames (the checked-in sample, plus a
// cache directory's class frames with BARCODE_GEN3_BENCH=out/gen3/SYM), every format
// enabled, without a budget and with the 40-ms one a camera loop sets.
func BenchmarkDecodeGen3(b *testing.B) {
	imgs, texts := gen3SampleFrames(b)
	for _, budget := range []time.Duration{0, 40 * time.Millisecond} {
		b.Run(fmt.Sprintf("budget=%v", budget), func(b *testing.B) {
			d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Budget: budget})
			benchDecode(b, imgs, texts, d.Decode)
		})
	}
}

// BenchmarkDecodeEmptyFrameBudget is BenchmarkDecodeEmptyFrame (a frame of clutter without a
// code, the terminal's formats) with the 40-ms budget of a camera loop.
func BenchmarkDecodeEmptyFrameBudget(b *testing.B) {
	var frames []*image.Gray
	for i := range 20 {
		rng := rand.New(rand.NewPCG(frameSeed+3, uint64(i)))
		img, _ := makeFrame(rng, 0, "")
		frames = append(frames, img)
	}
	opt := DefaultOptions()
	opt.Budget = 40 * time.Millisecond
	d := NewDecoder(opt)
	var times []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := d.Decode(frames[i%len(frames)]); err == nil {
			b.Fatal("a code found in clutter")
		}
		times = append(times, time.Since(t0))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "ms-median")
	b.ReportMetric(float64(times[len(times)*99/100])/1e6, "ms-p99")
}
