package barcode

import (
	"errors"
	"image"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// stepClock is a fake clock that moves on by step at each reading: the decoder's own
// readings of it are then its only passing time, so the test never sleeps and does not
// depend on the machine's speed.
type stepClock struct {
	*clockwork.FakeClock
	step  time.Duration
	reads int
}

func (c *stepClock) Now() time.Time {
	c.reads++
	c.FakeClock.Advance(c.step)
	return c.FakeClock.Now()
}

// TestBudgetGivesUp: with a time budget, a frame of clutter without a code (which costs
// every pass and the fallback: 60–100 ms on the benchmark machine) ends with ErrBudget,
// also an ErrNotFound, after a bounded number of steps; a frame with a code still reads
// within a budget that its reading fits in.
func TestBudgetGivesUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(frameSeed+3, 7))
	empty, _ := makeFrame(rng, 0, "")
	clk := &stepClock{FakeClock: clockwork.NewFakeClock(), step: time.Millisecond}
	d := NewDecoder(Options{Formats: AllFormats, Budget: 10 * time.Millisecond, Clock: clk})
	_, err := d.Decode(empty)
	if !errors.Is(err, ErrBudget) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("clutter under a budget: %v, want ErrBudget (an ErrNotFound)", err)
	}
	// One reading starts the budget, ten more spend it; a few more are checks on the way out.
	if clk.reads > 15 {
		t.Errorf("the decoder read the clock %d times after a budget of 10 steps: it did not stop", clk.reads)
	}

	// Without a budget the same frame is searched to the end: no ErrBudget.
	free := &stepClock{FakeClock: clockwork.NewFakeClock(), step: time.Millisecond}
	if _, err := NewDecoder(Options{Formats: AllFormats, Clock: free}).Decode(empty); !errors.Is(err, ErrNotFound) || errors.Is(err, ErrBudget) {
		t.Errorf("no budget: %v, want ErrNotFound without ErrBudget", err)
	}

	// A plain code reads in the first pass, within a few steps.
	img, err := Render(Code128, "004201234560", RenderOptions{Module: 2})
	if err != nil {
		t.Fatal(err)
	}
	frame := image.NewGray(image.Rect(0, 0, 640, 480))
	for i := range frame.Pix {
		frame.Pix[i] = 255
	}
	for y := range img.Rect.Dy() {
		copy(frame.Pix[(100+y)*frame.Stride+100:], img.Pix[y*img.Stride:(y+1)*img.Stride])
	}
	clk = &stepClock{FakeClock: clockwork.NewFakeClock(), step: time.Millisecond}
	res, err := NewDecoder(Options{Formats: AllFormats, Budget: 40 * time.Millisecond, Clock: clk}).Decode(frame)
	if err != nil || res.Text != "004201234560" {
		t.Errorf("a plain code under a budget: %q, %v", res.Text, err)
	}
}
