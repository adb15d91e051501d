package barcode

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestTurnedRetryReadsAxisBars: a Code 128 of 1.5-px modules at exactly 90°, blurred (σ 0.8
// px), from the third generator's sweep (cell module 1.5, angle 90, blur 0.8, contrast 100 of
// the coarse grid), read nothing before the turned retry (linear_turn.go): the same symbol
// placed elsewhere in the 5° grid read, and turned by 2–8° it read. It reads now.
func TestTurnedRetryReadsAxisBars(t *testing.T) {
	base := "testdata/gen3-sweep/code128-m1.5-a90-b0.8-c100"
	meta, err := os.ReadFile(base + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := strings.Cut(string(meta), "\n")
	img := loadImage(t, base+".png")
	r, err := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}}).Decode(img)
	if err != nil || r.Text != want || r.Format != Code128 {
		t.Fatalf("read %v %q (%v), want Code 128 %q", r.Format, r.Text, err, want)
	}
}

// BenchmarkTurnedRetry is the cost of the turned retry alone on a frame of clutter without a
// code (desk frames): what it adds to a frame that reads nothing.
func BenchmarkTurnedRetry(b *testing.B) {
	var frames []gray
	for i := range 20 {
		rng := rand.New(rand.NewPCG(frameSeed+3, uint64(i)))
		img, _ := makeFrame(rng, 0, "")
		frames = append(frames, toGray(img))
	}
	d := NewDecoder(DefaultOptions())
	i := 0
	for b.Loop() {
		if d.scanTurned(&frames[i%len(frames)], func(Result) bool { return false }) {
			b.Fatal("a code found in clutter")
		}
		i++
	}
}
