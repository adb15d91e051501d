package scanner_test

import (
	"context"
	"errors"
	"image"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/drivers/scanner"
)

// busyClock is a fake clock that moves on by step at each reading: the decoder's own
// readings are its only passing time, so the budget runs out after a known number of
// steps whatever the machine's speed (no sleeping, no timing).
type busyClock struct {
	*clockwork.FakeClock
	step time.Duration
}

func (c *busyClock) Now() time.Time {
	c.FakeClock.Advance(c.step)
	return c.FakeClock.Now()
}

// clutterFrame is a 640×480 desk of dark blocks and stripes at random angles, no code:
// the decoder searches it through every pass.
func clutterFrame() *image.Gray {
	const w, h = 640, 480
	img := image.NewGray(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(34, 40))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	for range 40 {
		x0, y0 := rng.IntN(w-60), rng.IntN(h-60)
		bw, bh, stripe := 8+rng.IntN(50), 8+rng.IntN(50), 1+rng.IntN(4)
		for y := y0; y < y0+bh; y++ {
			for x := x0; x < x0+bw; x++ {
				if (x/stripe+y/(stripe+1))%2 == 0 {
					img.Pix[y*w+x] = uint8(20 + rng.IntN(60))
				}
			}
		}
	}
	return img
}

// codeFrame is a plain pack code (Code 128, 2-px modules) on white paper, 640×480.
func codeFrame(t *testing.T, text string) *image.Gray {
	t.Helper()
	sym, err := barcode.Render(barcode.Code128, text, barcode.RenderOptions{Module: 2})
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, 640, 480))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := range sym.Rect.Dy() {
		copy(img.Pix[(100+y)*img.Stride+100:], sym.Pix[y*sym.Stride:(y+1)*sym.Stride])
	}
	return img
}

// TestCameraDecoderGivesUpAFrame: the camera's decoder has a budget by default
// (DefaultFrameBudget); a frame it runs out of time on is a frame without a code (no
// event, as for any camera frame that reads nothing) and the next frame is read with a
// budget of its own. Photos keep a decoder without a budget: the same frame of clutter is
// searched to the end there.
func TestCameraDecoderGivesUpAFrame(t *testing.T) {
	clk := &busyClock{FakeClock: clockwork.NewFakeClock()}
	opt := barcode.Options{Formats: barcode.Code128 | barcode.ITF | barcode.QRCode, ITFLengths: []int{14}, Clock: clk}
	var errs []error
	cam := scanner.CameraDecoder(opt)
	rec := scanner.DecoderFunc(func(img image.Image) (string, string, error) {
		text, sym, err := cam.Decode(img)
		errs = append(errs, err)
		clk.step = 0 // the frames after the first are fast: the clock stands still
		return text, sym, err
	})
	images := scanner.NewImages(rec, scanner.Config{DedupWindow: -1})
	in := make(chan scanner.ImageFrame, 2)
	out := make(chan scanner.Event, 2)
	// Clutter, each clock reading 5 ms: the 40-ms budget is spent after 8 readings. The
	// next frame holds a code.
	clk.step = 5 * time.Millisecond
	in <- scanner.ImageFrame{Image: clutterFrame(), Name: "cam 1"}
	in <- scanner.ImageFrame{Image: codeFrame(t, "004201234560"), Name: "cam 2"}
	close(in)
	if err := images.Run(context.Background(), in, out); err != nil {
		t.Fatal(err)
	}
	close(out)
	var evs []scanner.Event
	for ev := range out {
		evs = append(evs, ev)
	}
	if len(errs) != 2 || !errors.Is(errs[0], barcode.ErrBudget) || !errors.Is(errs[0], barcode.ErrNotFound) {
		t.Fatalf("decoder errors %v, want ErrBudget (an ErrNotFound) for the clutter frame", errs)
	}
	if len(evs) != 1 || evs[0].Kind != scanner.EventScan || evs[0].Scan.Text != "004201234560" {
		t.Fatalf("events %+v, want the second frame's code alone (the given-up frame silent)", evs)
	}

	// A photo's decoder has no budget: the same clutter, the same clock, searched to the
	// end without ErrBudget.
	clk.step = 5 * time.Millisecond
	if _, _, err := scanner.BarcodeDecoder(opt).Decode(clutterFrame()); errors.Is(err, barcode.ErrBudget) || !errors.Is(err, barcode.ErrNotFound) {
		t.Errorf("photo decoder on clutter: %v, want ErrNotFound without ErrBudget", err)
	}
}

// TestCameraDecoderCadence: the camera's decoder searches one frame in four for up to its
// budget and the three after it for barcode.DefaultCadence's short one (a camera shows the
// same scene again a frame later): on frames of clutter, measured on a clock that moves a
// millisecond at each reading, the first and fifth frames spend the budget, the others a
// sixth of it at most. A budget in the options is the long frames' budget.
func TestCameraDecoderCadence(t *testing.T) {
	for _, budget := range []time.Duration{0, 20 * time.Millisecond} {
		clk := &busyClock{FakeClock: clockwork.NewFakeClock(), step: time.Millisecond}
		opt := barcode.Options{Formats: barcode.Code128 | barcode.ITF | barcode.QRCode, ITFLengths: []int{14}, Clock: clk, Budget: budget}
		cam := scanner.CameraDecoder(opt)
		long := budget
		if long == 0 {
			long = scanner.DefaultFrameBudget
		}
		short := barcode.DefaultCadence().Quick
		frame := clutterFrame()
		for i := range 5 {
			t0 := clk.FakeClock.Now()
			if _, _, err := cam.Decode(frame); !errors.Is(err, barcode.ErrBudget) {
				t.Fatalf("budget %v, frame %d: %v, want ErrBudget", budget, i, err)
			}
			spent, want := clk.FakeClock.Now().Sub(t0), short
			if i%4 == 0 {
				want = long
			}
			if spent < want || spent > want+6*time.Millisecond {
				t.Errorf("budget %v, frame %d spent %v, want %v and a few readings", budget, i, spent, want)
			}
		}
	}
}
