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
	if free.reads != 0 {
		t.Errorf("no budget: the clock was read %d times", free.reads)
	}

	// A plain code reads in the first pass, within a few steps.
	frame := plainCodeFrame(t, "004201234560")
	clk = &stepClock{FakeClock: clockwork.NewFakeClock(), step: time.Millisecond}
	res, err := NewDecoder(Options{Formats: AllFormats, Budget: 40 * time.Millisecond, Clock: clk}).Decode(frame)
	if err != nil || res.Text != "004201234560" {
		t.Errorf("a plain code under a budget: %q, %v", res.Text, err)
	}
}

// TestBudgetSkipsReadsThatWouldOverrun: a call of gozxing's 2D readers cannot be stopped
// once started, so under a budget one starts only when the time left covers its crop at the
// rate such calls have run at (perPixel, learnt from the clock). A large crop too large for
// the time left is skipped, a small one still runs, and a frame that read nothing after such
// a skip ends with ErrBudget (TestBudgetGivesUp: without a budget no clock is read).
func TestBudgetSkipsReadsThatWouldOverrun(t *testing.T) {
	clk := clockwork.NewFakeClock()
	d := NewDecoder(Options{Formats: AllFormats, Budget: 40 * time.Millisecond, Clock: clk})
	// A read of 100,000 pixels that took 20 ms: 200 ns a pixel.
	start := clk.Now()
	clk.Advance(20 * time.Millisecond)
	d.deadline = clk.Now().Add(10 * time.Millisecond)
	d.learn(start, 100_000)
	if !d.affords(40_000) { // 8 ms
		t.Error("a crop of 8 ms refused with 10 ms left")
	}
	if d.gaveUp {
		t.Error("given up after a crop that fits")
	}
	if d.affords(640 * 640) { // 82 ms
		t.Error("a 640×640 crop started with 10 ms left at 200 ns a pixel")
	}
	if !d.gaveUp || d.expiredOnce {
		t.Errorf("after a skipped crop: gaveUp %v (want true), expired %v (want false: smaller steps go on)", d.gaveUp, d.expiredOnce)
	}
	// The rate is a running mean: one slow read does not hold the estimate up for ever.
	for range 200 {
		s := clk.Now()
		clk.Advance(time.Millisecond)
		d.deadline = clk.Now().Add(10 * time.Millisecond)
		d.learn(s, 100_000) // 10 ns a pixel
	}
	if d.perPixel > 15 {
		t.Errorf("rate %v ns a pixel after 200 reads at 10: the slow read still holds it", d.perPixel)
	}

	// A frame of clutter whose large 2D reads are all predicted to overrun (the fallback's
	// whole frame among them) ends with ErrBudget.
	rng := rand.New(rand.NewPCG(frameSeed+3, 7))
	empty, _ := makeFrame(rng, 0, "")
	slow := NewDecoder(Options{Formats: QRCode, Budget: time.Hour, Clock: clockwork.NewFakeClock()})
	slow.perPixel = float64(time.Hour) / 1000 // an hour a thousand pixels
	if _, err := slow.Decode(empty); !errors.Is(err, ErrBudget) {
		t.Errorf("every large 2D read skipped: %v, want ErrBudget", err)
	}
}

// plainCodeFrame is a 640×480 white frame with text as a Code 128 of 2-px modules at (100,
// 100): read in the first pass.
func plainCodeFrame(t *testing.T, text string) *image.Gray {
	t.Helper()
	img, err := Render(Code128, text, RenderOptions{Module: 2})
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
	return frame
}

// TestBudgetSkipsFitsThatWouldOverrun: a full least-squares fit of a grid (readFitted)
// cannot be stopped once started either, and on a large window of clutter it took 13 ms, so
// under a budget one starts only when the time left covers the symbol's area at the rate
// fits have run at (fitPerPixel, learnt from the clock). A QR symbol of 1.5-px modules
// blurred σ 0.8 at 25 % contrast, which the fitted pass reads, is not read there when every
// fit is predicted to overrun (the frame given up), and is read when the fits fit; the rate
// is learnt as they run.
func TestBudgetSkipsFitsThatWouldOverrun(t *testing.T) {
	sym, err := Render(QRCode, "PACK 0042 BUDGET", RenderOptions{Module: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := sym.Bounds()
	x0, y0, x1 := b.Max.X, b.Max.Y, b.Min.X // the symbol's dark bounding box (its finders' corners)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if sym.GrayAt(x, y).Y < 128 {
				x0, y0, x1 = min(x0, x), min(y0, y), max(x1, x)
			}
		}
	}
	dim := x1 - x0 + 1
	dark := make([]bool, dim*dim)
	for m := range dark {
		dark[m] = sym.GrayAt(x0+m%dim, y0+m/dim).Y < 128
	}
	rng := rand.New(rand.NewPCG(34, 41))
	g, grid := blurredGrid(dark, dim, 1.5, 0.4, 0.8, 200, 50, 3, rng)
	cx, cy := grid.at(float64(dim)/2, float64(dim)/2)
	half := 1.5 * float64(dim) / 2
	r := region{cx: cx, cy: cy, halfU: half, halfV: half}
	read := func(d *Decoder) (Result, bool) {
		d.deadline = d.clock.Now().Add(time.Hour)
		res, ok, _ := d.decodeFitted(&g, r)
		return res, ok
	}

	opt := Options{Formats: AllFormats, Budget: time.Hour, Clock: clockwork.NewFakeClock()}
	slow := NewDecoder(opt) // the fake clock stands still: only the prediction can refuse
	slow.fitPerPixel = float64(time.Hour) / 100
	if res, ok := read(slow); ok || !slow.gaveUp {
		t.Errorf("every fit predicted to take hours: read %q (%v), given up %v; want no read, given up", res.Text, ok, slow.gaveUp)
	}

	clk := &stepClock{FakeClock: clockwork.NewFakeClock(), step: 10 * time.Microsecond}
	opt.Clock = clk
	d := NewDecoder(opt)
	if res, ok := read(d); !ok || res.Text != "PACK 0042 BUDGET" {
		t.Fatalf("fits that fit: %q (%v)", res.Text, ok)
	}
	if d.fitPerPixel <= 0 || d.gaveUp {
		t.Errorf("after a read by the fitted pass: rate %v ns a pixel² (want > 0), given up %v", d.fitPerPixel, d.gaveUp)
	}
}
